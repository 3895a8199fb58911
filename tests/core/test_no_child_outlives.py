"""Closing a Run stops every child process it started, whichever tools started them."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

from minitools import Run
from minitools.tour import sample_project


def descendants(pid: int) -> set[int]:
    """Every live descendant of `pid`, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[0] == b"Z":
            continue  # a zombie has exited; only its parent's wait is missing
        children.setdefault(int(fields[1]), []).append(int(entry))
    out: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            out.add(child)
            stack.append(child)
    return out


async def test_closing_the_run_leaves_no_process(tmp_path: Path) -> None:
    root = tmp_path / "sample"
    shutil.copytree(sample_project(), root)
    before = descendants(os.getpid())
    worker = [sys.executable, "-c", "import time; time.sleep(600)"]
    run = Run(root, approve=lambda spec, args: True, vibe={"fast": worker})
    try:
        calls = [
            ("lsp", {"action": "hover", "file": "app/inventory.py", "line": 27, "symbol": "find"}),
            ("eval", {"code": "x = 1\nx", "description": "start the python kernel now"}),
            ("eval", {"code": "let y = 2; y", "description": "start the javascript kernel now", "language": "javascript"}),
            ("debug", {"op": "breakpoints", "file": "app/report.py", "lines": [17]}),
            ("debug", {"op": "launch", "program": "main.py", "args": []}),
            ("vibe_spawn", {"brief": "sleep", "label": "sleeper"}),
        ]
        for name, args in calls:
            if run.registry.get(name) is None:
                continue
            result = await run.call(name, args)
            assert result.ok, f"{name}: {result.text}"
        started = descendants(os.getpid()) - before
        assert started, "the tools started no process"
    finally:
        await run.close()
    deadline = asyncio.get_running_loop().time() + 10
    while (left := (descendants(os.getpid()) - before) & started) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    assert not left, f"processes outlived Run.close(): {sorted(left)}"


HOST = """
import asyncio, sys
from minitools import Run
from minitools.match import Searcher, compile_pattern

async def main(root):
    worker = [sys.executable, "-c", "import time; time.sleep(600)"]
    run = Run(root, approve=lambda spec, args: True, vibe={"fast": worker})
    for name, args in [
        ("lsp", {"action": "hover", "file": "app/inventory.py", "line": 27, "symbol": "find"}),
        ("eval", {"code": "x = 1", "description": "start the python kernel"}),
        ("debug", {"op": "breakpoints", "file": "app/report.py", "lines": [17]}),
        ("debug", {"op": "launch", "program": "main.py", "args": []}),
        ("vibe_spawn", {"brief": "sleep", "label": "sleeper"}),
    ]:
        if run.registry.get(name) is not None:
            result = await run.call(name, args)
            assert result.ok, (name, result.text)
    # shard workers: a searcher that keeps a pool
    searcher = Searcher(root, workers=2, pool_min_files=1, pool_min_bytes=1)
    searcher.search(compile_pattern("print($A)", "python"))
    print("ready", flush=True)
    await asyncio.sleep(600)

asyncio.run(main(sys.argv[1]))
"""


async def test_no_child_outlives_a_host_killed_with_sigkill(tmp_path: Path) -> None:
    # the host gets no chance to close its Run: the children must notice on their own
    root = tmp_path / "sample"
    shutil.copytree(sample_project(), root)
    host = await asyncio.create_subprocess_exec(sys.executable, "-c", HOST, str(root), stdout=asyncio.subprocess.PIPE,
                                                env=dict(os.environ, MINITOOLS_STRICT="1"))
    try:
        assert host.stdout is not None
        line = await asyncio.wait_for(host.stdout.readline(), 120)
        assert line == b"ready\n", line
        started = descendants(host.pid)
        assert len(started) >= 4, started  # server, kernel, adapter and program, worker, shard workers
    finally:
        host.kill()
        await host.wait()
    deadline = asyncio.get_running_loop().time() + 10
    while (left := {p for p in started if _alive(p)}) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    assert not left, f"processes outlived their host's SIGKILL: {sorted((p, _name(p)) for p in left)}"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")[:120]
    except OSError:
        return "?"


