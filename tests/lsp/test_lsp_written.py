"""Write-time diagnostics (docs/tools.md, "Write-time diagnostics") with real servers: only what the write just broke."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from minitools.toolspec import ToolResult

OK = "def f(x: int) -> int:\n    return x + 1\n"
BROKEN = "def f(x: int) -> int:\n    return x + undefined_name\n"
MOVED = "import os\n\n\nprint(os.sep)\n" + BROKEN
OTHER = MOVED + "\n\ndef g() -> int:\n    return also_missing\n"


@pytest.fixture(params=["basedpyright", "pylsp"])
def server(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def new_messages(r: ToolResult) -> list[tuple[int, str]]:
    # errors only: basedpyright adds warnings of its own (reportUnknownVariableType, ...)
    return [(d["line"], d["message"]) for d in r.data["new"] if d["severity"] == "error"]


async def test_only_new_diagnostics_are_reported(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    mod = py_project / "mod.py"
    mod.write_text(OK)
    r = await run.written(["mod.py"])
    assert r.ok and r.data["checked"] and r.data["new"] == [], r.text
    assert "checked 1 file: no new diagnostics" in r.text
    # a write that introduces an error reports it
    mod.write_text(BROKEN)
    r = await run.written(["mod.py"])
    assert [(line, "undefined_name" in msg) for line, msg in new_messages(r)] == [(2, True)], r.text
    assert "mod.py:2:" in r.text and "undefined_name" in r.text
    # the same error moved four lines down is not reported again
    mod.write_text(MOVED)
    r = await run.written(["mod.py"])
    assert r.data["new"] == [] and r.data["checked"], r.text
    assert r.data["files"][0]["total"] >= 1  # it is still there, just not new
    # a different error is
    mod.write_text(OTHER)
    r = await run.written(["mod.py"])
    assert [(line, "also_missing" in msg) for line, msg in new_messages(r)] == [(10, True)], r.text
    # a fix reports nothing
    mod.write_text(OK)
    r = await run.written(["mod.py"])
    assert r.data["new"] == [] and r.data["checked"], r.text


async def test_second_file_broken_by_the_first(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.written(["a.py", "b.py"])
    assert r.data["checked"], r.text  # the first check reports what is there (a.py has warnings)
    # b.py drops helper; a.py, untouched by this write, now imports a name that is gone: said with
    # this write, under the other files (a.py is open since the first check: its publish is the baseline)
    (py_project / "b.py").write_text("def other(x: int) -> int:\n    return x\n")
    r = await run.written(["b.py"])
    assert r.data["new"] == [], r.text
    assert any("helper" in d["message"] for d in r.data["others"]["new"] if d["severity"] == "error"), r.text
    assert "new in other files (this write broke them):" in r.text and "a.py:1:" in r.text, r.text
    # and not again when a.py is written next
    r = await run.written(["a.py"])
    assert not any("helper" in msg for _, msg in new_messages(r)), r.text


async def test_wrap_carries_the_new_diagnostics(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["pylsp"]})

    def write(path: str, text: str) -> str:
        (py_project / path).write_text(text)
        return f"wrote {path}"

    wrapped = run.wrap(write)
    assert await wrapped("mod.py", OK) == "wrote mod.py"
    out = await wrapped("mod.py", BROKEN)
    assert out.startswith("wrote mod.py\n\n") and "undefined_name" in out


async def test_rename_result_carries_diagnostics(py_project: Path, run_factory: Any) -> None:
    (py_project / "c.py").write_text("from b import helper\n\nhelper(1)\nhelper(undefined_x)\n")
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp", {"action": "diagnostics", "file": "c.py"})
    assert "undefined_x" in r.text
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert r.ok, r.text
    files = {f["file"]: f for f in r.data["diagnostics"]["files"]}
    assert set(files) == {"a.py", "b.py", "c.py"} and all(f["checked"] for f in files.values())
    # already reported by the diagnostics call, and the rename did not cause it: not new
    assert not any("undefined_x" in d["message"] for d in r.data["diagnostics"]["new"])
    # (warnings whose message names the renamed function are new messages, and may be listed)
    # a sound rename breaks nothing: every file was sent before any was checked, so a.py and
    # c.py are not checked against the old b.py
    assert [d for d in r.data["diagnostics"]["new"] if d["severity"] == "error"] == [], r.text


async def test_timed_out_server_says_unavailable(py_project: Path, tmp_path: Path, run_factory: Any,
                                                 fake_server_argv: list[str]) -> None:
    bin_dir = tmp_path / "stubs"
    bin_dir.mkdir()
    stub = bin_dir / "basedpyright-langserver"
    stub.write_text("#!/bin/sh\nexec " + " ".join(fake_server_argv) + "\n")
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]},
                      lsp_diagnostics_timeout=0.5)
    r = await run.written(["a.py"])
    assert r.data["checked"] is False and r.data["unavailable"], r.text
    assert "diagnostics unavailable" in r.text and "not clean" in r.text
    r = await run.call("lsp", {"action": "diagnostics", "file": "a.py"})
    assert not r.ok and "diagnostics unavailable" in r.text and "not a clean result" in r.text


async def test_file_with_no_server_is_quiet(py_project: Path, run_factory: Any) -> None:
    (py_project / "notes.txt").write_text("hello\n")
    run = run_factory(py_project, lsp_servers={"python": ["pylsp"]})
    r = await run.written(["notes.txt"])
    assert r.ok and r.data["new"] == [] and not r.data["unavailable"]
    assert r.data["files"][0]["checked"] is False and "no language server" in r.data["files"][0]["reason"]
    wrapped = run.wrap(lambda path: "done")
    assert await wrapped("notes.txt") == "done"
