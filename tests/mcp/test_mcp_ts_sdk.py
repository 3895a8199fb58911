"""`minitools mcp` driven by the official TypeScript SDK's v2 client (@modelcontextprotocol/client,
pinned in package.json; setup/70-mcp.sh installs it) in both protocol generations: the
`initialize` handshake (2025-11-25), and 2026-07-28 reached by the client's own probe of
`server/discover`, where ask_user's question goes out as an `input_required` result the client
answers through its elicitation handler and retries."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mcp_support import REPO, mcp_argv, server_env

SCRIPT = Path(__file__).with_name("ts_sdk_client.mjs")


def drive(root: Path, mode: str) -> dict[str, object]:
    node = shutil.which("node")
    assert node, "node is not installed (setup/30-lsp.sh installs it)"
    if not (REPO / "node_modules" / "@modelcontextprotocol" / "client").is_dir():
        pytest.fail("@modelcontextprotocol/client is not installed (setup/70-mcp.sh: npm ci)")
    # the script finds the SDK in the repository's node_modules, above its own folder
    done = subprocess.run([node, str(SCRIPT), mode, str(root), *mcp_argv(root)], capture_output=True, text=True,
                          timeout=120, env=server_env())
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("mode", "version"), [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
def test_the_typescript_sdk_in_both_generations(project: Path, mode: str, version: str) -> None:
    seen = drive(project, mode)
    assert seen["version"] == version
    tools = seen["tools"]
    assert isinstance(tools, list) and {"lsp", "ast_grep", "eval", "ask_user"} <= set(tools)
    assert seen["searchError"] is False and "hello.py:2" in str(seen["search"])
    # the question reached the client's elicitation handler, and its answer came back as the result
    assert seen["asked"] and "Which colour?" in str(seen["asked"][0])  # type: ignore[index]
    assert "blue" in str(seen["answer"])
    assert seen["failedError"] is True and "ZeroDivisionError" in str(seen["failed"])
