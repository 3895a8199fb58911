"""A command run under a subreaper that takes the command's whole tree down with it.

The parent-death signal (`die_with_parent`) reaches only a direct child: the children of a
worker (an agent CLI's shells, which may leave its process group with setsid) would outlive a
host killed with SIGKILL. This process stands between the host and the command: it marks itself
a child subreaper (Linux `prctl`), so every descendant the command orphans becomes its child
instead of init's; it asks for SIGHUP when its parent dies; it runs the command in its own
process group. When the parent dies, or the command ends, it SIGKILLs every descendant left and
exits as the command did (the same code, or killed by the same signal).

It imports nothing from minitools, so it runs as a script (`reaped(argv)` is the command line):

    python _reaper.py PARENT_PID STATUS_FD [FD,FD...] -- ARGV...

STATUS_FD receives why the command could not start (nothing when it started), then is closed.
The descriptors listed before `--` are passed on to the command (a kernel's private pipes).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Sequence

__all__ = ["descendants", "reaped", "kill_tree"]

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid`, read from /proc (children before their own children; none
    where there is no /proc)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_tree(pid: int) -> None:
    """SIGKILL the process group `pid` leads and every descendant of `pid`, wherever its group."""
    victims = descendants(pid)  # read first: once `pid` is dead its orphans are init's
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    _kill(victims)


def reaped(argv: Sequence[str], status_fd: int, pass_fds: Sequence[int] = ()) -> list[str]:
    """The command line that runs `argv` under the reaper, for a child of this process; the
    descriptors `pass_fds` (passed to the reaper too) reach the command open."""
    fds = [",".join(str(fd) for fd in pass_fds)] if pass_fds else []
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid()), str(status_fd), *fds, "--", *argv]


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _reap_all(command: int) -> int | None:
    """Reap children until none is left; the wait status of `command` (None if not among them)."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            return status
        if pid == command:
            status = code
        if status is not None:  # the command has ended: what it left goes too
            _kill_descendants()


def _kill_descendants() -> None:
    _kill(descendants(os.getpid()))


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _main(args: list[str]) -> None:
    parent, status_fd = int(args[0]), int(args[1])
    split = args.index("--")
    pass_fds = tuple(int(fd) for fd in args[2].split(",")) if split == 3 else ()
    argv = args[split + 1:]

    def parent_died(signum: int, frame: object) -> None:
        if os.getppid() != parent:
            _kill_descendants()
            os._exit(128 + signal.SIGHUP)

    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGHUP, parent_died)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGHUP)
    # SIGTERM to the group is for the command: this process waits for the command to end
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(128 + signal.SIGHUP)
    try:
        command = subprocess.Popen(argv, pass_fds=pass_fds, preexec_fn=lambda: _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL))
    except (OSError, ValueError) as exc:
        os.write(status_fd, str(exc).encode())
        os._exit(127)
    os.close(status_fd)
    status = _reap_all(command.pid)
    if status is None:
        os._exit(1)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's disposition cannot be set (nor needs it)
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    _main(sys.argv[1:])
