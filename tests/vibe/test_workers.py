"""vibe_* with real worker processes (tests/vibe/runner.py) through Run.call."""

from __future__ import annotations

import asyncio
import json
import os

from minitools import Run, Tier
from minitools.vibe import Roster
from vibe_helpers import is_alive, until

VIBE = ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list"]


async def test_registered_only_with_a_roster(tmp_path, roster):
    async with Run(tmp_path) as run:
        assert not [s for s in run.tools() if s.name.startswith("vibe_")]
    async with Run(tmp_path, vibe=roster) as run:
        specs = {s.name: s for s in run.tools("plan")}
        assert all(specs[name].tier is Tier.READ for name in VIBE)


async def test_spawn_wait_list(tmp_path, roster):
    async with Run(tmp_path, vibe=roster) as run:
        spawned = await run.call("vibe_spawn", {"brief": "do: echo\nrename the thing", "label": "rename"})
        assert spawned.ok and spawned.data["worker_id"] == "w1" and spawned.data["status"] == "running"
        other = await run.call("vibe_spawn", {"brief": "do: stdout", "label": "answer", "tier": "good"})
        done = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
        assert done.ok and done.data["status"] == "done"
        assert "RESULT\ndo: echo\nrename the thing" in done.text
        answer = await run.call("vibe_wait", {"worker_id": other.data["worker_id"], "timeout_seconds": 60})
        assert answer.ok and answer.data["result"] == "the answer is 42"  # stdout is the result
        listed = await run.call("vibe_list", {})
    assert listed.ok
    rows = {w["worker_id"]: w for w in listed.data["workers"]}
    assert rows["w1"]["label"] == "rename" and rows["w1"]["tier"] == "fast" and rows["w1"]["status"] == "done"
    assert rows["w2"]["tier"] == "good" and rows["w2"]["elapsed_seconds"] >= 0
    assert 'w1 "rename" [fast] done' in listed.text and "the answer is 42" in listed.text


async def test_the_worker_runs_in_the_root_with_no_stdin_in_its_own_group_and_no_vibe_or_ask(tmp_path, roster):
    async with Run(tmp_path, vibe=roster, questions=lambda card: {"skipped": True}) as run:
        assert "ask_user" in [s.name for s in run.tools()]
        await run.call("vibe_spawn", {"brief": "do: inspect", "label": "inspect"})
        done = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
    assert done.ok, done.text
    report = json.loads(done.data["result"])
    assert report["cwd"] == str(tmp_path.resolve())
    assert report["stdin_is_devnull"] and report["pgid"] != os.getpgid(0)  # a group apart from the host's
    assert not [t for t in report["tools"] if t.startswith("vibe_") or t == "ask_user"]


async def test_send_reruns_with_the_longer_brief(tmp_path, roster):
    async with Run(tmp_path, vibe=roster) as run:
        first = (await run.call("vibe_spawn", {"brief": "do: block\nfirst part", "label": "long"})).data
        assert is_alive(first["pid"])
        sent = await run.call("vibe_send", {"worker_id": "w1", "message": "do: echo\nsecond part"})
        assert sent.ok and "stopped and it was started again (run 2) with the longer brief" in sent.text
        await until(lambda: not is_alive(first["pid"]), what="the first run to end")
        done = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
        assert done.ok and "first part" in done.data["result"] and "second part" in done.data["result"]
        assert done.data["runs"] == 2
        again = await run.call("vibe_send", {"worker_id": "w1", "message": "third part"})
        assert "it had finished (done) and was started again (run 3)" in again.text
        third = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
        assert "third part" in third.data["result"]


