"""scripts/_env.sh says when the C search was not built: its ``pip install --quiet`` hides the build's warning."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toreshi.togyz.engine.search import NATIVE

ROOT = Path(__file__).resolve().parents[2]
HINT = "apt-get install gcc python3-dev"

# Imported by Python at start (``sitecustomize`` on PYTHONPATH): the C search cannot be imported, as after a build
# without a compiler.
WITHOUT_C_SEARCH = """
import importlib.abc, sys

class NoCSearch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "toreshi.togyz.engine._native":
            raise ImportError("built without a C compiler")
        return None

sys.meta_path.insert(0, NoCSearch())
"""


def note(python_path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", 'source scripts/_env.sh && native_search_note "$0"', sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": python_path},
        timeout=60,
    )


def test_a_setup_without_the_c_search_is_told_how_to_get_it(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(WITHOUT_C_SEARCH)
    done = note(os.pathsep.join([str(tmp_path), str(ROOT / "src")]))
    assert done.returncode == 0
    assert HINT in done.stderr


def test_a_setup_with_the_c_search_hears_nothing() -> None:
    if not NATIVE:
        pytest.skip("the C search is not built in this checkout")
    done = note(str(ROOT / "src"))
    assert done.returncode == 0
    assert done.stderr == ""
