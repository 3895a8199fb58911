"""lldb-vscode-16 on a C program built in the test, delve on a Go program, dart's detection."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from dap_helpers import gone, make_run
from minitools.dap import adapter_by_id, detect

C_PROGRAM = """\
#include <stdio.h>

int square(int v) {
    int r = v * v;
    return r;
}

int main(void) {
    int n = 7;
    printf("square %d\\n", square(n));
    return 0;
}
"""

GO_PROGRAM = """\
package main

import "fmt"

func double(v int) int {
	r := v * 2
	return r
}

func main() {
	n := 21
	fmt.Println("double", double(n))
}
"""


@pytest.fixture
def cproject(tmp_path: Path) -> Path:
    if shutil.which("gcc") is None or shutil.which("lldb-vscode-16") is None:
        pytest.skip("gcc or lldb-vscode-16 (apt lldb-16) is not installed")
    (tmp_path / "CMakeLists.txt").write_text("project(t C)\nadd_executable(sq sq.c)\n")
    (tmp_path / "sq.c").write_text(C_PROGRAM)
    subprocess.run(["gcc", "-g", "-O0", "-o", str(tmp_path / "sq"), str(tmp_path / "sq.c")], check=True)
    return tmp_path


async def test_lldb_breakpoint_stack_evaluate(cproject: Path) -> None:
    async with make_run(cproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "sq.c", "lines": [4, 2]})
        r = await run.call("debug", {"op": "launch", "program": "sq"})
        assert r.ok, r.text
        assert "lldb" in r.text and "sq.c:4" in r.text and "int r = v * v;" in r.text, r.text
        # line 2 is blank: lldb-vscode-16 moves it to the next line with code, and we say so
        assert "sq.c:2: verified (moved to line 4)" in r.text, r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "square" in r.text and "main" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "v * 3"})
        assert r.ok and "21" in r.text, r.text
        r = await run.call("debug", {"op": "step_out"})
        assert r.ok and "main" in r.text, r.text
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "ended" in r.text, r.text
        pids = (await run.call("debug", {"op": "terminate"})).data["pids"]
    assert pids and all(gone(p) for p in pids)


async def test_lldb_unverified_breakpoint_runs_to_the_end(cproject: Path) -> None:
    # no code at line 500: lldb leaves it unverified, the program runs to its end, and we say both
    async with make_run(cproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "sq.c", "lines": [500]})
        r = await run.call("debug", {"op": "launch", "program": "sq"})
        assert r.ok, r.text
        assert "sq.c:500: NOT verified" in r.text and "ended with exit code 0" in r.text, r.text


async def test_delve_go_program(tmp_path: Path) -> None:
    if shutil.which("dlv") is None or shutil.which("go") is None:
        pytest.skip("dlv or go (apt delve, golang-go) is not installed")
    (tmp_path / "go.mod").write_text("module example.com/t\n\ngo 1.19\n")
    (tmp_path / "main.go").write_text(GO_PROGRAM)
    async with make_run(tmp_path, debug_timeout=90.0) as run:
        await run.call("debug", {"op": "breakpoints", "file": "main.go", "lines": [6]})
        r = await run.call("debug", {"op": "launch", "program": "main.go"})
        assert r.ok, r.text
        assert "delve" in r.text and "main.go:6" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "v"})
        assert r.ok and "21" in r.text, r.text
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "ended" in r.text, r.text
        out = await run.call("debug", {"op": "output"})
        assert "double 42" in out.text, out.text


async def test_dart_detection_and_command(tmp_path: Path) -> None:
    (tmp_path / "pubspec.yaml").write_text("name: t\n")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "dart"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    dart = adapter_by_id("dart")
    assert dart is not None
    det = detect(tmp_path, dart, path=str(bindir))
    assert det.usable and det.command == [str(fake), "debug_adapter"]
    det = detect(tmp_path, dart, path=str(tmp_path / "nowhere"))
    assert not det.usable and "no binary on PATH" in det.reason
    (tmp_path / "pubspec.yaml").unlink()
    det = detect(tmp_path, dart, path=str(bindir))
    assert not det.usable and "pubspec.yaml" in det.reason
    async with make_run(tmp_path) as run:
        r = await run.call("debug", {"op": "adapters"})
        assert r.ok and "dart: not usable" in r.text and "debugpy" in r.text


async def test_lldb_launch_env_as_its_list_form(cproject: Path) -> None:
    (cproject / "env.c").write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                                    'int main(void) { const char *g = getenv("GREETING"); printf("greeting %s\\n", g ? g : "none"); }\n')
    subprocess.run(["gcc", "-g", "-O0", "-o", str(cproject / "envp"), str(cproject / "env.c")], check=True)
    async with make_run(cproject) as run:
        r = await run.call("debug", {"op": "launch", "program": "envp", "env": {"GREETING": "hi there"}})
        assert r.ok and "greeting hi there" in r.text, r.text
