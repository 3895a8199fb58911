"""Hostile adapters and debuggees behind the real `debug` tool: a stop location in a device, a
FIFO or a file outside the workspace, output that never ends its line, malformed bodies. No
call hangs, none is an internal error, and memory stays bounded."""

from __future__ import annotations

import asyncio
import os
import tracemalloc
from pathlib import Path

import pytest

from dap_helpers import Link, gone, scripted_project, scripted_run, stopped_at
from dap_helpers import process_name as _name
from minitools import Run
from minitools.dap import STOP_EVENTS, DAPSession, OutputBuffer
from minitools.transport import descendants


@pytest.mark.timeout(30)
async def test_a_frame_in_a_fifo_is_not_read(tmp_path: Path) -> None:
    # opening a FIFO for reading blocks until a writer comes: the stop must be shown without it
    root = scripted_project(tmp_path)
    os.mkfifo(root / "pipe.py")
    async with scripted_run(root, stopped_at(str(root / "pipe.py"), 3), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert "f pipe.py:3 (not a regular file, not read)" in r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "#0 frame 1: f pipe.py:3 (not a regular file, not read)" in r.text, r.text


async def test_a_frame_outside_the_workspace_says_where_and_shows_nothing_of_it(tmp_path: Path) -> None:
    root = scripted_project(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("password = hunter2\n")
    (root / "link.py").symlink_to(secret)  # inside by name, outside in fact
    for path, shown in ((str(secret), str(secret)), (str(root / "link.py"), "link.py")):
        async with scripted_run(root, stopped_at(path), tmp_path) as run:
            r = await run.call("debug", {"op": "launch", "program": "prog.py"})
            assert r.ok, r.text
            assert "hunter2" not in r.text
            assert f"f {shown}:1 (outside the workspace, not shown)" in r.text, r.text


async def test_a_frame_in_a_device_is_not_read(tmp_path: Path) -> None:
    # /dev/zero never ends: reading its first line would take all memory
    root = scripted_project(tmp_path)
    async with scripted_run(root, stopped_at("/dev/zero", 2), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "f /dev/zero:2 (outside the workspace, not shown)" in r.text, r.text


async def test_a_frame_in_the_workspace_shows_its_line_from_a_bounded_window(tmp_path: Path) -> None:
    root = scripted_project(tmp_path)
    (root / "big.py").write_text("x = 1\n" + "y = 2\n" * 400_000)  # 2.4 MB: line 300,000 is past the window
    async with scripted_run(root, stopped_at(str(root / "big.py"), 1), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "f big.py:1  | x = 1" in r.text, r.text
    for line in (300_000, 2**80, -3):  # past the window, past any window, before the first line
        async with scripted_run(root, stopped_at(str(root / "big.py"), line), tmp_path) as run:
            r = await run.call("debug", {"op": "launch", "program": "prog.py"})
            assert r.ok and r.text.rstrip().endswith(f"f big.py:{line}."), r.text


@pytest.mark.timeout(60)
def test_output_without_newlines_is_held_bounded_and_joined_once() -> None:
    # 8,000 chunks of 4 KiB on one line: each chunk costs its own length (re-joining the line on
    # every chunk took minutes), and only the line's first characters are held
    buf = OutputBuffer(max_line=2000)
    chunk = "x" * 4096
    for _ in range(8000):
        buf.write("stdout", chunk)
        assert buf.held() <= 2000
    buf.write("stdout", "\nnext line\n")
    lines, dropped = buf.take()
    assert lines == ["x" * 2000 + f"… {8000 * 4096 - 2000:,} more characters on this line", "next line"]
    assert dropped == 0 and buf.held() == 0


DEV_ZERO_PROGRAM = """\
def hit():
    return 1


namespace = {"hit": hit}
exec(compile("def f():\\n    return hit()\\n", "/dev/zero", "exec"), namespace)
namespace["f"]()
"""


async def test_debugpy_with_a_frame_compiled_as_dev_zero(tmp_path: Path) -> None:
    # the real adapter names /dev/zero as a frame's source: the stack is shown, nothing is read
    root = scripted_project(tmp_path)
    (root / "zero.py").write_text(DEV_ZERO_PROGRAM)
    async with Run(root, approve=lambda s, a: True) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "zero.py", "lines": [2]})
        r = await run.call("debug", {"op": "launch", "program": "zero.py"})
        assert r.ok and "zero.py:2  | return 1" in r.text, r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "f /dev/zero:2 (outside the workspace, not shown)" in r.text, r.text


def _with(script: dict, **responses: object) -> dict:
    return {**script, "responses": {**script["responses"], **responses}}


FRAME = {"id": 1, "name": "f", "line": 1, "source": {"path": "prog.py"}}
MALFORMED = [
    # (what the adapter answers, the op, what the model reads)
    ({"stackTrace": {"stackFrames": [5]}}, {"op": "stack"},
     "stack: the adapter fake sent a stackTrace response that DAP does not allow: body.stackFrames[0]: expected object, got 5"),
    ({"stackTrace": {"stackFrames": [{**FRAME, "source": "prog.py"}]}}, {"op": "stack"},
     'body.stackFrames[0].source: expected object or null, got "prog.py"'),
    ({"stackTrace": []}, {"op": "stack"}, "a stackTrace response that DAP does not allow: its body is list, not an object"),
    ({"scopes": {"scopes": [{"name": "Locals"}]}}, {"op": "scopes", "frame_id": 1},
     "scopes: the adapter fake sent a scopes response that DAP does not allow: body.scopes[0].variablesReference: is required"),
    ({"variables": {"variables": [{"name": 7, "value": "1"}]}}, {"op": "variables", "reference": 1},
     "a variables response that DAP does not allow: body.variables[0].name: expected string, got 7"),
    ({"evaluate": "2"}, {"op": "evaluate", "expression": "1 + 1", "frame_id": 1},
     "an evaluate response that DAP does not allow: its body is str, not an object"),
    ({"threads": {"threads": {"id": 1}}}, {"op": "threads"},
     'a threads response that DAP does not allow: body.threads: expected array or null, got {"id": 1}'),
    ({"setBreakpoints": {"breakpoints": [{"verified": "yes"}]}}, {"op": "breakpoints", "file": "prog.py", "lines": [1]},
     'a setBreakpoints response that DAP does not allow: body.breakpoints[0].verified: expected boolean or null, got "yes"'),
]


@pytest.mark.parametrize("responses, call, said", MALFORMED, ids=[c[1]["op"] + str(i) for i, c in enumerate(MALFORMED)])
async def test_a_malformed_response_is_the_adapters_fault_said_as_such(tmp_path: Path, responses: dict, call: dict,
                                                                       said: str) -> None:
    root = scripted_project(tmp_path)
    script = _with(stopped_at(str(root / "prog.py")), stackTrace={"stackFrames": [FRAME]})
    async with scripted_run(root, _with(script, **responses), tmp_path) as run:
        await run.call("debug", {"op": "launch", "program": "prog.py"})
        r = await run.call("debug", call)
        assert not r.ok and said in r.text, r.text
        assert "The session is still there: call status, or terminate to end it." in r.text
        assert (await run.call("debug", {"op": "terminate"})).ok


async def test_a_malformed_event_is_said_where_it_is_read(tmp_path: Path) -> None:
    root = scripted_project(tmp_path)
    script = {"responses": {}, "after_launch": [
        {"event": "output", "body": {"category": "stdout", "output": 5}},
        {"event": "output", "body": {"category": "stdout", "output": "fine\n"}},
        {"event": "breakpoint", "body": []},
        {"event": "process", "body": {"systemProcessId": -1}},
        {"event": "stopped", "body": {"reason": "entry", "threadId": 1}}]}
    async with scripted_run(root, script, tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "stopped (entry) in thread 1" in r.text, r.text
        r = await run.call("debug", {"op": "output"})
        assert r.ok and r.data["lines"] == [
            "[minitools] the adapter fake sent an output event that DAP does not allow: body.output: expected string, got 5",
            "fine"], r.text
        r = await run.call("debug", {"op": "status"})
        assert r.ok and "The adapter sent 2 messages that DAP does not allow, ignored; the latest: the adapter fake " \
                        "sent a process event that DAP does not allow: body.systemProcessId: must be >= 2, got -1" in r.text, r.text
    script = {"responses": {}, "after_launch": [{"event": "stopped", "body": "here"}]}
    async with scripted_run(root, script, tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert not r.ok, r.text
        assert "launch of prog.py with debugpy failed: the adapter fake sent a stopped event that DAP does not allow: " \
               "its body is str, not an object" in r.text, r.text


async def test_a_nul_in_a_frame_path_is_shown_not_opened(tmp_path: Path) -> None:
    root = scripted_project(tmp_path)
    async with scripted_run(root, stopped_at(str(root / "pro\x00g.py")), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "(not a usable path)" in r.text, r.text


async def test_a_process_the_adapter_names_is_not_killed_unless_this_host_started_it(tmp_path: Path) -> None:
    # the debuggee's pid comes from the adapter: naming this very process must not make terminate kill it
    root = scripted_project(tmp_path)
    script = {"responses": {}, "after_launch": [{"event": "process", "body": {"name": "x", "systemProcessId": os.getpid()}},
                                                {"event": "exited", "body": {"exitCode": 0}}]}
    async with scripted_run(root, script, tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "ended with exit code 0" in r.text, r.text
        assert (await run.call("debug", {"op": "terminate"})).ok


async def test_what_runs_in_our_terminal_ends_with_terminate(tmp_path: Path) -> None:
    # runInTerminal: the command and what it starts (here a child in its group and one gone to a
    # session of its own) all end with the session
    root = scripted_project(tmp_path)
    command = ["sh", "-c", "sleep 3005 & setsid sleep 3006 & wait"]
    script = {"responses": {}, "reverse": [{"seq": 90, "command": "runInTerminal", "arguments": {"args": command, "cwd": str(root)}}],
              "after_launch": [{"event": "stopped", "body": {"reason": "entry", "threadId": 1}}]}
    loop = asyncio.get_running_loop()
    async with scripted_run(root, script, tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        deadline = loop.time() + 30
        while len(tree := [p for p in descendants(os.getpid()) if _name(p).startswith("sleep 300")]) < 2 and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert len(tree) == 2, "the terminal's command never started its children"
        assert (await run.call("debug", {"op": "terminate"})).ok
        deadline = loop.time() + 10  # SIGKILL is sent; its delivery is the kernel's
        while (left := [p for p in tree if not gone(p)]) and loop.time() < deadline:
            await asyncio.sleep(0.05)
    for pid in left:
        os.kill(pid, 9)  # a failing run leaves nothing behind either
    assert not left, f"processes run in our terminal outlived terminate: {left}"


async def test_the_events_held_are_bounded_and_a_stop_after_many_is_still_seen() -> None:
    # 200,000 events (a module list, progress, anything): the session holds the latest few, and a
    # wait that started before them looks at each once and finds the stop that follows
    session = DAPSession.over("fake", Link(lambda request: iter(())).bind)
    waiter = asyncio.ensure_future(session.wait_event(STOP_EVENTS, len(session.events), 60, "the stop"))
    tracemalloc.start()
    try:
        for i in range(200_000):
            session._on_message({"type": "event", "seq": i, "event": "module", "body": {"reason": "new", "module": {"id": i}}})
            if i % 1000 == 0:
                await asyncio.sleep(0)  # the waiter looks at what came
        session._on_message({"type": "event", "event": "stopped", "body": {"reason": "pause", "threadId": 1}})
        stop = await waiter
        grown, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert stop["body"]["reason"] == "pause"
    assert len(session.events) == 200_001 and session.events.held() <= 256
    assert grown < 2 * 2**20, f"{grown:,} bytes held after 200,000 events"


async def test_what_the_adapter_lists_is_shown_bounded(tmp_path: Path) -> None:
    # thousands of threads, scopes and "special variables" rows with long names: each list is cut,
    # each name too, and the result says how many more there were
    root = scripted_project(tmp_path)
    long = "n" * 3000
    script = _with(stopped_at(str(root / "prog.py")),
                   threads={"threads": [{"id": i, "name": long} for i in range(3000)]},
                   scopes={"scopes": [{"name": long, "variablesReference": i} for i in range(3000)]},
                   variables={"variables": [{"name": "special variables", "value": "", "variablesReference": 1}] * 3000
                              + [{"name": long, "value": "1", "type": long}]})
    async with scripted_run(root, script, tmp_path) as run:
        assert (await run.call("debug", {"op": "launch", "program": "prog.py"})).ok
        for call, more in (({"op": "threads"}, "… 2900 more threads"), ({"op": "scopes", "frame_id": 1}, "… 2900 more scopes"),
                           ({"op": "variables", "reference": 1}, "")):
            r = await run.call("debug", call)
            assert r.ok and more in r.text and len(r.text) < 30_000, (call, len(r.text), r.text[-300:])
