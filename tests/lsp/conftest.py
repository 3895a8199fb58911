"""Projects for the real-server tests, and a Run wired to the servers setup/30-lsp.sh installs."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from lsp_support import make_run, write
from minitools import Run

FAKE_SERVER = Path(__file__).with_name("fake_server.py")

PY_A = '''from b import helper


class Greeter:
    def greet(self, name: str) -> str:
        return "héllo😀 " + name


def main() -> None:
    g = Greeter()
    s = "héllo😀"; g.greet(s); helper(1)
'''
PY_B = '''def helper(x: int) -> int:
    """Double it."""
    return x * 2
'''


@pytest.fixture
def clangd_16() -> str:
    """clangd 16 (setup/30-lsp.sh installs it beside the distribution's clangd 14)."""
    found = shutil.which("clangd-16")
    if found is None:
        pytest.skip("clangd-16 is not installed (setup/30-lsp.sh installs it)")
    return found


@pytest.fixture
def py_project(tmp_path: Path) -> Path:
    return write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "a.py": PY_A, "b.py": PY_B})


@pytest.fixture
def ts_project(tmp_path: Path) -> Path:
    return write(tmp_path / "proj", {
        "tsconfig.json": '{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs"}, "include": ["*.ts"]}',
        "shapes.ts": (
            "export interface Shape {\n  area(): number;\n}\n\n"
            "export class Square implements Shape {\n  constructor(private side: number) {}\n"
            "  area(): number {\n    return this.side * this.side;\n  }\n}\n\n"
            "/** Makes a square. */\nexport function makeSquare(side: number): Shape {\n  return new Square(side);\n}\n"
        ),
        "main.ts": (
            'import { makeSquare, Shape } from "./shapes";\n\n'
            'const label = "héllo😀"; const s: Shape = makeSquare(2);\n'
            "console.log(label, s.area());\n"
        ),
    })


@pytest.fixture
def c_project(tmp_path: Path) -> Path:
    return write(tmp_path / "proj", {
        "compile_flags.txt": "-std=c11\n-Wall\n",
        "util.h": "#ifndef UTIL_H\n#define UTIL_H\nstruct point { int x; int y; };\n/* Adds two ints. */\nint add(int a, int b);\n#endif\n",
        "util.c": '#include "util.h"\nint add(int a, int b) { return a + b; }\n',
        "main.c": ('#include "util.h"\nint main(void) {\n'
                   '    const char *s = "héllo😀"; struct point p = {1, 2}; int r = add(p.x, p.y);\n'
                   "    return r;\n}\n"),
    })


@pytest.fixture
async def run_factory() -> AsyncIterator[Any]:
    runs: list[Run] = []

    def factory(root: Path, **options: Any) -> Run:
        run = make_run(root, **options)
        runs.append(run)
        return run

    yield factory
    for run in runs:
        await run.close()


@pytest.fixture
def fake_server_argv() -> list[str]:
    return [sys.executable, "-u", str(FAKE_SERVER)]


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: Any, run_factory: Any, fake_server_argv: list[str]) -> Any:
    """A Run whose python server is the scripted fake (fake_server.py, FAKE_LSP_SCRIPT):
    ``hostile(root, script, **options)``."""

    def start(root: Path, script: dict[str, Any], **options: Any) -> Run:
        bin_dir = tmp_path / "hostile-bin"
        bin_dir.mkdir(exist_ok=True)
        stub = bin_dir / "basedpyright-langserver"
        stub.write_text("#!/bin/sh\nexec " + " ".join(fake_server_argv) + "\n")
        stub.chmod(0o755)
        script_file = tmp_path / "hostile-script.json"
        script_file.write_text(json.dumps(script))
        monkeypatch.setenv("FAKE_LSP_SCRIPT", str(script_file))
        options.setdefault("lsp_ready_timeout", 0.2)
        options.setdefault("lsp_diagnostics_idle", 0.5)
        options.setdefault("lsp_diagnostics_timeout", 0.5)  # it never publishes: code actions do not wait for it
        options.setdefault("lsp_timeout", 20)
        return run_factory(root, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]}, **options)

    return start
