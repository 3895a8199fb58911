"""`minitools mcp` driven by the MCP inspector's command line (@modelcontextprotocol/inspector,
pinned in package.json; setup/70-mcp.sh installs it), a second client beside the Python SDK."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from mcp_support import REPO, mcp_argv, server_env

INSPECTOR = REPO / "node_modules" / ".bin" / "mcp-inspector"


def inspect(root: Path, *method: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(INSPECTOR), "--cli", *mcp_argv(root), *method], capture_output=True, text=True,
                          timeout=120, env=server_env(), cwd=root)


def test_list_tools(project: Path) -> None:
    listing = inspect(project, "--method", "tools/list")
    assert listing.returncode == 0, listing.stderr
    tools = {tool["name"]: tool for tool in json.loads(listing.stdout)["tools"]}
    assert {"lsp", "ast_grep", "ast_edit", "eval", "written"} <= set(tools) and "ask_user" not in tools
    assert tools["ast_grep"]["annotations"]["readOnlyHint"] is True
    assert tools["ast_edit"]["annotations"]["destructiveHint"] is True
    assert tools["eval"]["inputSchema"]["required"] == ["code", "description"]


def test_call_a_tool(project: Path) -> None:
    call = inspect(project, "--method", "tools/call", "--tool-name", "ast_grep",
                   "--tool-arg", "pattern=print($$$A)", "--tool-arg", "language=python")
    assert call.returncode == 0, call.stderr
    result = json.loads(call.stdout)
    assert result["isError"] is False and "structuredContent" not in result
    assert "2 matches" in result["content"][0]["text"] and "hello.py:2" in result["content"][0]["text"]


def test_tool_error_and_unknown_tool(project: Path) -> None:
    failed = inspect(project, "--method", "tools/call", "--tool-name", "eval",
                     "--tool-arg", "code=1/0", "--tool-arg", "description=divide one by zero on purpose")
    assert failed.returncode == 0, failed.stderr
    result = json.loads(failed.stdout)
    assert result["isError"] is True and "ZeroDivisionError" in result["content"][0]["text"]
    unknown = inspect(project, "--method", "tools/call", "--tool-name", "no_such_tool")
    assert unknown.returncode != 0
    assert "-32602" in unknown.stdout + unknown.stderr and "no_such_tool" in unknown.stdout + unknown.stderr
