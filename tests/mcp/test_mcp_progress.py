"""Progress that says what a call is doing, on the wire: a debug launch waiting for its breakpoint,
the project checker's run, and a call queued behind a running eval (test_mcp_tasks.py), a search's
files (test_mcp_sdk.py), a cell's last output line (both)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp_support import LineClient


def _messages(client: LineClient, token: str) -> list[dict[str, Any]]:
    return [n["params"] for n in client.notifications
            if n["method"] == "notifications/progress" and n["params"]["progressToken"] == token]


async def test_a_debug_launch_says_it_waits_for_its_breakpoint(line_client, project: Path):
    (project / "slow.py").write_text("import time\ntime.sleep(3)\nx = 1\nprint(x)\n")
    await line_client.initialize("2025-11-25")
    await line_client.request("tools/call", {"name": "debug", "arguments": {"op": "breakpoints", "file": "slow.py",
                                                                            "lines": [3]}})
    launched = (await line_client.request("tools/call", {"name": "debug", "arguments": {"op": "launch", "program": "slow.py"},
                                                         "_meta": {"progressToken": "launch"}}))["result"]
    assert "slow.py:3" in launched["content"][0]["text"]
    said = [p["message"] for p in _messages(line_client, "launch")]
    assert any("waiting for a breakpoint in slow.py" in m for m in said), said
    await line_client.request("tools/call", {"name": "debug", "arguments": {"op": "terminate"}})


async def test_the_project_checker_says_it_is_checking(line_client, project: Path):
    # sixty modules of forty functions: work enough for the checker to run a few seconds here
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    body = "\n".join(f"def f{i}(x: int) -> int:\n    y = [x * {i} for _ in range(3)]\n    return sum(y) + len(str(x))\n"
                     for i in range(40))
    for n in range(60):
        (project / "pkg" / f"m{n}.py").write_text(f"from pkg.m{max(n - 1, 0)} import f1\n{body}")
    await line_client.initialize("2025-11-25")
    checked = (await line_client.request("tools/call", {"name": "lsp", "arguments": {"action": "diagnostics", "file": "*"},
                                                        "_meta": {"progressToken": "check"}}))["result"]
    assert "$ " in checked["content"][0]["text"]
    said = [p["message"] for p in _messages(line_client, "check")]
    assert said and all("checking the project for" in m and "of at most 120 s" in m for m in said), said
