"""`minitools mcp` inside the hosts people run: the Claude Code and Codex CLIs (pinned in
package.json; setup/70-mcp.sh installs them), configured as the README says, each pointed at a
stand-in model API on loopback (`model_standin.py`) that calls minitools' tools in a scripted
order and records what the host hands back to the model. No login is involved.

What is asserted is what the model would read: eval's printed output and its figure, where the
debugger stopped, a search result of the size of its text, and an error's own message.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_support import REPO, server_env
from model_standin import StandIn, Step

BIN = REPO / "node_modules" / ".bin"
MINITOOLS = Path(sys.executable).parent / "minitools"

FIGURE = ("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
          "print('printed by the cell')\nplt.plot([1, 3, 2])\n6 * 7")
STEPS = [
    Step("eval", {"code": FIGURE, "description": "print a line, draw a figure, multiply"}),
    Step("debug", {"op": "breakpoints", "file": "prog.py", "lines": [7]}),
    Step("debug", {"op": "launch", "program": "prog.py"}),
    Step("debug", {"op": "terminate"}),
    Step("ast_grep", {"pattern": "print($$$A)"}),
    Step("ast_grep", {"pattern": "print($A", "language": "python"}),
    Step("ast_grep", {"rule": {"id": "print-in-function", "language": "python", "message": "prints $$$A",
                               "rule": {"pattern": "print($$$A)", "inside": {"kind": "function_definition", "stopBy": "end"}}}}),
]


def _texts(result: Any) -> str:
    """The text the host passed back for one call (blocks joined; a string as it is)."""
    if isinstance(result, str):
        return result
    return "\n".join(b.get("text", "") for b in result or [] if isinstance(b, dict))


def _images(result: Any) -> int:
    return sum(1 for b in result or [] if isinstance(b, dict) and b.get("type") in ("image", "input_image"))


def _check(results: list[Any]) -> None:
    assert len(results) == len(STEPS), results
    cell, _breakpoints, launch, _terminate, search, error, by_rule = results
    assert "printed by the cell" in _texts(cell) and "Out: 42" in _texts(cell), cell
    assert _images(cell) == 1, cell
    assert "prog.py:7" in _texts(launch) and "breakpoint" in _texts(launch), launch
    assert "2 matches of" in _texts(search) and "hello.py:2" in _texts(search), search
    assert len(json.dumps(search)) < 1500, search  # the text, not a JSON record many times its size
    assert "unparseable" in _texts(error) and "print($A" in _texts(error), error
    # a rule passed as an object reaches the server whole, and its findings the model
    assert "of rule print-in-function (python)" in _texts(by_rule), by_rule
    assert "hello.py:2: print('hi', name)" in _texts(by_rule) and "prints 'hi', name" in _texts(by_rule), by_rule


def _codex_config(home: Path, model_url: str, args: list[str]) -> None:
    """Codex's config.toml: the README's [mcp_servers.minitools] table, and a model provider that
    is the stand-in."""
    (home / "config.toml").write_text(
        'model = "gpt-5"\nmodel_provider = "standin"\napproval_policy = "never"\n'
        'sandbox_mode = "danger-full-access"\n\n'
        f'[model_providers.standin]\nname = "standin"\nbase_url = "{model_url}/v1"\n'
        'wire_api = "responses"\nenv_key = "STANDIN_KEY"\n\n'
        f'[mcp_servers.minitools]\ncommand = "{MINITOOLS}"\nargs = {json.dumps(args)}\ntool_timeout_sec = 300\n')


def _run_codex(codex: Path, home: Path, project: Path) -> None:
    """One `codex exec` turn in `project` with the configuration in `home`; it must succeed."""
    env = dict(server_env(), HOME=str(home), CODEX_HOME=str(home), STANDIN_KEY="sk-stand-in")
    run = subprocess.run([str(codex), "exec", "--skip-git-repo-check", "Use the minitools tools."],
                         cwd=project, env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def _need(name: str) -> Path:
    binary = BIN / name
    if not binary.exists():
        pytest.skip(f"{binary} is missing: run setup/70-mcp.sh")
    return binary


def test_claude_code_shows_the_model_what_minitools_wrote(project: Path, tmp_path: Path) -> None:
    claude = _need("claude")
    home = tmp_path / "home"
    home.mkdir()
    env = dict(server_env(), HOME=str(home), ANTHROPIC_API_KEY="sk-stand-in", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
               DISABLE_AUTOUPDATER="1",
               # Claude Code otherwise defers MCP tools behind its ToolSearch tool; the stand-in calls them directly
               ENABLE_TOOL_SEARCH="false")
    # the README's way: claude mcp add minitools -- minitools mcp --root /path/to/project
    added = subprocess.run([str(claude), "mcp", "add", "minitools", "--", str(MINITOOLS), "mcp", "--root", str(project)],
                           cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    with StandIn(STEPS) as model:
        env["ANTHROPIC_BASE_URL"] = model.url
        tools = ",".join(f"mcp__minitools__{name}" for name in ("eval", "debug", "ast_grep"))
        run = subprocess.run([str(claude), "-p", "Use the minitools tools.", "--allowedTools", tools,
                              "--output-format", "json", "--model", "claude-sonnet-4-5"],
                             cwd=project, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "mcp__minitools__eval" in model.tool_names
        _check(model.results)


def test_claude_code_follows_a_long_search_with_progress_that_has_a_total(tmp_path: Path) -> None:
    # what minitools sends the host is recorded by a pass-through around its stdout; the search
    # runs over the standard library's 1,800 files, long enough for several progress reports
    from corpora import python_stdlib

    claude = _need("claude")
    root = python_stdlib()
    home = tmp_path / "home"
    home.mkdir()
    sent = tmp_path / "sent.jsonl"
    wrapper = tmp_path / "minitools-mcp"
    wrapper.write_text(f'#!/bin/sh\nexec "{MINITOOLS}" mcp --root "{root}" | tee "{sent}"\n')
    wrapper.chmod(0o755)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"minitools": {"command": str(wrapper), "args": []}}}))
    env = dict(server_env(), HOME=str(home), ANTHROPIC_API_KEY="sk-stand-in", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
               DISABLE_AUTOUPDATER="1", ENABLE_TOOL_SEARCH="false")
    with StandIn([Step("ast_grep", {"pattern": "self.$A($$$B)", "language": "python"})]) as model:
        env["ANTHROPIC_BASE_URL"] = model.url
        run = subprocess.run([str(claude), "-p", "Use the minitools tools.", "--mcp-config", str(config), "--strict-mcp-config",
                              "--allowedTools", "mcp__minitools__ast_grep", "--output-format", "json", "--model", "claude-sonnet-4-5"],
                             cwd=root, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "matches of" in _texts(model.results[0]), model.results
    messages = [json.loads(line) for line in sent.read_text().splitlines() if line.strip()]
    progress = [m["params"] for m in messages if m.get("method") == "notifications/progress"]
    assert progress, messages[-3:]  # the host sent a progress token, and minitools followed it
    totals = {p.get("total") for p in progress}
    assert len(totals) == 1 and next(iter(totals)) > 1000, progress  # files to search, known from the start
    done = [p["progress"] for p in progress]
    assert done == sorted(done) and done[-1] <= progress[0]["total"], progress
    assert all(p["message"] == f"files searched: {p['progress']} of {p['total']}" for p in progress), progress


def test_codex_shows_the_model_what_minitools_wrote(project: Path, tmp_path: Path) -> None:
    codex = _need("codex")
    home = tmp_path / "codex"
    home.mkdir()
    with StandIn(STEPS) as model:
        _codex_config(home, model.url, ["mcp", "--root", str(project)])
        _run_codex(codex, home, project)
        assert "mcp__minitools__eval" in model.tool_names
        _check(model.results)


def test_the_stand_in_sees_structured_content_when_asked_for(project: Path, tmp_path: Path) -> None:
    # why structured output is off by default: with --structured, Codex hands the model the JSON
    # of the result instead of its text, and eval's printed output is gone
    codex = _need("codex")
    home = tmp_path / "codex"
    home.mkdir()
    with StandIn(STEPS[:1]) as model:
        _codex_config(home, model.url, ["mcp", "--structured", "--root", str(project)])
        _run_codex(codex, home, project)
        (cell,) = model.results
        assert "printed by the cell" not in _texts(cell) and "output_chars" in json.dumps(cell), cell