SHELL_HOST = """
import asyncio, sys
from minitools import Run

async def main(root):
    run = Run(root, approve=lambda spec, args: True)
    call = asyncio.ensure_future(run.call("eval", {"code": "!sleep 600", "description": "a shell command that runs long"}))
    print("started", flush=True)
    await asyncio.sleep(600)

asyncio.run(main(sys.argv[1]))
"""


async def test_a_kernel_shell_command_dies_with_a_killed_host(tmp_path: Path) -> None:
    # `!cmd` in a python cell is the kernel's child: it goes when the kernel goes
    (tmp_path / "a.py").write_text("x = 1\n")
    left = await _left_by_a_killed_host(SHELL_HOST, tmp_path, "sleep 600", 1)
    assert not left, f"the cell's command outlived its host's SIGKILL: {left}"


async def _left_by_a_killed_host(host_script: str, root: Path, prefix: str, count: int) -> list[tuple[int, str]]:
    """Run `host_script` on `root` until it prints "started" and `count` of its descendants run a
    command line starting with `prefix`; SIGKILL it; those still alive after a bounded wait (with
    their command lines), killed then so that a failing run leaves nothing behind either."""
    host = await asyncio.create_subprocess_exec(sys.executable, "-c", host_script, str(root), stdout=asyncio.subprocess.PIPE)
    loop = asyncio.get_running_loop()
    try:
        assert host.stdout is not None
        assert await asyncio.wait_for(host.stdout.readline(), 60) == b"started\n"
        deadline = loop.time() + 60
        while len(found := [p for p in descendants(host.pid) if _name(p).startswith(prefix)]) < count and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert len(found) == count, f"the host's {prefix!r} processes never started"
    finally:
        host.kill()
        await host.wait()
    deadline = loop.time() + 10
    while (left := [p for p in found if _alive(p)]) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    names = sorted((p, _name(p)) for p in left)
    for pid in left:
        os.kill(pid, 9)
    return names


WORKER_TREE_HOST = """
import asyncio, sys
from minitools import Run

async def main(root):
    # a worker with children of its own, one of them gone to a session (and group) of its own, as
    # an agent CLI's shells may be: the parent-death signal reaches only the worker itself
    worker = ["sh", "-c", "sleep 3000 & setsid sleep 3001 & wait"]
    run = Run(root, approve=lambda spec, args: True, vibe={"fast": worker})
    result = await run.call("vibe_spawn", {"brief": "a tree", "label": "tree"})
    assert result.ok, result.text
    print("started", flush=True)
    await asyncio.sleep(600)

asyncio.run(main(sys.argv[1]))
"""


async def test_a_workers_own_children_die_with_a_killed_host(tmp_path: Path) -> None:
    left = await _left_by_a_killed_host(WORKER_TREE_HOST, tmp_path, "sleep 300", 2)
    assert not left, f"the worker's children outlived their host's SIGKILL: {left}"


def test_closing_a_searcher_mid_search_kills_its_shard_workers_without_waiting(tmp_path: Path) -> None:
    # a host on SIGTERM closes its Run while a search may be in flight: the shard workers must go
    # then, not when the search ends (basedpyright, closed after the searcher, waited with them)
    import threading

    from minitools.match import Searcher, compile_pattern

    (tmp_path / "a.py").write_text("print(1)\n")
    before = descendants(os.getpid())
    searcher = Searcher(tmp_path, workers=2, pool_min_files=1, pool_min_bytes=1)
    searcher.search(compile_pattern("print($A)", "python"))
    workers = descendants(os.getpid()) - before
    assert workers, "the searcher started no shard worker"
    pool = searcher._pool
    assert pool is not None
    with pool._lock:  # what a search in flight holds while its workers search
        closing = threading.Thread(target=searcher.close)
        closing.start()
        closing.join(20)
        assert not closing.is_alive(), "close waited for the search in flight"
        deadline = time.monotonic() + 10
        while [p for p in workers if _alive(p)] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not [p for p in workers if _alive(p)], "the shard workers outlived the close"
