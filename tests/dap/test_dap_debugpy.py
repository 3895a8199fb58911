"""debugpy, driven through the `debug` tool as a model would."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from dap_helpers import gone, make_run


async def test_launch_breakpoint_stack_variables_evaluate(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [7]})
        assert r.ok, r.text
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert "prog.py:7" in r.text and "acc += x" in r.text
        assert "python:" in r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "total" in r.text
        frame = r.data["frames"][0]["id"]
        r = await run.call("debug", {"op": "evaluate", "expression": "acc + 1000", "frame_id": frame})
        assert r.ok and "1000" in r.text, r.text
        # the module frame holds `numbers`: 120 items, paged 50 at a time
        module = r and (await run.call("debug", {"op": "stack"})).data["frames"][1]["id"]
        scopes = await run.call("debug", {"op": "scopes", "frame_id": module})
        ref = scopes.data["scopes"][0]["reference"]
        r = await run.call("debug", {"op": "evaluate", "expression": "numbers", "frame_id": module})
        lst = r.data["reference"]
        page = await run.call("debug", {"op": "variables", "reference": lst})
        assert page.ok and len(page.data["variables"]) == 50
        # pseudo-children ("special variables") are listed but not counted against the cap
        assert "special variables" in page.text and "000" in page.text
        more = page.data["more"]
        assert more > 0 and f"… {more} more (call variables with start=50)" in page.text
        page2 = await run.call("debug", {"op": "variables", "reference": lst, "start": 50})
        assert page2.data["variables"][0]["name"] == "050"
        r = await run.call("debug", {"op": "variables", "reference": ref})
        assert "name" in r.text and "'minitools'" in r.text
        r = await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": []})
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "ended" in r.text, r.text
        out = await run.call("debug", {"op": "output"})
        assert "result 7140" in out.text and "done" in out.text
        pids = (await run.call("debug", {"op": "terminate"})).data["pids"]
    assert pids and all(gone(p) for p in pids)


async def test_exception_stop_and_second_launch_refused(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py", "args": ["boom"]})
        assert r.ok, r.text
        assert "exception" in r.text and "boom from the program" in r.text, r.text
        second = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert not second.ok and "already running" in second.text and "stopped" in second.text
        pids = run.ctx.resources["debug"].slot(run.conversation_id).session.pids()
    # Run.close() leaves nothing behind
    assert pids and all(gone(p) for p in pids)


async def test_blank_line_breakpoint_reports_where_it_went(pyproject: Path) -> None:
    # debugpy 1.8.22 moves a breakpoint on a blank line to the code line above it: say so
    async with make_run(pyproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [10]})
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert "prog.py:10: verified (moved to line 8)" in r.text, r.text


async def test_program_that_exits_at_once(pyproject: Path) -> None:
    (pyproject / "quick.py").write_text("print('bye')\n")
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "launch", "program": "quick.py"})
        assert r.ok, r.text
        assert "ended with exit code 0" in r.text and "bye" in r.text, r.text
        r = await run.call("debug", {"op": "continue"})
        assert not r.ok and "already ended" in r.text


async def test_ttl_expiry_kills_and_next_call_says_so(pyproject: Path) -> None:
    async with make_run(pyproject, debug_ttl=2.0) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [7]})
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        sup = run.ctx.resources["debug"]
        pids = sup.slot(run.conversation_id).session.pids()
        for _ in range(200):
            if sup.slot(run.conversation_id).session is None and not sup._closing:
                break
            await asyncio.sleep(0.05)
        r = await run.call("debug", {"op": "stack"})
        assert not r.ok and "TTL" in r.text, r.text
    assert all(gone(p) for p in pids)


async def test_project_venv_preferred(pyproject: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(pyproject / ".venv")], check=True)
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert ".venv/bin/python" in r.text and "project's .venv" in r.text


async def test_adapter_killed_mid_session(pyproject: Path) -> None:
    async with make_run(pyproject) as run:
        await run.call("debug", {"op": "breakpoints", "file": "prog.py", "lines": [7]})
        assert (await run.call("debug", {"op": "launch", "program": "prog.py"})).ok
        session = run.ctx.resources["debug"].slot(run.conversation_id).session
        session.child.kill_now()
        await asyncio.wait_for(session.conn.wait_closed(), 10)
        r = await run.call("debug", {"op": "stack"})
        assert not r.ok and "gone" in r.text
        assert (await run.call("debug", {"op": "terminate"})).ok


async def test_attach_to_debugpy_listen(pyproject: Path, tmp_path: Path) -> None:
    (pyproject / "server.py").write_text(
        "import debugpy, sys, time\nport = debugpy.listen(0)[1]\nprint(port, flush=True)\n"
        "debugpy.wait_for_client()\nwhile True:\n    time.sleep(0.05)\n")
    proc = subprocess.Popen([sys.executable, str(pyproject / "server.py")], stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        async with make_run(pyproject) as run:
            r = await run.call("debug", {"op": "attach", "port": port})
            assert r.ok, r.text
            r = await run.call("debug", {"op": "pause"})
            assert r.ok and "stopped" in r.text, r.text
            r = await run.call("debug", {"op": "evaluate", "expression": f"port == {port}"})
            assert "True" in r.text, r.text
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


async def test_timeout_names_the_step_and_session_stays_usable(pyproject: Path) -> None:
    (pyproject / "spin.py").write_text("import time\nn = 0\nwhile True:\n    n += 1\n    time.sleep(0.01)\n")
    async with make_run(pyproject, debug_timeout=2.0) as run:
        r = await run.call("debug", {"op": "launch", "program": "spin.py"})
        assert not r.ok and "timed out" in r.text and "first stop after launch" in r.text, r.text
        r = await run.call("debug", {"op": "pause"})
        assert r.ok and "stopped" in r.text and "spin.py" in r.text, r.text
        r = await run.call("debug", {"op": "continue"})
        assert not r.ok and "the program to stop after continue" in r.text and "still there" in r.text
        r = await run.call("debug", {"op": "pause"})
        assert r.ok and "stopped" in r.text, r.text


async def test_trace_records_every_dap_message(pyproject: Path) -> None:
    seen: list[tuple[str, str, dict]] = []
    from minitools import Run
    async with Run(pyproject, approve=lambda s, a: True, trace=lambda d, p, m: seen.append((d, p, m))) as run:
        assert (await run.call("debug", {"op": "launch", "program": "prog.py"})).ok
    commands = [m.get("command") for d, p, m in seen if d == "send" and p == "debugpy"]
    assert commands[:2] == ["initialize", "launch"] and "configurationDone" in commands
    assert any(d == "recv" and m.get("event") == "initialized" for d, p, m in seen)


async def test_launch_env_and_cwd(pyproject: Path) -> None:
    (pyproject / "work").mkdir()
    (pyproject / "where.py").write_text("import os\nprint('greeting', os.environ.get('GREETING'), os.getcwd())\n")
    async with make_run(pyproject) as run:
        r = await run.call("debug", {"op": "launch", "program": "where.py", "env": {"GREETING": "hi"}, "cwd": "work"})
        assert r.ok and f"greeting hi {pyproject.resolve() / 'work'}" in r.text, r.text
        await run.call("debug", {"op": "terminate"})
        r = await run.call("debug", {"op": "launch", "program": "where.py", "env": {"BAD=NAME": "x"}})
        assert not r.ok and "'BAD=NAME'='x' cannot be set" in r.text, r.text
        r = await run.call("debug", {"op": "status"})
        assert "No debug session is running" in r.text, r.text
