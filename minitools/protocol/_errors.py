"""Who is at fault: the peer (RemoteProtocolError) or the caller (LocalProtocolError)."""

from __future__ import annotations

__all__ = ["ProtocolError", "RemoteProtocolError", "LocalProtocolError"]


class ProtocolError(Exception):
    """Base of the two protocol errors."""


class RemoteProtocolError(ProtocolError):
    """The peer sent something that is not the protocol. The message names the peer."""

    def __init__(self, message: str, *, peer: str = "peer") -> None:
        super().__init__(f"{peer}: {message}")
        self.peer = peer
        self.reason = message


class LocalProtocolError(ProtocolError):
    """We misused the API: fed data after EOF, encoded something that is not a message."""
