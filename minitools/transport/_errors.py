"""Transport errors: the other end went away."""

from __future__ import annotations

__all__ = ["ConnectionClosed", "ChildExited"]


class ConnectionClosed(Exception):
    """The stream closed (EOF, or the peer broke the protocol); pending waiters fail with this."""

    def __init__(self, message: str, *, peer: str = "peer") -> None:
        super().__init__(message)
        self.peer = peer


class ChildExited(ConnectionClosed):
    """The child process behind a connection exited; carries its exit code and stderr tail."""

    def __init__(self, peer: str, returncode: int | None, stderr_tail: str = "", *, during: str = "") -> None:
        how = "is gone" if returncode is None else (
            f"was killed by signal {-returncode}" if returncode < 0 else f"exited with code {returncode}"
        )
        message = f"{peer} {how}" + (f" during {during}" if during else "")
        if stderr_tail:
            message += f"; its stderr ended with:\n{stderr_tail}"
        super().__init__(message, peer=peer)
        self.returncode = returncode
        self.stderr_tail = stderr_tail
