"""The Claude Code plugin in this repository (.claude-plugin/marketplace.json, plugins/claude-code),
installed from the checkout with the host's own plugin commands, in the real Claude Code CLI
(pinned in package.json) against the stand-in model API: its MCP server answers, and after the
host's own Edit breaks the code, the diagnostics its PostToolUse hook got from the running server
are in what the model reads next; the model then mends the code by symbol through that server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_support import REPO, LineClient, server_env
from model_standin import StandIn, Step

CLAUDE = REPO / "node_modules" / ".bin" / "claude"
FIXED = "def total(numbers: list[int]) -> int:\n    return sum(numbers)\n"
LABEL = '\n\nLABEL: int = "total"\n'  # an error the file had before the edit: not the edit's
APP = "def total(numbers: list[int]) -> int:\n    acc = 0\n    for x in numbers:\n        acc += x\n    return acc\n" + LABEL


def _claude(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLAUDE), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


@pytest.fixture
def claude_env(tmp_path: Path) -> dict[str, str]:
    if not CLAUDE.exists():
        pytest.skip(f"{CLAUDE} is missing: run setup/70-mcp.sh")
    home = tmp_path / "home"
    home.mkdir()
    # the plugin's server is `minitools mcp`, found on PATH as a user who installed minitools has it
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return dict(server_env(), HOME=str(home), PATH=path, ANTHROPIC_API_KEY="sk-stand-in",
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", ENABLE_TOOL_SEARCH="false")


def test_the_plugin_validates_and_installs_from_the_checkout(tmp_path: Path, claude_env: dict[str, str]) -> None:
    for where in (REPO, REPO / "plugins" / "claude-code"):
        checked = _claude(["plugin", "validate", str(where)], claude_env, tmp_path)
        assert checked.returncode == 0 and "Validation passed" in checked.stdout, checked.stdout + checked.stderr
    _install(claude_env, tmp_path)
    listed = _claude(["plugin", "list", "--json"], claude_env, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert any(p.get("id") == "minitools@minitools" and p.get("enabled") for p in json.loads(listed.stdout)), listed.stdout


def _install(env: dict[str, str], cwd: Path) -> None:
    """The README's way: the checkout as a marketplace, then the plugin from it."""
    added = _claude(["plugin", "marketplace", "add", str(REPO)], env, cwd)
    assert added.returncode == 0, added.stdout + added.stderr
    installed = _claude(["plugin", "install", "minitools@minitools"], env, cwd)
    assert installed.returncode == 0, installed.stdout + installed.stderr


def test_an_edit_that_breaks_the_code_brings_its_diagnostics_to_the_model(tmp_path: Path, claude_env: dict[str, str]) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\nversion = '0'\n")
    app = project / "app.py"
    app.write_text(APP)
    _install(claude_env, project)
    steps = [
        Step("Read", {"file_path": str(app)}),  # the host edits only a file it has read
        Step("Edit", {"file_path": str(app), "old_string": "return acc", "new_string": "return acc + missing_name"}),
        # the model mends it by symbol, through the plugin's server: staged, then accepted
        Step("symbol_edit", {"file": "app.py", "line": 1, "symbol": "total", "action": "replace", "code": FIXED}),
        Step("resolve", {"edit_id": "edit_1", "action": "accept"}),
    ]
    with StandIn(steps) as model:
        env = dict(claude_env, ANTHROPIC_BASE_URL=model.url)
        tools = ",".join(["Read", "Edit", *(f"mcp__plugin_minitools_minitools__{t}" for t in ("symbol_edit", "resolve"))])
        run = _claude(["-p", "Fix app.py.", "--allowedTools", tools, "--output-format", "json",
                       "--model", "claude-sonnet-4-5"], env, project)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "mcp__plugin_minitools_minitools__symbol_edit" in model.tool_names, model.tool_names
        assert len(model.results) == 4, model.results
    proposed, accepted = model.results[2:]
    assert "(proposed)" in json.dumps(proposed) and "+    return sum(numbers)" in json.dumps(proposed), proposed
    assert "accepted edit_1" in json.dumps(accepted), accepted
    assert app.read_text() == FIXED + LABEL
    # the skill is offered to the model by its name and description
    offered = json.dumps(model.requests[-1]["body"])
    assert "minitools:minitools" in offered and "When to use the minitools MCP tools" in offered
    # what the model was sent after the Edit: the hook's report (written_hook), from the running server
    after_edit = next(json.dumps(r["body"]["messages"][-1]) for r in model.requests
                      if '"tool_use_id": "toolu_0001"' in json.dumps(r["body"].get("messages", [])[-1:]))
    assert "app.py:5:18: error [reportUndefinedVariable]" in after_edit, after_edit[-3000:]
    assert '\\"missing_name\\" is not defined' in after_edit, after_edit[-3000:]
    # the PreToolUse hook took the baseline: the error the file already had is not reported as new
    assert "app.py: 2 new diagnostics" in after_edit and "reportAssignmentType" not in after_edit, after_edit[-3000:]
    assert "no baseline" not in after_edit and "hook additional context" in after_edit


async def test_written_hook_answers_in_the_hooks_json_and_says_nothing_when_nothing_is_new(line_client: LineClient,
                                                                                           project: Path) -> None:
    (project / "clean.py").write_text("x: int = 1\n")
    await line_client.initialize()
    clean = await line_client.request("tools/call", {"name": "written_hook", "arguments": {"paths": ["clean.py"]}})
    assert clean["result"]["content"][0]["text"] == "{}", clean
    (project / "clean.py").write_text("x: int = 'one'\n")
    broken = await line_client.request("tools/call", {"name": "written_hook", "arguments": {"paths": ["clean.py"]}})
    said = json.loads(broken["result"]["content"][0]["text"])["hookSpecificOutput"]
    assert said["hookEventName"] == "PostToolUse" and "clean.py:1:10: error" in said["additionalContext"], said
    # before a write: the baseline is taken and nothing is said; after it, only what is new
    before = await line_client.request("tools/call", {"name": "written_hook",
                                                      "arguments": {"paths": ["clean.py"], "event": "PreToolUse"}})
    assert before["result"]["content"][0]["text"] == "{}", before
    (project / "clean.py").write_text("x: int = 'one'\ny: str = 2\n")
    after = await line_client.request("tools/call", {"name": "written_hook", "arguments": {"paths": ["clean.py"]}})
    context = json.loads(after["result"]["content"][0]["text"])["hookSpecificOutput"]["additionalContext"]
    assert "clean.py:2:10: error" in context and "clean.py:1:" not in context, context


async def test_written_hook_says_what_the_write_broke_in_another_file(line_client: LineClient, project: Path) -> None:
    # the edited file stays clean; its caller in another file no longer type-checks
    (project / "shapes.py").write_text("def area(w: int, h: int) -> int:\n    return w * h\n")
    (project / "use.py").write_text("from shapes import area\n\nprint(area(2, 3))\n")
    await line_client.initialize()
    before = await line_client.request("tools/call", {"name": "written_hook",
                                                      "arguments": {"paths": ["shapes.py"], "event": "PreToolUse"}})
    assert before["result"]["content"][0]["text"] == "{}", before
    (project / "shapes.py").write_text("def area(w: int) -> int:\n    return w * w\n")
    after = await line_client.request("tools/call", {"name": "written_hook", "arguments": {"paths": ["shapes.py"]}})
    context = json.loads(after["result"]["content"][0]["text"])["hookSpecificOutput"]["additionalContext"]
    assert "new in other files" in context and "use.py:3:" in context and "Expected 1 positional argument" in context, context
