"""Conditional breakpoints, hit counts and log points (DAP SourceBreakpoints) on the real
adapters: debugpy, lldb and delve, each on a loop whose counter tells which stop it is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dap_helpers import make_run

PY_LOOP = "total = 0\nfor i in range(6):\n    total += i\nprint('total', total)\n"
C_LOOP = ('#include <stdio.h>\nint main(void) {\n    int total = 0;\n    for (int i = 0; i < 6; i++) {\n'
          '        total += i;\n    }\n    printf("total %d\\n", total);\n    return 0;\n}\n')
GO_LOOP = ('package main\n\nimport "fmt"\n\nfunc main() {\n\ttotal := 0\n\tfor i := 0; i < 6; i++ {\n'
           '\t\ttotal += i\n\t}\n\tfmt.Println("total", total)\n}\n')


async def _stops_on_i(run, file: str, line: int, program: str, spec: dict, expected: str) -> None:
    r = await run.call("debug", {"op": "breakpoints", "file": file, "lines": [{"line": line, **spec}]})
    assert r.ok, r.text
    r = await run.call("debug", {"op": "launch", "program": program})
    assert r.ok and f"{file}:{line}" in r.text, r.text
    value = await run.call("debug", {"op": "evaluate", "expression": "i"})
    assert value.ok and value.data["result"] == expected, value.text
    await run.call("debug", {"op": "terminate"})


async def test_debugpy_condition_hit_count_and_log_point(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    (tmp_path / "loop.py").write_text(PY_LOOP)
    async with make_run(tmp_path) as run:
        await _stops_on_i(run, "loop.py", 3, "loop.py", {"condition": "i == 4"}, "4")
        await _stops_on_i(run, "loop.py", 3, "loop.py", {"hit_condition": "3"}, "2")
        # a log point prints instead of stopping; the program runs to its end
        r = await run.call("debug", {"op": "breakpoints", "file": "loop.py", "lines": [
            {"line": 3, "log_message": "i is {i}"}]})
        assert r.ok and 'logs \'i is {i}\'' in r.text, r.text
        r = await run.call("debug", {"op": "launch", "program": "loop.py"})
        assert r.ok and "ended" in r.text, r.text
        out = r.text + (await run.call("debug", {"op": "output"})).text  # the launch that ended shows the output
        # (debugpy writes log points to the program's stream as they come: lines may interleave)
        assert all(f"i is {n}" in out for n in range(6)), out
        await run.call("debug", {"op": "terminate"})


def _c_program(root: Path, name: str, source: str) -> None:
    """`name`.c built with debug information in `root` (a CMake project: lldb's marker)."""
    if shutil.which("gcc") is None or shutil.which("lldb-vscode-16") is None:
        pytest.skip("gcc or lldb-vscode-16 (apt lldb-16) is not installed")
    (root / "CMakeLists.txt").write_text(f"project(t C)\nadd_executable({name} {name}.c)\n")
    (root / f"{name}.c").write_text(source)
    subprocess.run(["gcc", "-g", "-O0", "-o", str(root / name), str(root / f"{name}.c")], check=True)


async def test_lldb_condition_and_hit_count(tmp_path: Path) -> None:
    _c_program(tmp_path, "loop", C_LOOP)
    async with make_run(tmp_path) as run:
        await _stops_on_i(run, "loop.c", 5, "loop", {"condition": "i == 4"}, "4")
        await _stops_on_i(run, "loop.c", 5, "loop", {"hit_condition": "3"}, "2")


async def test_delve_condition_log_point_and_its_missing_hit_counts(tmp_path: Path) -> None:
    if shutil.which("dlv") is None or shutil.which("go") is None:
        pytest.skip("dlv or go (apt delve, golang-go) is not installed")
    (tmp_path / "go.mod").write_text("module example.com/t\n\ngo 1.19\n")
    (tmp_path / "main.go").write_text(GO_LOOP)
    async with make_run(tmp_path, debug_timeout=90.0) as run:
        await _stops_on_i(run, "main.go", 8, "main.go", {"condition": "i == 4"}, "4")
        # dlv 1.20 does not offer hit counts (supportsHitConditionalBreakpoints): set on a running
        # session, nothing is set and the reason is given; set before launch, the launch says so
        await run.call("debug", {"op": "breakpoints", "file": "main.go", "lines": [8]})
        assert (await run.call("debug", {"op": "launch", "program": "main.go"})).ok
        r = await run.call("debug", {"op": "breakpoints", "file": "main.go", "lines": [{"line": 8, "hit_condition": "3"}]})
        assert not r.ok and "does not support hit counts" in r.text and "nothing was set" in r.text, r.text
        await run.call("debug", {"op": "terminate"})
        await run.call("debug", {"op": "breakpoints", "file": "main.go", "lines": [{"line": 8, "hit_condition": "3"}]})
        r = await run.call("debug", {"op": "launch", "program": "main.go"})
        assert r.ok and "does not support hit counts: set as a plain breakpoint" in r.text, r.text
        await run.call("debug", {"op": "terminate"})
        # its log points print instead of stopping
        await run.call("debug", {"op": "breakpoints", "file": "main.go", "lines": [{"line": 8, "log_message": "i={i}"}]})
        r = await run.call("debug", {"op": "launch", "program": "main.go"})
        assert r.ok and "ended" in r.text, r.text
        out = r.text + (await run.call("debug", {"op": "output"})).text
        assert all(f"i={n}" in out for n in range(6)), out


SPIN_C = ("#include <unistd.h>\nint tick(int n) {\n    return n + 1;\n}\nint main(void) {\n    int n = 0;\n"
          "    for (;;) {\n        n = tick(n);\n        usleep(100000);\n    }\n}\n")
SPIN_PY = "import time\nn = 0\nwhile True:\n    n += 1\n    time.sleep(0.1)\n"


async def _attach_stop_and_evaluate(root: Path, source: str, line: int, adapter: str) -> None:
    """Attach by pid (no adapter named) to the running `spin` built in `root`, break in `tick`,
    continue to it and evaluate there."""
    program = subprocess.Popen([str(root / "spin")])
    try:
        async with make_run(root) as run:
            await run.call("debug", {"op": "breakpoints", "file": source, "lines": [line]})
            r = await run.call("debug", {"op": "attach", "pid": program.pid})
            assert r.ok and f"attached process {program.pid} (spin) with {adapter}" in r.text, r.text
            r = await run.call("debug", {"op": "continue"})
            assert r.ok and f"{source}:{line}" in r.text and "tick" in r.text, r.text
            r = await run.call("debug", {"op": "evaluate", "expression": "n >= 0"})
            assert r.ok and r.data["result"] == "true", r.text
            await run.call("debug", {"op": "terminate"})
    finally:
        program.kill()
        program.wait()


async def test_attach_by_process_id_with_lldb(tmp_path: Path) -> None:
    _c_program(tmp_path, "spin", SPIN_C)
    await _attach_stop_and_evaluate(tmp_path, "spin.c", 3, "lldb")


SPIN_GO = ('package main\n\nimport "time"\n\nfunc tick(n int) int {\n\treturn n + 1\n}\n\nfunc main() {\n\tn := 0\n'
           '\tfor {\n\t\tn = tick(n)\n\t\ttime.Sleep(100 * time.Millisecond)\n\t}\n}\n')


async def test_attach_by_process_id_picks_delve_for_a_go_program_and_continue_waits_for_its_stop(tmp_path: Path) -> None:
    """A Go program is delve's (its build information says Go built it; lldb was chosen and
    refused it for want of a CMakeLists.txt); delve lets the process run on after attaching, so
    `continue` waits for its next stop instead of being refused ("debuggee is running")."""
    if shutil.which("dlv") is None or shutil.which("go") is None:
        pytest.skip("dlv or go is not installed")
    (tmp_path / "go.mod").write_text("module example.com/spin\n\ngo 1.19\n")
    (tmp_path / "main.go").write_text(SPIN_GO)
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", "spin", "."], cwd=tmp_path, check=True)
    await _attach_stop_and_evaluate(tmp_path, "main.go", 6, "delve")


async def test_attach_by_process_id_picks_debugpy_for_python(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    (tmp_path / "spin.py").write_text(SPIN_PY)
    program = subprocess.Popen([sys.executable, "-Xfrozen_modules=off", str(tmp_path / "spin.py")])
    try:
        async with make_run(tmp_path) as run:
            await run.call("debug", {"op": "breakpoints", "file": "spin.py", "lines": [4]})
            r = await run.call("debug", {"op": "attach", "pid": program.pid})
            assert r.ok and "with debugpy" in r.text, r.text
            r = await run.call("debug", {"op": "continue"})
            assert r.ok and "spin.py:4" in r.text, r.text
            await run.call("debug", {"op": "terminate"})
            gone = await run.call("debug", {"op": "attach", "pid": 2**22 + 7})
            assert not gone.ok and "no process" in gone.text and "running" in gone.text
    finally:
        program.kill()
        program.wait()
