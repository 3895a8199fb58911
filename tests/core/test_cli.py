from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from minitools import __version__


def minitools(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_help_everywhere():
    top = minitools("--help")
    assert top.returncode == 0
    for command in ("tour", "tools", "call", "serve", "mcp"):
        assert command in top.stdout
        sub = minitools(command, "--help")
        assert sub.returncode == 0 and "usage" in sub.stdout


def test_no_command_is_usage():
    assert minitools().returncode == 2


def test_call_usage_errors(tmp_path):
    bad_json = minitools("call", "ast_grep", "{", "--root", str(tmp_path))
    assert bad_json.returncode == 2 and "not JSON" in bad_json.stderr
    not_object = minitools("call", "ast_grep", "[1]", "--root", str(tmp_path))
    assert not_object.returncode == 2 and "must be a JSON object" in not_object.stderr
    no_root = minitools("call", "ast_grep", "{}", "--root", str(tmp_path / "missing"))
    assert no_root.returncode == 2 and "does not exist" in no_root.stderr
    unknown = minitools("call", "nope", "{}", "--root", str(tmp_path))
    assert unknown.returncode == 2 and "unknown tool 'nope'" in unknown.stderr


def test_tools_lists_and_exports(tmp_path):
    listing = minitools("tools", "--root", str(tmp_path), "--json", "--format", "anthropic")
    assert listing.returncode == 0
    for tool in json.loads(listing.stdout):
        assert set(tool) == {"name", "description", "input_schema"}
    plan = minitools("tools", "--root", str(tmp_path), "--surface", "plan")
    assert plan.returncode == 0


def test_tools_json_carries_each_tier(tmp_path):
    listing = json.loads(minitools("tools", "--root", str(tmp_path), "--json").stdout)
    tiers = {tool["name"]: tool["tier"] for tool in listing}
    assert tiers["lsp"] == "read" and tiers["ast_edit"] == "write" and tiers["eval"] == "exec"
    assert all(set(tool) == {"name", "description", "parameters", "tier", "parallel_safe"} for tool in listing)
    plan = json.loads(minitools("tools", "--root", str(tmp_path), "--json", "--surface", "plan").stdout)
    assert plan and {tool["tier"] for tool in plan} == {"read"}


def test_tour_runs_over_the_sample():
    tour = minitools("tour")
    assert tour.returncode == 0, tour.stderr
    assert "minitools tour" in tour.stdout
    assert "The plan surface sees read-tier tools only" in tour.stdout
    assert "[not ok]" not in tour.stdout
    assert "minitools mcp --root" in tour.stdout


def test_version():
    for flag in ("--version", "-V"):
        out = minitools(flag)
        assert out.returncode == 0 and out.stdout == f"minitools {__version__}\n"


def _with_closed_stdout(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command with a stdout whose reader is gone (`… | head -0`): every write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "minitools", *args], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=120, cwd=cwd)
    finally:
        os.close(write)


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n" * 2000)
    for args in (["tools", "--json", "--root", str(tmp_path)], ["ast-grep", "print($A)", str(tmp_path)],
                 ["ast-grep", "print($A)", str(tmp_path), "--json=stream"]):
        out = _with_closed_stdout(*args, cwd=tmp_path)
        assert (out.returncode, out.stderr) == (0, ""), args
