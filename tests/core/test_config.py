"""The configuration file (minitools.toml, pyproject.toml's [tool.minitools], --config FILE): every
key taken and checked, bad files refused before anything starts with the key's path, and the
settings reaching what a user sees (a search's budget, the MCP surface, eval's output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minitools import Run
from minitools.config import KEYS, Config, ConfigError, load_config

# a value each key takes, and one it refuses
GOOD: dict[str, object] = {
    "lsp.prefer": {"python": ["pylsp"]}, "lsp.path": ["/opt/servers/bin"], "lsp.prestart": True,
    "vibe.roster": "roster.toml", "mcp.surface": "readonly", "mcp.approve": "none", "mcp.structured": True,
    "lsp.diagnostics_cap": 7, "lsp.dependents": 0, "kernel.max_output": 500, "kernel.memory_mb": 2048,
    "search.memory_budget_mb": 64,
    "search.max_file_size_kb": 4, "vibe.max_workers": 2,
    "lsp.servers": [{"id": "md", "command": ["md-ls", "--stdio"], "languages": ["markdown"], "extensions": [".md"]}],
    "debug.adapters": [{"id": "rdbg", "command": ["rdbg", "--open"], "suffixes": [".rb"], "markers": ["Gemfile"]}],
}
BAD: dict[str, object] = {
    "lsp.prefer": {"python": "pylsp"}, "lsp.path": "/opt", "lsp.prestart": "yes", "vibe.roster": 5,
    "mcp.surface": "everything", "mcp.approve": "always", "mcp.structured": 1, "lsp.diagnostics_cap": 0,
    "lsp.dependents": -1, "kernel.max_output": 2.5, "kernel.memory_mb": 0, "search.memory_budget_mb": -1,
    "search.max_file_size_kb": "4k", "vibe.max_workers": True,
    "lsp.servers": {"id": "md"},
    "debug.adapters": {"id": "rdbg"},
}


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


@pytest.mark.parametrize("key", KEYS, ids=lambda k: k.path)
def test_every_key_is_taken_and_checked(key, tmp_path: Path) -> None:
    good = GOOD.get(key.path, 12.5)
    (tmp_path / "minitools.toml").write_text(f"[{key.table}]\n{key.name} = {_toml(good)}\n")
    config = load_config(tmp_path)
    got = {**config.options, **config.front}[key.option]
    assert got == (str((tmp_path / "roster.toml").resolve()) if key.path == "vibe.roster" else good)
    assert config.source == str(tmp_path / "minitools.toml")
    bad = BAD.get(key.path, "fast")
    (tmp_path / "minitools.toml").write_text(f"[{key.table}]\n{key.name} = {_toml(bad)}\n")
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert f"{key.path}: expected {key.expected}, got" in str(err.value)


@pytest.mark.parametrize(("text", "said"), [
    ("[lsp]\ntimout = 3\n", "unknown key lsp.timout; [lsp] takes timeout, init_timeout"),
    ("[kernal]\nbudget = 3\n", "unknown table [kernal]; the tables are lsp, debug, kernel"),
    ("lsp = 3\n", "lsp must be a table ([lsp] with keys), got 3"),
    ("[lsp\ntimeout = 3\n", "not valid TOML"),
    ("[lsp]\ntimeout = 100000\n", "lsp.timeout: expected a number of seconds above 0 (at most a day), got 100000"),
    ('[[lsp.servers]]\nid = "md"\ncommand = "md-ls"\nlanguages = ["markdown"]\nextensions = [".md"]\n',
     "lsp.servers[0].command: expected the command as a list of words"),
    ('[[lsp.servers]]\nid = "md"\ncommand = ["md-ls"]\nlanguages = ["markdown"]\n', "lsp.servers[0].extensions: missing"),
    ('[[lsp.servers]]\nid = "md"\ncommand = ["md-ls"]\nlanguages = ["markdown"]\nextensions = ["md"]\n',
     "lsp.servers[0].extensions: expected a list of file name endings starting with a dot"),
    ('[[lsp.servers]]\nid = "md"\ncommand = ["md-ls"]\nlanguages = ["x"]\nextensions = [".md"]\nport = 3\n',
     "lsp.servers[0].port: unknown key; a server takes id, command, languages"),
    ('[[debug.adapters]]\nid = "rdbg"\ncommand = ["rdbg"]\nsuffixes = [".rb"]\n',
     "debug.adapters[0].markers: missing; an adapter takes id, command, suffixes, markers"),
    ('[[debug.adapters]]\nid = "rdbg"\ncommand = ["rdbg"]\nsuffixes = ["rb"]\nmarkers = ["Gemfile"]\n',
     "debug.adapters[0].suffixes: expected a list of the endings of the programs it debugs"),
])
def test_bad_files_are_refused_naming_the_key(text: str, said: str, tmp_path: Path) -> None:
    (tmp_path / "minitools.toml").write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert said in str(err.value) and "minitools.toml" in str(err.value)


def test_where_the_file_is_found(tmp_path: Path) -> None:
    assert load_config(tmp_path) == Config()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.minitools.kernel]\nbudget = 9\n")
    assert load_config(tmp_path).options == {"kernel_budget": 9}
    (tmp_path / "minitools.toml").write_text("[kernel]\nbudget = 7\n")
    assert load_config(tmp_path).options == {"kernel_budget": 7}  # minitools.toml first
    other = tmp_path / "elsewhere.toml"
    other.write_text("[kernel]\nbudget = 5\n")
    assert load_config(tmp_path, other).options == {"kernel_budget": 5}  # --config first
    with pytest.raises(ConfigError, match=r'"missing\.toml" is not there'):
        load_config(tmp_path, "missing.toml")
    (tmp_path / "pyproject.toml").write_text("not toml [")
    (tmp_path / "minitools.toml").unlink()
    assert load_config(tmp_path) == Config()  # the project's broken pyproject.toml is not ours to refuse


def test_a_fifo_named_as_the_file_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "minitools.toml")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for explicit in (fifo, None):
        with pytest.raises(ConfigError, match="is not a regular file"):
            load_config(tmp_path, explicit)
    (tmp_path / "minitools.toml").unlink()
    (tmp_path / "minitools.toml").mkdir()
    with pytest.raises(ConfigError, match=r"is not a regular file|cannot read it"):
        load_config(tmp_path)


async def test_the_run_takes_the_file_and_keyword_options_win(tmp_path: Path) -> None:
    (tmp_path / "minitools.toml").write_text("[search]\nmax_file_size_kb = 1\n[kernel]\nbudget = 9\n")
    (tmp_path / "big.py").write_text("print(1)\n" + "x = 1\n" * 400)  # 2.4 KB: over the configured 1 KB
    (tmp_path / "small.py").write_text("print(2)\n")
    async with Run(tmp_path, config=True, kernel_budget=3) as run:
        found = await run.call("ast_grep", {"pattern": "print($A)", "path": "."})
        assert run.config.source == str(tmp_path / "minitools.toml")
        assert run.ctx.option("kernel_budget", None) == 3
    assert found.ok and found.data["total"] == 1 and "small.py" in found.text and "oversized" in found.text
    async with Run(tmp_path) as plain:  # no config argument: no file read, the API as before
        everything = await plain.call("ast_grep", {"pattern": "print($A)", "path": "."})
    assert everything.data["total"] == 2
    (tmp_path / "minitools.toml").write_text("[search]\nmax_file_size_kb = 0\n")
    with pytest.raises(ValueError, match=r"search\.max_file_size_kb: expected a whole number above 0, got 0"):
        Run(tmp_path, config=True)


def _mcp(root: Path, *flags: str, messages: list[dict[str, object]]) -> tuple[list[dict[str, object]], str]:
    lines = "".join(json.dumps(m) + "\n" for m in messages)
    proc = subprocess.run([sys.executable, "-m", "minitools", "mcp", "--root", str(root), *flags], input=lines,
                          capture_output=True, text=True, timeout=120)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()], proc.stderr


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def test_mcp_takes_its_surface_from_the_file_and_the_flag_wins(tmp_path: Path) -> None:
    (tmp_path / "minitools.toml").write_text('[mcp]\nsurface = "readonly"\n')
    answers, _ = _mcp(tmp_path, messages=[INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}, LIST])
    names = {t["name"] for t in answers[-1]["result"]["tools"]}  # type: ignore[index]
    assert "ast_grep" in names and "ast_edit" not in names and "eval" not in names
    answers, _ = _mcp(tmp_path, "--surface", "full",
                      messages=[INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}, LIST])
    assert "ast_edit" in {t["name"] for t in answers[-1]["result"]["tools"]}  # type: ignore[index]


def test_mcp_refuses_a_bad_file_before_it_starts(tmp_path: Path) -> None:
    (tmp_path / "minitools.toml").write_text("[lsp]\ntimeout = 'soon'\n")
    proc = subprocess.run([sys.executable, "-m", "minitools", "mcp", "--root", str(tmp_path)], input="",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "lsp.timeout: expected a number of seconds above 0 (at most a day), got 'soon'" in proc.stderr


def test_the_reference_lists_every_key(repo_root: Path) -> None:
    text = (repo_root / "docs" / "reference.md").read_text()
    assert not [k.path for k in KEYS if f"| `{k.path}` |" not in text]
