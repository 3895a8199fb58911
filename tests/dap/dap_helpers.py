"""Helpers of the debug tests: a Run, a supervisor whose adapter is the scripted
tests/dap/fake_adapter.py (a hostile peer behind the real `debug` tool), an in-memory adapter.
A module of its own, not conftest: the tests import these, and when several test folders are
collected together, `conftest` is whichever folder's was imported last."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from minitools import Run
from minitools.dap import DAPSession, DebugSupervisor, Detection
from minitools.transport import ChildProcess, FramedConnection

PROGRAM = "print('the program')\n"


def make_run(root: Path, **options: Any) -> Run:
    return Run(root, approve=lambda s, a: True, **options)


def scripted_project(tmp_path: Path) -> Path:
    """A project with `prog.py` (the program launched; the fake adapter never runs it)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "prog.py").write_text(PROGRAM)
    (root / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    return root


class ScriptedSupervisor(DebugSupervisor):
    """A supervisor whose adapter is tests/dap/fake_adapter.py playing `script`, whatever the
    catalog chose: a hostile peer behind the real `debug` tool."""

    def __init__(self, script: dict[str, Any], folder: Path) -> None:
        super().__init__()
        self.script_file = folder / "fake-adapter-script.json"
        self.script_file.write_text(json.dumps(script))

    async def start_adapter(self, det: Detection, cwd: Path) -> DAPSession:
        fake = Path(__file__).with_name("fake_adapter.py")
        child = await ChildProcess.start([sys.executable, str(fake), str(self.script_file)], peer="fake", cwd=cwd)
        return DAPSession.over("fake", lambda m, c: FramedConnection.over_child(child, on_message=m, on_close=c), child)


def scripted_run(root: Path, script: dict[str, Any], scratch: Path) -> Run:
    """A Run whose `debug` launches talk to the scripted fake adapter (`prog.py` must exist)."""
    return make_run(root, resources={"debug": ScriptedSupervisor(script, scratch)})


def stopped_at(path: str, line: int = 1) -> dict[str, Any]:
    """A script that stops at once in a frame whose source is `path`."""
    return {"after_launch": [{"event": "stopped", "body": {"reason": "breakpoint", "threadId": 1}}],
            "responses": {"stackTrace": {"stackFrames": [{"id": 1, "name": "f", "line": line, "source": {"path": path}}]},
                          "threads": {"threads": [{"id": 1, "name": "main"}]}}}




def gone(pid: int) -> bool:
    """True when `pid` no longer runs (a zombie awaiting its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


async def launch_with(run: Run, program: str, breakpoints: list[Any]) -> Any:
    """`program` launched with `breakpoints` (a `lines` list) set in it first: the launch's result."""
    await run.call("debug", {"op": "breakpoints", "file": program, "lines": breakpoints})
    return await run.call("debug", {"op": "launch", "program": program})


async def terminate_all(run: Run) -> None:
    """End the session and check that every process it named is gone."""
    pids = (await run.call("debug", {"op": "terminate"})).data["pids"]
    assert pids and all(gone(p) for p in pids), pids


def process_name(pid: int) -> str:
    """The command line of `pid` ("" when it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class Link:
    """An adapter as a function: each request the session sends is answered at once by `answer`."""

    def __init__(self, answer: Callable[[dict[str, Any]], Iterator[Any]]) -> None:
        self.answer = answer
        self.is_closed = False
        self.deliver: Callable[[Any], None] = lambda message: None

    def bind(self, on_message: Callable[[Any], None], on_close: Callable[[BaseException], None]) -> Link:
        self.deliver = on_message
        return self

    async def send(self, message: dict[str, Any]) -> None:
        for reply in self.answer(message):
            self.deliver(reply)

    async def close(self) -> None:
        self.is_closed = True
