"""Keeping the catalogues complete: which texts the interface uses, and adding their translations.

``python -m toreshi.web.common.catalogues missing`` prints, as JSON ready to fill in, every text used by a template or a
web module (refusal messages included) that lacks a Kazakh or Russian translation; ``python -m
toreshi.web.common.catalogues add FILE.json --area NAME`` writes the translations of such a file
(``{"msgid": {"kk": "…", "ru": "…"}}``) into ``locale/<lang>/LC_MESSAGES/NAME.po``. The test suite checks the
same extraction (``tests/web/test_i18n.py``), so a text without a translation fails CI.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

from toreshi.texts import i18n
from toreshi.web.common.templates import TEMPLATE_DIR

WEB = Path(__file__).parent.parent
SOURCES = WEB.parent
PYTHON_DIRS = (WEB, SOURCES / "texts", SOURCES / "texts" / "refusals")
"""The modules whose ``_``/``N_``/``gettext`` calls hold interface texts: the web's (every area package of it) and
the texts'."""
TRANSLATED = ("kk", "ru")


def _msgid(message: str | tuple[str, ...]) -> str:
    return message if isinstance(message, str) else message[0]


@cache
def used_messages() -> dict[str, str]:
    """Every msgid in the templates (Jinja2's Babel extractor) and in the web modules (Python), and where it is."""
    found: dict[str, str] = {}
    for filename, line, message, _comments, _context in extract_from_dir(
        str(TEMPLATE_DIR),
        method_map=[("**.html", "jinja2.ext:babel_extract")],
        options_map={"**.html": {"extensions": "jinja2.ext.i18n"}},
    ):
        found.setdefault(_msgid(message), f"templates/{filename}:{line}")
    for folder in PYTHON_DIRS:
        for module in sorted(folder.rglob("*.py") if folder == WEB else folder.glob("*.py")):
            for line, message, _comments, _context in extract_from_file("python", str(module)):
                found.setdefault(_msgid(message), f"{module.relative_to(SOURCES)}:{line}")
    return found


def missing(language: str) -> dict[str, str]:
    """The used texts without a (non-fuzzy) translation in ``language``, with where each is used."""
    catalogue = i18n.read_catalogue(language)
    result = {}
    for text, where in sorted(used_messages().items()):
        message = catalogue.get(text)
        if message is None or not message.string or message.fuzzy:
            result[text] = where
    return result


def add(translations: dict[str, dict[str, str]], area: str) -> int:
    """Write ``{msgid: {lang: text}}`` into each language's ``<area>.po`` (English gets the msgid itself, empty);
    returns how many msgids were written."""
    for language in (*TRANSLATED, "en"):
        path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{area}.po"
        if path.exists():
            with path.open("rb") as handle:
                catalogue = read_po(handle, locale=language)
        else:
            catalogue = Catalog(locale=language, project="toreshi", version="0.1")
        for msgid, texts in translations.items():
            string = "" if language == "en" else texts.get(language, "")
            flags = ("python-format",) if "%(" in msgid else ()
            catalogue.add(msgid, string, flags=flags)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalogue, width=0, omit_header=False, sort_output=True, include_lineno=False)
    return len(translations)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m toreshi.web.common.catalogues")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("missing", help="texts used without a kk or ru translation, as JSON to fill in")
    adding = commands.add_parser("add", help="write translations from a JSON file into an area's .po files")
    adding.add_argument("file", type=Path)
    adding.add_argument("--area", required=True, help="the .po file's name without .po, e.g. refusals")
    args = parser.parse_args(argv)
    if args.command == "missing":
        wanted: dict[str, dict[str, str]] = {}
        for language in TRANSLATED:
            for text, where in missing(language).items():
                wanted.setdefault(text, {"where": where, "kk": "", "ru": ""})
        json.dump(wanted, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 1 if wanted else 0
    data = json.loads(args.file.read_text(encoding="utf-8"))
    count = add({k: {lang: v.get(lang, "") for lang in TRANSLATED} for k, v in data.items()}, args.area)
    print(f"{count} texts written to {args.area}.po")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
