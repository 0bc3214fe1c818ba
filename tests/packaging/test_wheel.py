"""The wheel, as someone who does not clone would install it: built from a copy of what an sdist holds, installed
into a fresh virtual environment (plain venv + pip: pipx is documented, not needed), and run from there with the
source tree out of reach (no PYTHONPATH).

Checks that the wheel carries every data file of the package (templates, static files, .po catalogues, Alembic
migrations) and the compiled C search, that ``toreshi --version`` and ``toreshi serve`` work from the install, and
that without a C compiler (``CC=false``) the build still gives a working, pure-Python install. The wheel is kept in
``artifacts/dist/``: CI's wheel for ``pipx install`` (docs/deploy.md).

Needs the package index (or pip's cache) for hatchling and the dependencies. Marked ``slow`` only if it ever is.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "toreshi"
ARTIFACTS = ROOT / "artifacts" / "dist"
KAZAKH_LETTERS = re.compile("[әғқңөұүһі]")
START = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"
BUILD_TIMEOUT_S = 300
START_TIMEOUT_S = 40


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    env: dict[str, str]

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def run(self, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / command[0]), *command[1:]], capture_output=True, text=True, env=self.env, timeout=120
        )


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without anything that would let the source tree (or this venv) win."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["TERM"] = "dumb"
    env.update(extra)
    return env


def copy_sources(target: Path) -> Path:
    """What an sdist holds (pyproject, build hook, README, src/) without compiled leftovers of this tree."""
    target.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(ROOT / "src", target / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    return target


def build_wheel(sources: Path, out: Path, **env: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(sources)],
        capture_output=True,
        text=True,
        env=clean_env(**env),
        timeout=BUILD_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("toreshi-*.whl")
    return wheel


def keep_as_artifact(wheel: Path) -> None:
    """CI's wheel for ``pipx install`` (docs/deploy.md): artifacts/dist/, next to the browser tests' screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    partial = ARTIFACTS / f".{wheel.name}.partial"
    shutil.copyfile(wheel, partial)
    partial.replace(ARTIFACTS / wheel.name)


def pip_install(venv: Path, *args: str) -> None:
    """pip of the running interpreter, pointed at the venv (``--python``): the venv needs no pip of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", *args],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=BUILD_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr


def package_data_files() -> set[str]:
    """Every file of the package that is not Python source or a build product, as a path in the wheel."""
    return {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc", ".so")
    }


def has_c_compiler() -> bool:
    return shutil.which(os.environ.get("CC") or "gcc") is not None or shutil.which("cc") is not None


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(copy_sources(work / "sources"), work / "dist")
    keep_as_artifact(wheel)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    pip_install(venv, str(wheel))
    return Installed(wheel, venv, clean_env(VIRTUAL_ENV=str(venv)))


def test_the_wheel_carries_templates_static_files_catalogues_migrations_and_the_c_search(installed: Installed) -> None:
    assert (ARTIFACTS / installed.wheel.name).read_bytes() == installed.wheel.read_bytes()  # kept for pipx
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    data = package_data_files()
    kinds = {
        "templates": "toreshi/web/templates/base.html",
        "static": "toreshi/web/static/css/toreshi.css",
        "catalogue": "toreshi/texts/locale/kk/LC_MESSAGES/messages.po",
        "alembic": "toreshi/store/alembic/script.py.mako",
    }
    assert set(kinds.values()) <= data  # the list below is not empty by accident
    assert data - names == set()
    migrations = {p.relative_to(PACKAGE.parent).as_posix() for p in (PACKAGE / "store/alembic/versions").glob("r*.py")}
    assert migrations and migrations <= names
    native = [name for name in names if re.fullmatch(r"toreshi/togyz/engine/_native\..+\.so", name)]
    if has_c_compiler():
        assert len(native) == 1, sorted(n for n in names if "engine" in n)
        assert not installed.wheel.name.endswith("-none-any.whl")  # a platform wheel: it holds compiled code
        probe = installed.run("python", "-c", "from toreshi.togyz.engine.search import NATIVE; print(NATIVE)")
        assert probe.stdout.strip() == "True", probe.stderr


def test_toreshi_version_from_the_installed_wheel(installed: Installed) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    done = installed.run("toreshi", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"toreshi {version}"
    where = installed.run("python", "-c", "import toreshi; print(toreshi.__file__)")
    assert Path(where.stdout.strip()).is_relative_to(installed.venv)  # the install answered, not the source tree


def test_toreshi_serve_from_the_installed_wheel(installed: Installed, tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [str(installed.bin / "toreshi"), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=installed.env,
        cwd=tmp_path,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base, process, tmp_path / "serve.log")
        with httpx.Client(base_url=base, timeout=10) as client:
            home = client.get("/?lang=kk")
            assert home.status_code == 200
            assert 'lang="kk"' in home.text
            english = client.get("/?lang=en")
            assert english.status_code == 200
            # The .po catalogues were read: the Kazakh page's content is Kazakh, the English one's is not.
            kk_main, en_main = (re.search(r"<main.*</main>", page.text, re.S) for page in (home, english))
            assert kk_main is not None and en_main is not None
            assert KAZAKH_LETTERS.search(kk_main.group()) and not KAZAKH_LETTERS.search(en_main.group())
            stylesheet = re.search(r'href="(/static/[^"]+\.css)"', home.text)
            assert stylesheet is not None
            static = client.get(stylesheet.group(1))
            assert static.status_code == 200 and static.headers["content-type"].startswith("text/css")
            assert static.content == (PACKAGE / "web" / stylesheet.group(1).lstrip("/")).read_bytes()
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def test_without_a_c_compiler_the_build_gives_a_pure_python_install(installed: Installed, tmp_path: Path) -> None:
    """``CC=false``: the compiler "fails", as on a machine without one; the build warns and goes on."""
    wheel = build_wheel(copy_sources(tmp_path / "sources"), tmp_path / "dist", CC="false")
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [name for name in zipfile.ZipFile(wheel).namelist() if name.endswith(".so")]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    pip_install(venv, "--no-deps", str(wheel))
    # The first install's dependencies, reused through a .pth file (after the install, or pip would find toreshi
    # there and skip it): a .pth entry comes after the venv's own site-packages, so this toreshi is the one imported.
    site = next((installed.venv / "lib").glob("python*/site-packages"))
    (next((venv / "lib").glob("python*/site-packages")) / "dependencies.pth").write_text(f"{site}\n")
    pure = Installed(wheel, venv, clean_env(VIRTUAL_ENV=str(venv)))
    probe = pure.run(
        "python",
        "-c",
        "import toreshi, sys; from toreshi.togyz.engine.search import NATIVE; print(NATIVE, toreshi.__file__)",
    )
    native, where = probe.stdout.split()
    assert native == "False", probe.stderr
    assert Path(where).is_relative_to(venv)
    assert pure.run("toreshi", "--version").returncode == 0
    searched = pure.run("toreshi", "togyz", "analyse", START, "--depth", "3", "--json")
    assert searched.returncode == 0, searched.stderr
    assert json.loads(searched.stdout)["depth"] == 3  # the pure-Python search answers


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"toreshi serve exited:\n{log.read_text()}")
        try:
            if httpx.get(f"{base}/api/session", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    pytest.fail(f"toreshi serve did not answer in {START_TIMEOUT_S} s:\n{log.read_text()}")
