"""The package as a user gets it: a wheel built from a clean copy of the checkout, installed
with its dependencies into a fresh virtualenv outside the checkout, runs a JavaScript cell, a
Python cell, a search and the tour.

The wheel is built once per session (build isolation fetches setuptools from PyPI or pip's
cache, as on a fresh machine); the virtualenv installs the two runtime dependencies the same way.
"""

from __future__ import annotations

import email
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# the first test builds the wheel and fills the venv (a download of the language pack on a fresh machine)
pytestmark = pytest.mark.timeout(600)


def _checkout_files() -> list[str]:
    """The files a clean clone would hold (tracked, plus new ones not ignored)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout ({listed.stderr.strip()}): cannot tell which files a clone holds")
    return [f for f in listed.stdout.split("\0") if f and (REPO / f).is_file()]


def _run(*cmd: str | Path, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    source = base / "src"
    for name in _checkout_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", base / "dist", source, cwd=base)
    assert built.returncode == 0, built.stderr
    (found,) = (base / "dist").glob("minitools-*.whl")
    return found


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv (outside the checkout) with the wheel and its dependencies."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    made = _run(sys.executable, "-m", "venv", venv, cwd=venv.parent)
    assert made.returncode == 0, made.stderr
    done = _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=venv.parent)
    assert done.returncode == 0, done.stderr
    return venv


def test_the_wheel_holds_every_runtime_file_and_the_metadata(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        (meta_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = email.message_from_bytes(zf.read(meta_name))
    shipped = [f for f in _checkout_files() if f.startswith("minitools/")]
    assert shipped and set(shipped) <= names, sorted(set(shipped) - names)
    assert "minitools/kernel/_jsworker.js" in names and "minitools/py.typed" in names
    sample = {f"minitools/_examples/{f[len('examples/'):]}" for f in _checkout_files() if f.startswith("examples/")}
    assert sample and sample <= names, sorted(sample - names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert meta["License-Expression"] == "MIT"
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Operating System :: POSIX" in classifiers
    assert meta["Version"] == _version_in_source()
    runtime = sorted(r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r)
    assert runtime == ["tree-sitter-language-pack==0.13.0", "tree-sitter<0.27,>=0.25"]


def _version_in_source() -> str:
    for line in (REPO / "minitools" / "__init__.py").read_text(encoding="utf-8").splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise AssertionError("minitools/__init__.py sets no __version__")


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    where = _run(installed / "bin" / "python", "-c", "import minitools; print(minitools.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed)
    version = _run(installed / "bin" / "minitools", "--version", cwd=tmp_path)
    assert version.stdout.strip() == f"minitools {_version_in_source()}"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/50-kernel.sh installs it)")
def test_installed_wheel_runs_a_javascript_and_a_python_cell(installed: Path, tmp_path: Path) -> None:
    minitools = installed / "bin" / "minitools"
    cells = [
        ({"code": "const xs = [3, 4];\nxs.map(x => x * x).reduce((a, b) => a + b, 0)", "language": "javascript",
          "description": "sum of squares of two numbers in node"}, "25"),
        ({"code": "import math\nmath.comb(6, 2)", "description": "count pairs out of six items in python"}, "15"),
    ]
    for cell, expected in cells:
        out = _run(minitools, "call", "eval", json.dumps(cell), "--yes", "--json", "--root", tmp_path, cwd=tmp_path)
        assert out.returncode == 0, out.stdout + out.stderr
        assert expected in json.loads(out.stdout)["text"]


def test_installed_wheel_searches(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print(1)\nlog(2)\n")
    (tmp_path / "b.js").write_text("print(3);\n")
    out = _run(installed / "bin" / "minitools", "ast-grep", "print($A)", ".", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [(m["file"], m["metavars"]["A"]["text"]) for m in json.loads(out.stdout)] == [("a.py", "1"), ("b.js", "3")]


def test_installed_wheel_runs_the_tour(installed: Path, tmp_path: Path) -> None:
    tour = _run(installed / "bin" / "minitools", "tour", cwd=tmp_path)
    assert tour.returncode == 0, tour.stderr
    assert "a Run over a copy of sample/" in tour.stdout and "tool calls made." in tour.stdout
    # the search steps work from the packaged sample (the language servers are the tour extra's)
    assert "lib/controller.dart" in tour.stdout and "native/buffer.c" in tour.stdout
    # the background worker (examples/workers, packaged too) counted the packaged sample's files
    assert ".dart: 1" in tour.stdout and ".c: 1" in tour.stdout
