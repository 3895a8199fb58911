"""supertypes and subtypes through a server's type hierarchy, beside the call hierarchy: clangd 16
(configured in place of the catalog's clangd, as a user would), and what a server without it says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lsp_support import write
from minitools import Run

SHAPES = ("struct Base { virtual int f(); };\nstruct Mid : Base {};\nstruct Leaf : Mid {};\n"
          "struct Other : Base {};\n")
CLANGD_16 = ('[[lsp.servers]]\nid = "clangd"\ncommand = ["clangd-16", "--log=error"]\nlanguages = ["cpp"]\n'
             'extensions = [".cpp", ".hpp"]\nroot_markers = ["compile_flags.txt"]\n')


async def test_supertypes_and_subtypes_on_clangd_16(tmp_path: Path, clangd_16: str) -> None:
    root = write(tmp_path / "proj", {"compile_flags.txt": "-std=c++17\n", "s.cpp": SHAPES, "minitools.toml": CLANGD_16})
    async with Run(root, config=True) as run:
        up = await run.call("lsp", {"action": "supertypes", "file": "s.cpp", "line": 3, "symbol": "Leaf"})
        down = await run.call("lsp", {"action": "subtypes", "file": "s.cpp", "line": 1, "symbol": "Base"})
        page = await run.call("lsp", {"action": "subtypes", "file": "s.cpp", "line": 1, "symbol": "Base", "offset": 1})
        nothing = await run.call("lsp", {"action": "subtypes", "file": "s.cpp", "line": 3, "symbol": "Leaf"})
    assert up.ok, up.text
    assert [(r["name"], r["line"]) for r in up.data["supertypes"]] == [("Mid", 2)]
    assert [(r["name"], r["line"]) for r in down.data["subtypes"]] == [("Mid", 2), ("Other", 4)]
    assert 'subtypes of "Base" at s.cpp:1:8 (2)' in down.text
    assert [r["name"] for r in page.data["subtypes"]] == ["Other"] and page.data["offset"] == 1
    assert nothing.ok and nothing.data["total"] == 0 and "found no subtypes of" in nothing.text


async def test_a_server_without_a_type_hierarchy_says_so(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project)
    r = await run.call("lsp", {"action": "supertypes", "file": "a.py", "line": 4, "symbol": "Greeter"})
    assert not r.ok and "does not support type hierarchy" in r.text and "basedpyright" in r.text


async def test_a_server_that_offers_it_but_lacks_the_method_says_so(c_project: Path, run_factory: Any) -> None:
    """clangd 14 announces typeHierarchyProvider but answers only its own older request."""
    import subprocess

    version = subprocess.run(["clangd", "--version"], capture_output=True, text=True).stdout
    if "version 14." not in version:
        pytest.skip(f"the default clangd is not 14 ({version.strip()[:60]})")
    run = run_factory(c_project)
    r = await run.call("lsp", {"action": "supertypes", "file": "util.h", "line": 3, "symbol": "point"})
    assert not r.ok
    assert "clangd does not answer supertypes (it has no textDocument/prepareTypeHierarchy)" in r.text
