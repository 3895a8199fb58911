"""The node adapter's DAP surface under drawn arguments: whatever a client sends to the real
adapter (`python -m minitools.inspector`) with a real node program paused under it, every
request is answered (success or a failed response with a reason) within a bound, the adapter
lives on, and the session still works afterwards. Never an unanswered request or a dead adapter."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minitools.dap import DAPError, DAPSession
from minitools.transport import ChildProcess, FramedConnection

pytestmark = [pytest.mark.timeout(900),  # every example starts an adapter and node: the run and a shrink take minutes
              pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/ installs it)")]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
# attach is left out: a drawn processId would be signalled; launch and disconnect are the test's own
COMMANDS = st.sampled_from(["setBreakpoints", "setExceptionBreakpoints", "setFunctionBreakpoints", "threads", "stackTrace",
                            "scopes", "variables", "evaluate", "exceptionInfo", "continue", "next", "stepIn", "stepOut",
                            "pause", "configurationDone", "initialize", "nosuchcommand"])
FIELDS = st.sampled_from(["source", "breakpoints", "filters", "frameId", "variablesReference", "start", "count",
                          "expression", "threadId", "levels", "startFrame", "path", "line"])
ARGUMENTS = st.dictionaries(FIELDS, JSON, max_size=4) | st.builds(
    lambda path, bps: {"source": {"path": path}, "breakpoints": bps},
    st.sampled_from(["prog.js", "/nonexistent.ts", ""]), st.lists(st.dictionaries(st.sampled_from(
        ["line", "condition", "hitCondition", "logMessage"]), JSON, max_size=3), max_size=3))

PROGRAM = "let n = 0;\nsetInterval(() => {\n  n += 1;\n}, 10);\n"


async def _session(root: Path) -> DAPSession:
    child = await ChildProcess.start([sys.executable, "-m", "minitools.inspector", "--runtime", "node"], peer="node", cwd=root)
    session = DAPSession.over("node", lambda m, c: FramedConnection.over_child(child, on_message=m, on_close=c), child)
    await session.initialize("node", 10)
    await session.start("launch", {"program": str(root / "prog.js"), "cwd": str(root)}, {str(root / "prog.js"): [{"line": 3}]}, 15)
    return session


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(COMMANDS, ARGUMENTS), min_size=1, max_size=12))
def test_any_request_is_answered_and_the_adapter_lives_on(tmp_path: Path, requests: list[tuple[str, dict[str, Any]]]) -> None:
    (tmp_path / "prog.js").write_text(PROGRAM)
    (tmp_path / "package.json").write_text("{}\n")

    async def run() -> None:
        session = await _session(tmp_path)
        try:
            for command, arguments in requests:
                try:
                    await session.request(command, arguments, timeout=10)
                except DAPError as exc:
                    assert exc.message  # a refusal says why
            assert session.is_alive and session.child is not None and session.child.returncode is None
            threads = await session.request("threads", {}, timeout=10)
            assert threads["threads"][0]["id"] == 1
        finally:
            await session.close()

    asyncio.run(asyncio.wait_for(run(), 120))