async def test_kill_takes_the_whole_process_tree(tmp_path, roster):
    pids = tmp_path / "pids.json"
    async with Run(tmp_path, vibe=roster) as run:
        await run.call("vibe_spawn", {"brief": f"do: tree {pids}", "label": "tree"})
        await until(pids.exists, what="the worker to start its grandchildren")
        tree = json.loads(pids.read_text())
        assert is_alive(tree["worker"]) and is_alive(tree["grandchild"])
        # one grandchild is in a session of its own, out of reach of a group kill: the reaper the
        # worker runs under holds it
        assert is_alive(tree["escaped"]) and os.getpgid(tree["escaped"]) != os.getpgid(tree["worker"])
        killed = await run.call("vibe_kill", {"worker_id": "w1"})
        assert killed.ok and "whole process tree" in killed.text and killed.data["status"] == "killed"
        await until(lambda: not any(is_alive(tree[k]) for k in ("worker", "grandchild", "escaped")),
                    what="the worker and its grandchildren to die")
        again = await run.call("vibe_kill", {"worker_id": "w1"})
        assert again.ok and "already finished (killed)" in again.text


async def test_the_cap_refuses_and_finished_workers_do_not_count(tmp_path, roster):
    async with Run(tmp_path, vibe=roster, vibe_max_workers=2) as run:
        assert (await run.call("vibe_spawn", {"brief": "do: echo", "label": "quick"})).ok
        assert (await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})).data["status"] == "done"
        assert (await run.call("vibe_spawn", {"brief": "do: block", "label": "one"})).ok
        assert (await run.call("vibe_spawn", {"brief": "do: block", "label": "two"})).ok
        refused = await run.call("vibe_spawn", {"brief": "do: block", "label": "three"})
        assert not refused.ok and "cap is 2" in refused.text and "Nothing was started" in refused.text
        assert refused.data == {"running": 2, "cap": 2}
        await run.call("vibe_kill", {"worker_id": "w2"})
        assert (await run.call("vibe_spawn", {"brief": "do: echo", "label": "three"})).ok


async def test_a_failing_worker_and_an_empty_result(tmp_path, roster):
    async with Run(tmp_path, vibe=roster) as run:
        await run.call("vibe_spawn", {"brief": "do: fail", "label": "fails"})
        await run.call("vibe_spawn", {"brief": "do: empty", "label": "says nothing"})
        failed = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
        empty = await run.call("vibe_wait", {"worker_id": "w2", "timeout_seconds": 60})
    assert not failed.ok and failed.data["status"] == "failed" and failed.data["exit_code"] == 3
    assert "exit code 3" in failed.text and "something broke on line 7" in failed.text
    assert not empty.ok and empty.data["status"] == "failed" and empty.data["exit_code"] == 0
    assert "exited 0 but produced no result" in empty.text


async def test_a_silent_worker_is_stalled_and_a_chatty_one_is_not(tmp_path, roster):
    async with Run(tmp_path, vibe=roster, vibe_stall_seconds=2) as run:
        await run.call("vibe_spawn", {"brief": "do: block", "label": "silent"})
        await run.call("vibe_spawn", {"brief": "do: chatty", "label": "chatty"})
        stalled = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 60})
        assert stalled.ok and stalled.data["status"] == "stalled" and "has not grown" in stalled.text
        chatty = await run.call("vibe_wait", {"worker_id": "w2", "timeout_seconds": 60})
        assert chatty.data["status"] == "done"
        assert "stalled" in (await run.call("vibe_list", {})).text


async def test_a_wait_timeout_returns_the_current_status(tmp_path, roster):
    async with Run(tmp_path, vibe=roster) as run:
        await run.call("vibe_spawn", {"brief": "do: block", "label": "slow"})
        waited = await run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 0.2})
        assert waited.ok and waited.data["timed_out"] is True and waited.data["status"] == "running"
        assert "keeps running" in waited.text
        unknown = await run.call("vibe_wait", {"worker_id": "w9"})
        assert not unknown.ok and "no worker 'w9'" in unknown.text


async def test_closing_the_run_leaves_no_process(tmp_path, roster):
    pids = tmp_path / "pids.json"
    run = Run(tmp_path, vibe=roster)
    await run.call("vibe_spawn", {"brief": f"do: tree {pids}", "label": "tree"})
    await run.call("vibe_spawn", {"brief": "do: block", "label": "block"})
    await until(pids.exists, what="the worker to start its grandchild")
    listed = (await run.call("vibe_list", {})).data["workers"]
    tree = json.loads(pids.read_text())
    alive = [w["pid"] for w in listed] + [tree["grandchild"], tree["escaped"]]
    folder = os.path.dirname(os.path.dirname(listed[0]["log"]))
    assert all(isinstance(pid, int) and is_alive(pid) for pid in alive)
    await run.close()
    await until(lambda: not any(is_alive(pid) for pid in alive), what="every worker process to end")
    assert not os.path.exists(folder)


