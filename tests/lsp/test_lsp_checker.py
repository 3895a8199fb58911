"""`lsp diagnostics "*"` with the real checkers: the summary and counts survive a long output,
a jsconfig.json-only root is checked, and a root with no checker says so."""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

import pytest

from lsp_support import NODE_BIN, write

MANY = "".join(f"def f{i}() -> None:\n    print(undefined_{i})\n\n\n" for i in range(400))


async def call_checker(run: Any) -> Any:
    return await run.call("lsp", {"action": "diagnostics", "file": "*"})


@pytest.mark.parametrize("server", ["basedpyright", "pylsp"])
async def test_a_long_output_keeps_its_summary_and_counts(py_project: Path, run_factory: Any, server: str) -> None:
    (py_project / "many.py").write_text(MANY)
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await call_checker(run)
    assert r.ok, r.text
    checker = r.data["checkers"][0]
    assert checker["abridged"] and len(r.text) < 13000 and "characters left out" in r.text
    assert "undefined_0" in r.text and "undefined_200" not in r.text  # the head is kept, the middle left out
    if server == "basedpyright":
        # each call is an undefined name (an error); the project configures nothing, so the checker ran at
        # its standard level, where an unknown argument type is not reported
        assert checker["counts"]["errors"] == 400 and checker["counts"]["warnings"] == 0, r.text[:300]
        summary = r.text.rstrip().splitlines()[-1]
        assert re.fullmatch(r"400 errors, \d+ warnings, \d+ notes", summary), summary
        assert r.text.splitlines()[0].endswith(f": 400 errors, {checker['counts']['warnings']} warnings, 0 notes")
    else:
        assert checker["checker"] == "pyflakes ." and checker["counts"] == {"problems": 400}, r.text[:300]
        assert r.text.rstrip().splitlines()[-1].endswith("undefined name 'undefined_399'")


async def test_a_jsconfig_root_is_checked(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "js", {"jsconfig.json": '{"compilerOptions": {"checkJs": true}}',
                                   "app.js": "const one = 1;\none.foo();\nundefinedThing();\n"})
    r = await call_checker(run_factory(root))
    assert r.ok, r.text
    checker = r.data["checkers"][0]
    assert checker["checker"] == "tsc --noEmit --pretty false -p jsconfig.json --allowJs" and checker["returncode"] == 2
    assert "app.js(2,5): error TS2339" in r.text and "app.js(3,1): error TS2304" in r.text
    assert checker["counts"] == {"errors": 2} and "COMMON COMMANDS" not in r.text


async def test_a_package_json_root_has_no_project_for_tsc(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "js", {"package.json": '{"name": "demo"}', "app.js": "undefinedThing();\n"})
    r = await call_checker(run_factory(root))
    assert not r.ok and "no tsconfig.json or jsconfig.json at the root, so tsc has no project to check" in r.text
    assert "root marker" not in r.text


async def test_a_help_page_is_not_a_check(ts_project: Path, tmp_path: Path, run_factory: Any) -> None:
    # fault injection: a `tsc` that prints the real tsc's help page and exits 0
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub = stubs / "tsc"
    stub.write_text(f"#!/bin/sh\nexec {NODE_BIN / 'tsc'} --help\n")
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    r = await call_checker(run_factory(ts_project, lsp_path=[str(stubs), str(NODE_BIN)]))
    assert not r.ok and "printed its help page: nothing was checked" in r.text, r.text[:400]
    assert r.data["checkers"][0]["checked"] is False and r.data["checkers"][0]["counts"] is None


async def test_c_has_no_checker_and_says_so(c_project: Path, run_factory: Any) -> None:
    r = await call_checker(run_factory(c_project))
    assert not r.ok and "c, cpp: clangd has no project checker" in r.text and "root marker" not in r.text, r.text
    # beside a language that has one, the C files are named as not checked
    (c_project / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    (c_project / "tool.py").write_text("print(undefined_thing)\n")
    r = await call_checker(run_factory(c_project, lsp_servers={"python": ["basedpyright"]}))
    assert r.ok and "undefined_thing" in r.text, r.text
    assert r.text.rstrip().endswith("not checked: c, cpp: clangd has no project checker")
