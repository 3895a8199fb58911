"""Child processes: stderr drained and bounded, stepped shutdown of the whole group."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from minitools.transport import ChildProcess, JSONRPCEndpoint, StderrRing


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purposes
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_ring_keeps_only_the_tail() -> None:
    ring = StderrRing(limit=100)
    for i in range(1000):
        ring.write(f"line {i}\n".encode())
    assert len(ring) <= 100 and ring.total > 1000
    assert ring.tail().endswith("line 999") and "line 1\n" not in ring.tail()
    ring.write(b"y" * 500)
    assert len(ring) == 100


async def test_chatty_stderr_never_blocks_the_child(fake_argv: list[str]) -> None:
    child = await ChildProcess.start(fake_argv, peer="chatty", stderr_limit=4096)
    rpc = JSONRPCEndpoint.over_child(child)
    # far more than a pipe buffer holds: only a drained stderr lets the child answer
    assert await rpc.request("spam_stderr", {"bytes": 4 * 2**20}, timeout=60) == "done"
    assert child.stderr.total >= 4 * 2**20 - 10 or len(child.stderr) <= 4096
    await child.stop()
    assert len(child.stderr) <= 4096 and child.stderr_tail().endswith("END")


async def test_stop_escalates_and_takes_the_group(tmp_path: Path) -> None:
    # a leader that ignores stdin EOF and SIGTERM, with a grandchild doing the same
    script = tmp_path / "stubborn.py"
    pidfile = tmp_path / "grandchild.pid"
    script.write_text(
        "import os, signal, subprocess, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"p = subprocess.Popen([sys.executable, '-c', 'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"
    )
    child = await ChildProcess.start([sys.executable, str(script)], peer="stubborn")
    assert await asyncio.wait_for(child.stdout.readline(), 30) == b"ready\n"
    grandchild = int(pidfile.read_text())
    code = await child.stop(close_timeout=0.2, term_timeout=0.2, kill_timeout=5)
    assert code == -9
    for _ in range(100):
        if not alive(grandchild):
            break
        await asyncio.sleep(0.05)
    assert not alive(grandchild)


async def test_missing_binary_is_file_not_found() -> None:
    import pytest

    with pytest.raises(FileNotFoundError):
        await ChildProcess.start(["/nonexistent/minitools-no-such-server"])


async def test_stdout_read_after_the_child_exited_holds_what_it_wrote() -> None:
    seen: list[bytes] = []
    child = await ChildProcess.start([sys.executable, "-c", "import sys; print('out'); sys.stderr.write('err')"], on_stderr=seen.append)
    try:
        assert await asyncio.wait_for(child.wait(), 10) == 0
        assert await asyncio.wait_for(child.stdout.read(), 10) == b"out\n"
        assert b"".join(seen) == b"err" and seen[-1] == b""  # on_stderr saw every chunk, then the end
    finally:
        await child.stop()
