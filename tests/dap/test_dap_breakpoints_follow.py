"""Breakpoints by symbol and by function, and breakpoints that follow their code as the run edits
it, on debugpy driven through the `debug` tool (prog.py: tests/dap/conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dap_helpers import make_run
from minitools.dap import DAPSession, DebugSupervisor, Detection

LOOP_LINE = 7  # prog.py: `acc += x`


async def test_a_symbol_breakpoint_stops_on_its_line(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"line": LOOP_LINE, "symbol": "acc"}]})
        assert r.ok and "prog.py:7 (acc)  | acc += x" in r.text, r.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "stopped (breakpoint)" in r.text and "prog.py:7  | acc += x" in r.text, r.text


async def test_a_symbol_not_on_its_line_is_refused_with_nothing_set(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"line": LOOP_LINE, "symbol": "numbers"}]})
        assert not r.ok, r.text
        assert 'symbol "numbers" is not on line 7 of prog.py; the line is:\n7:         acc += x' in r.text, r.text
        assert '"numbers" is on lines 11, 13.' in r.text and "Nothing was set in prog.py." in r.text, r.text
        status = await run.call("debug", {"op": "status"})
        assert status.data["breakpoints"] == [] and "breakpoints:" not in status.text, status.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "the program has ended" in r.text, r.text


async def test_a_function_breakpoint_stops_in_the_function(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"function": "total"}]})
        assert r.ok and "function total (prog.py:5)" in r.text, r.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "function breakpoint total: verified" in r.text, r.text
        assert "stopped (function breakpoint)" in r.text and " in thread " in r.text and "total prog.py:" in r.text, r.text
        stack = await run.call("debug", {"op": "stack"})
        assert stack.data["frames"][0]["name"] == "total", stack.text


async def test_a_function_the_file_does_not_define_is_refused_with_its_functions(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"function": "totl"}]})
        assert not r.ok and "prog.py defines no function 'totl'; nothing was set in prog.py. Its functions: total." in r.text, r.text


class WithoutFunctionBreakpoints(DebugSupervisor):
    """debugpy as an adapter that does not offer function breakpoints (supportsFunctionBreakpoints
    taken out of what it answers to initialize)."""

    async def start_adapter(self, det: Detection, cwd: Path) -> DAPSession:
        session = await super().start_adapter(det, cwd)
        initialize = session.initialize

        async def without(adapter_id: str, timeout: float) -> None:
            await initialize(adapter_id, timeout)
            session.capabilities.pop("supportsFunctionBreakpoints", None)

        session.initialize = without  # type: ignore[method-assign]
        return session


async def test_without_function_breakpoints_the_parser_finds_the_first_line(pyproject: Path) -> None:
    async with make_run(pyproject, resources={"debug": WithoutFunctionBreakpoints()}) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"function": "total"}]})
        assert r.ok, r.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert ("function total: a line breakpoint on prog.py:5, the first line of its body found by the parser "
                "(debugpy has no function breakpoints)") in r.text, r.text
        assert "stopped (breakpoint)" in r.text and "total prog.py:5  | acc = 0" in r.text, r.text


async def _accept(run: Any, pattern: str, rewrite: str) -> Any:
    staged = await run.call("ast_edit", {"pattern": pattern, "rewrite": rewrite, "language": "python", "path": "prog.py"})
    assert staged.ok and staged.data["edit_id"], staged.text
    return await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})


async def test_a_breakpoint_follows_its_line_when_an_edit_adds_lines_above(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"line": LOOP_LINE, "symbol": "acc"}]})
        assert r.ok, r.text
        accepted = await _accept(run, "import sys", "import sys\nimport os\nimport re")
        assert accepted.ok, accepted.text
        assert "debug: breakpoint prog.py:9 (acc)  | acc += x moved from line 7 with its code" in accepted.text, accepted.text
        status = await run.call("debug", {"op": "status"})
        assert "breakpoints:\n  prog.py:9 (acc)  | acc += x" in status.text, status.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "breakpoint prog.py:9: verified" in r.text and "prog.py:9  | acc += x" in r.text, r.text


async def test_a_breakpoint_whose_line_is_gone_is_said_lost(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [LOOP_LINE, {"function": "total"}]})
        prog = pyproject / "prog.py"
        prog.write_text(prog.read_text().replace("    for x in items:\n        acc += x\n", "    acc = sum(items)\n"))
        told = await run.written(["prog.py"])  # the host's own write
        assert ("debug: breakpoint prog.py:7 is lost: no line reads 'acc += x' any more; it was removed. "
                "Set it again.") in told.text, told.text
        status = await run.call("debug", {"op": "status"})
        assert [e["function"] for e in status.data["breakpoints"]] == ["total"], status.text


async def test_a_written_file_moves_the_breakpoints_of_a_running_session_for_the_next_launch(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"line": LOOP_LINE, "symbol": "acc"}]})
        assert (await run.call("debug", {"op": "launch", "program": "prog.py"})).ok
        prog = pyproject / "prog.py"
        prog.write_text("# a comment above\n" + prog.read_text())  # the host's own write, told through written
        told = await run.written(["prog.py"])
        assert "debug: breakpoint prog.py:8 (acc)  | acc += x moved from line 7 with its code" in told.text, told.text
        assert "The running program runs the code it started with" in told.text, told.text
        status = await run.call("debug", {"op": "status"})
        assert "prog.py:8 (acc)  | acc += x (the running program has it at line 7, from before the edit)" in status.text, status.text
        await run.call("debug", {"op": "terminate"})
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "prog.py:8  | acc += x" in r.text, r.text


async def test_a_rename_keeps_a_breakpoint_on_its_line_and_says_its_symbol_is_gone(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [{"line": LOOP_LINE, "symbol": "acc"}]})
        renamed = await run.call("lsp_rename", {"file": "prog.py", "line": 5, "symbol": "acc", "new_name": "running"})
        assert renamed.ok, renamed.text
        assert ("debug: breakpoint prog.py:7  | running += x stays on its line, edited in place; its symbol 'acc' is "
                "no longer on it, so it follows the line's text from now on") in renamed.text, renamed.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "prog.py:7  | running += x" in r.text, r.text


GO_TOTAL = ('package main\n\nimport "fmt"\n\nfunc total(n int) int {\n\tacc := 0\n\tfor i := 0; i < n; i++ {\n'
            '\t\tacc += i\n\t}\n\treturn acc\n}\n\nfunc main() {\n\tfmt.Println("total", total(6))\n}\n')
C_TOTAL = ('#include <stdio.h>\nint total(int n) {\n    int acc = 0;\n    for (int i = 0; i < n; i++) {\n'
           '        acc += i;\n    }\n    return acc;\n}\nint main(void) {\n    printf("%d\\n", total(6));\n    return 0;\n}\n')


async def test_delve_and_lldb_take_a_function_breakpoint_by_name(tmp_path: Path) -> None:
    if shutil.which("dlv") is None or shutil.which("go") is None:
        pytest.skip("dlv or go (apt delve, golang-go) is not installed")
    if shutil.which("gcc") is None or shutil.which("lldb-vscode-16") is None:
        pytest.skip("gcc or lldb-vscode-16 (apt lldb-16) is not installed")
    go, c = tmp_path / "go", tmp_path / "c"
    go.mkdir(), c.mkdir()
    (go / "go.mod").write_text("module example.com/t\n\ngo 1.19\n")
    (go / "main.go").write_text(GO_TOTAL)
    (c / "CMakeLists.txt").write_text("project(t C)\nadd_executable(loop loop.c)\n")
    (c / "loop.c").write_text(C_TOTAL)
    subprocess.run(["gcc", "-g", "-O0", "-o", str(c / "loop"), str(c / "loop.c")], check=True)
    for root, file, program, stop in ((go, "main.go", "main.go", "main.total main.go:"), (c, "loop.c", "loop", "total loop.c:3")):
        async with make_run(root, debug_timeout=90.0, resources={"lsp": False}) as run:
            r = await run.call("debug", {"op": "breakpoints", "file": file, "lines": [{"function": "total"}]})
            assert r.ok, r.text
            r = await run.call("debug", {"op": "launch", "program": program})
            assert r.ok and "function breakpoint total: verified" in r.text and stop in r.text, r.text
