"""Children die with the process that started them, however it ends (SIGTERM, SIGKILL, a crash):
each child is started with the parent-death signal set to SIGKILL (Linux `prctl`), so the kernel
kills it when its parent goes. Where the platform has no such signal, nothing is set and the Run's
own shutdown (stopping every child it started) is what remains."""

from __future__ import annotations

import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """A `preexec_fn`: in the forked child, ask for SIGKILL when the parent dies."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # in the child only: the parent never pays for it

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
