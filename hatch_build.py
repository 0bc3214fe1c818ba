"""Build hook: compiles the engine's C search (src/toreshi/togyz/engine/_native.c) with the machine's C compiler.

Runs on every wheel build, editable ones included (``pip install -e .`` in scripts/_env.sh). Needs only a C
compiler (``$CC``, else gcc or cc) and the interpreter's own headers — nothing is downloaded. When either is
missing or the compilation fails, the build goes on with a warning and the engine uses its pure-Python search
(``toreshi.togyz.engine.search.NATIVE`` is then False): slower, same results.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("src/toreshi/togyz/engine/_native.c")


class NativeEngineBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        source = Path(self.root) / SOURCE
        target = source.with_name("_native" + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
        compiler = shutil.which(os.environ.get("CC") or "gcc") or shutil.which("cc")
        include = sysconfig.get_paths()["include"]
        if compiler is None or not (Path(include) / "Python.h").is_file():
            self.app.display_warning("no C compiler or Python headers: the togyz engine will search in pure Python")
            return
        command = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(target)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            self.app.display_warning(f"the togyz engine's C search did not build, pure Python it is:\n{done.stderr}")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":  # an editable install imports it from src/ directly
            build_data["force_include"][str(target)] = f"toreshi/togyz/engine/{target.name}"
