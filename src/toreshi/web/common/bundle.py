"""The app's own scripts and board style for pages that open from files (the public results site, issue 29).

A page opened with ``file://`` gets no module script in Chromium (a module from ``file://`` is a cross-origin
request it refuses) and may fetch nothing. :func:`classic_script` therefore turns a module of ``static/js`` and the
modules it imports into one classic script: each module becomes a function of its own (its names stay its own, as
in a module) whose exports the modules after it read; nothing is rewritten inside a module but its ``import`` lines
and its ``export`` keywords. :func:`shared_board_css` copies the board's rules from ``static/css/toreshi.css``
(the parts between ``shared-board:begin`` and ``shared-board:end``) with the colours they use, scoped to one
element, so that the results site draws the same board as the game pages without a second stylesheet to keep.

>>> "import " in classic_script("results-replay.js"), "drawBoard" in classic_script("results-replay.js")
(False, True)
"""

from __future__ import annotations

import re
from functools import cache

from toreshi.web.common.templates import STATIC_DIR

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+\.js)";[ \t]*\n', re.M)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.M)


class BundleError(ValueError):
    """A module uses a form of import or export the bundle does not read."""


def _variable(name: str) -> str:
    return "module_" + re.sub(r"\W", "_", name.removesuffix(".js"))


def _order(entry: str, sources: dict[str, str], seen: list[str], path: tuple[str, ...] = ()) -> None:
    if entry in seen:
        return
    if entry in path:
        raise BundleError(f"{entry}: imports go round in a circle ({' → '.join(path)})")
    source = (STATIC_DIR / "js" / entry).read_text(encoding="utf-8")
    sources[entry] = source
    for _names, module in _IMPORT.findall(source):
        _order(module, sources, seen, (*path, entry))
    seen.append(entry)


def _module(name: str, source: str) -> str:
    lines = []
    for names, module in _IMPORT.findall(source):
        parts = [part.strip() for part in names.split(",") if part.strip()]
        bindings = [part.replace(" as ", ": ") for part in parts]
        lines.append(f"  const {{ {', '.join(bindings)} }} = {_variable(module)};")
    body = _IMPORT.sub("", source)
    if re.search(r"^\s*(import|export)\b(?!\s+(?:async\s+)?(?:function|const|let|class)\b)", body, re.M):
        raise BundleError(f"{name}: an import or export the bundle does not read")
    exported = _EXPORT.findall(body)
    body = re.sub(r"^export\s+", "", body, flags=re.M)
    returned = f"  return {{ {', '.join(exported)} }};" if exported else "  return {};"
    head = f'// --- {name}\nconst {_variable(name)} = (() => {{\n  "use strict";\n'
    return head + "\n".join(lines) + ("\n" if lines else "") + body.rstrip() + "\n" + returned + "\n})();\n"


@cache
def classic_script(entry: str) -> str:
    """``static/js/<entry>`` and every module it imports (``import { … } from "./x.js"``), as one classic script."""
    sources: dict[str, str] = {}
    order: list[str] = []
    _order(entry, sources, order)
    modules = "\n".join(_module(name, sources[name]) for name in order)
    note = f"// {entry} and its modules as one classic script (toreshi.web.common.bundle): it runs from file:// too.\n"
    return note + "(() => {\n" + modules + "})();\n"


_REGION = re.compile(r"/\* shared-board:begin[^*]*\*/\n(.*?)/\* shared-board:end \*/", re.S)
_VARIABLE = re.compile(r"(--[\w-]+):\s*([^;]+);")


@cache
def shared_board_css(scope: str) -> str:
    """The board's rules of ``toreshi.css`` with the light colours they use, set on ``scope`` (a selector) only."""
    sheet = (STATIC_DIR / "css" / "toreshi.css").read_text(encoding="utf-8")
    rules = "\n".join(region.strip() for region in _REGION.findall(sheet))
    root = re.search(r":root \{(.*?)\}", sheet, re.S)
    if not rules or root is None:
        raise BundleError("toreshi.css has no shared-board region or no :root block")
    values = dict(_VARIABLE.findall(root[1]))
    used = sorted(set(re.findall(r"var\((--[\w-]+)", rules)))
    missing = [name for name in used if name not in values]
    if missing:
        raise BundleError(f"toreshi.css's :root does not set {', '.join(missing)}")
    colours = "\n".join(f"  {name}: {values[name]};" for name in used)
    return f"{scope} {{\n{colours}\n}}\n{rules}\n"