async def test_a_runner_that_cannot_start_is_reported_at_once(tmp_path):
    async with Run(tmp_path, vibe={"fast": [str(tmp_path / "no-such-agent"), "{brief_file}"]}) as run:
        result = await run.call("vibe_spawn", {"brief": "anything", "label": "ghost"})
        listed = await run.call("vibe_list", {})
    assert not result.ok and "did not start" in result.text and "no-such-agent" in result.text
    assert listed.data["workers"][0]["status"] == "failed"


WRITER = ("import os, sys, pathlib\n"
          "surface = sys.argv[3] if len(sys.argv) > 3 else os.environ.get('MINITOOLS_SURFACE', '?')\n"
          "pathlib.Path(sys.argv[2]).write_text('surface=' + surface + ' env=' + os.environ.get('MINITOOLS_SURFACE', '?'))\n"
          "if surface == 'full':\n"
          "    pathlib.Path('written-by-worker.txt').write_text('x')\n")


async def test_a_worker_gets_the_surface_and_a_read_only_one_only_honouring_runners(tmp_path):
    import sys

    # a runner that writes into the root unless told its surface is read-only
    script = tmp_path.parent / "writer.py"
    script.write_text(WRITER)
    blind = [sys.executable, str(script), "{brief_file}", "{result_file}"]
    honouring = [*blind, "{surface}"]
    async with Run(tmp_path, vibe={"fast": blind, "good": honouring}) as run:
        refused = await run.call("vibe_spawn", {"brief": "edit", "label": "blind", "tier": "fast"}, surface="plan")
        assert not refused.ok and "does not declare that it honours the plan surface" in refused.text
        assert "{surface}" in refused.text and not (tmp_path / "written-by-worker.txt").exists()
        planned = await run.call("vibe_spawn", {"brief": "look", "label": "honest", "tier": "good"}, surface="readonly")
        assert planned.ok, planned.text
        done = await run.call("vibe_wait", {"worker_id": planned.data["worker_id"], "timeout_seconds": 60})
        assert done.ok and "surface=readonly env=readonly" in done.text, done.text
        assert not (tmp_path / "written-by-worker.txt").exists()
        full = await run.call("vibe_spawn", {"brief": "edit", "label": "full", "tier": "fast"})
        done = await run.call("vibe_wait", {"worker_id": full.data["worker_id"], "timeout_seconds": 60})
        assert done.ok and "env=full" in done.text and (tmp_path / "written-by-worker.txt").exists()


async def test_a_roster_table_can_declare_that_its_runner_honours_the_surface(tmp_path):
    import sys

    script = tmp_path.parent / "writer.py"
    script.write_text(WRITER)
    roster = {"fast": {"command": [sys.executable, str(script), "{brief_file}", "{result_file}"], "honours_surface": True}}
    async with Run(tmp_path, vibe=roster) as run:
        spawned = await run.call("vibe_spawn", {"brief": "look", "label": "declared"}, surface="plan")
        assert spawned.ok, spawned.text
        done = await run.call("vibe_wait", {"worker_id": spawned.data["worker_id"], "timeout_seconds": 60})
    assert "env=plan" in done.text and not (tmp_path / "written-by-worker.txt").exists()


async def test_a_callable_runner_that_raises_stop_iteration_fails_and_is_waited_for(tmp_path):
    # asyncio.to_thread cannot pass a StopIteration on: the worker stayed running for ever
    def exhausted(brief, log):
        return next(iter(()))

    async with Run(tmp_path, vibe=Roster({"fast": exhausted, "good": exhausted})) as run:
        await run.call("vibe_spawn", {"brief": "go", "label": "exhausted"})
        waited = await asyncio.wait_for(run.call("vibe_wait", {"worker_id": "w1", "timeout_seconds": 10}), 20)
    assert not waited.ok and waited.data["status"] == "failed" and "StopIteration" in waited.text, waited.text
