"""Claude Code (pinned, interactive: its print mode offers no MCP tasks) running a long `eval` cell
as a task of the 2026-07-28 tasks extension: the call outlives the host's plain-call limit
(MCP_TOOL_TIMEOUT, lowered to 4 s), the host polls tasks/get, and the printed output reaches the
stand-in model in the host's task notification. The kernel does not outlive the session."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mcp_support import REPO, server_env
from model_standin import StandIn, Step
from terminal import Terminal

CLAUDE = REPO / "node_modules" / ".bin" / "claude"
MINITOOLS = Path(sys.executable).parent / "minitools"


def _said(model: StandIn, text: str) -> bool:
    """Whether the host has handed the model `text` in the last message of some request."""
    return any(text in json.dumps(r["body"].get("messages", [])[-1:]) for r in list(model.requests))


def _home(home: Path, project: Path) -> None:
    """A Claude Code home past its first-run screens, the project trusted, the stand-in's key accepted."""
    home.mkdir()
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "theme": "dark",
        "customApiKeyResponses": {"approved": ["sk-stand-in"], "rejected": []},
        "projects": {str(project): {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}}}))


def test_claude_code_runs_a_long_cell_as_a_task_and_the_model_reads_its_output(project: Path, tmp_path: Path) -> None:
    if not CLAUDE.exists():
        pytest.skip(f"{CLAUDE} is missing: run setup/70-mcp.sh")
    _home(tmp_path / "home", project)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"minitools": {"command": str(MINITOOLS),
                                                               "args": ["mcp", "--root", str(project)]}}}))
    env = dict(server_env(), HOME=str(tmp_path / "home"), ANTHROPIC_API_KEY="sk-stand-in", TERM="xterm-256color",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", ENABLE_TOOL_SEARCH="false",
               MCP_TOOL_TIMEOUT="4000")  # a plain call is cut after 4 s; the cell runs 8
    pid_file = project / "kernel.pid"
    code = (f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
            "for i in range(8):\n    print('epoch', i, flush=True)\n    time.sleep(1)\nprint('trained')")
    with StandIn([Step("eval", {"code": code, "description": "train for eight seconds"})]) as model:
        env["ANTHROPIC_BASE_URL"] = model.url
        argv = [str(CLAUDE), "--mcp-config", str(config), "--strict-mcp-config",
                "--allowedTools", "mcp__minitools__eval", "--model", "claude-sonnet-4-5"]
        with Terminal(argv, cwd=project, env=env) as claude:
            claude.wait_for("for shortcuts", 90)
            # the prompt is typed once the host lists minitools' tools to the model (it connects
            # to its servers while the prompt waits); a turn without them is asked again
            deadline = time.monotonic() + 120
            asked = 0
            while "mcp__minitools__eval" not in model.tool_names and time.monotonic() < deadline:
                if asked == len(model.requests):
                    claude.type("Use the minitools tools.")
                    asked += 1
                time.sleep(3)
            while not _said(model, "trained") and time.monotonic() < deadline:
                time.sleep(0.5)
            first: Any = model.results[0] if model.results else None
            assert _said(model, "trained"), (first, claude.text()[-2000:])
    started = json.dumps(first)
    assert "started server-side task" in started and "minitools/eval" in started, started
    notification = next(json.dumps(r["body"]["messages"][-1]) for r in model.requests
                        if "trained" in json.dumps(r["body"]["messages"][-1:]))
    assert "<status>completed</status>" in notification
    assert "epoch 0\\nepoch 1" in notification and "epoch 7\\ntrained" in notification, notification
    kernel = int(pid_file.read_text())
    for _ in range(100):  # the host is gone: minitools closed, and its kernel with it
        try:
            os.kill(kernel, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the kernel (pid {kernel}) outlived the session")
