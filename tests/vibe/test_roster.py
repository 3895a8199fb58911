"""The roster: tiers to runners, from a dict, a TOML file (tomllib or the flat reader), or callables."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

from minitools import Run
from minitools.vibe import CallableRunner, CommandRunner, Roster, RosterError, as_roster
from minitools.vibe._roster import _read_flat_toml


def test_commands_fill_in_their_placeholders(tmp_path):
    runner = CommandRunner(("agent", "--brief={brief_file}", "{result_file}"))
    assert runner.command(tmp_path / "b.md", tmp_path / "r.txt") == ["agent", f"--brief={tmp_path}/b.md", f"{tmp_path}/r.txt"]
    with pytest.raises(RosterError, match=r"unknown placeholder \{brief\}"):
        CommandRunner(("agent", "{brief}"))


def test_bad_rosters_are_refused():
    with pytest.raises(RosterError, match="tiers are fast and good"):
        Roster({"cheap": ["agent"]})
    with pytest.raises(RosterError, match="as a list of arguments"):
        Roster({"fast": "agent --go"})
    with pytest.raises(RosterError, match="names no runner"):
        Roster({})
    with pytest.raises(RosterError, match="unknown tier"):
        Roster({"fast": ["a"]}).runner("best")
    with pytest.raises(RosterError):
        as_roster(42)


def test_a_missing_tier_falls_back_to_the_other():
    roster = Roster({"good": ["careful-agent"]})
    assert roster.runner("fast") == CommandRunner(("careful-agent",))


ROSTER_TOML = textwrap.dedent('''
    # the roster of a test
    fast = ["python3", "fast.py", "{brief_file}",
            "{result_file}"]

    [good]
    command = ["python3", "good.py", "say \\"hi\\"", "{brief_file}"]
''')


def test_from_toml(tmp_path):
    path = tmp_path / "roster.toml"
    path.write_text(ROSTER_TOML)
    roster = Roster.from_toml(path)
    assert roster.runner("fast") == CommandRunner(("python3", "fast.py", "{brief_file}", "{result_file}"))
    assert roster.runner("good") == CommandRunner(("python3", "good.py", 'say "hi"', "{brief_file}"))
    bad = tmp_path / "bad.toml"
    bad.write_text("fast = [")
    with pytest.raises(RosterError, match="not valid TOML"):
        Roster.from_toml(bad)


def test_the_flat_reader_for_pythons_without_tomllib():
    flat = '# roster\nfast = ["agent", "{brief_file}"]\ngood = [\n  "agent", "--careful",  # slow\n  "say \\"x\\""\n]\n'
    assert _read_flat_toml(flat, "r.toml") == {"fast": ["agent", "{brief_file}"], "good": ["agent", "--careful", 'say "x"']}
    with pytest.raises(RosterError, match="no `fast"):
        _read_flat_toml("[fast]\n", "r.toml")


async def test_callable_runners_for_embedders(tmp_path):
    started = asyncio.Event()

    async def fast(brief, log):
        log("thinking")
        return brief.upper()

    def good(brief, log):
        return ""

    async def forever(brief, log):
        started.set()
        await asyncio.Event().wait()

    roster = Roster({"fast": fast, "good": good})
    assert isinstance(roster.runner("good"), CallableRunner)
    async with Run(tmp_path, vibe=roster) as run:
        await run.call("vibe_spawn", {"brief": "shout this", "label": "shout"})
        await run.call("vibe_spawn", {"brief": "say nothing", "label": "mute", "tier": "good"})
        done = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 30})
        mute = await run.call("vibe_wait", {"worker_id": "w2", "timeout_seconds": 30})
        assert done.ok and done.data["result"] == "SHOUT THIS" and "thinking" in Path(done.data["log"]).read_text()
        assert not mute.ok and "empty result" in mute.text
    async with Run(tmp_path, vibe={"fast": forever}) as run:
        await run.call("vibe_spawn", {"brief": "never ends", "label": "forever"})
        await asyncio.wait_for(started.wait(), 30)
        killed = await run.call("vibe_kill", {"worker_id": "w1"})
        assert killed.ok and killed.data["status"] == "killed"
