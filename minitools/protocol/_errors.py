"""Who is at fault: the peer (RemoteProtocolError) or the caller (LocalProtocolError)."""

from __future__ import annotations

__all__ = ["ProtocolError", "RemoteProtocolError", "MalformedMessage", "LocalProtocolError"]


class ProtocolError(Exception):
    """Base of the two protocol errors."""


class RemoteProtocolError(ProtocolError):
    """The peer sent something that is not the protocol. The message names the peer."""

    def __init__(self, message: str, *, peer: str = "peer") -> None:
        super().__init__(f"{peer}: {message}")
        self.peer = peer
        self.reason = message


class MalformedMessage(RemoteProtocolError):
    """One message the peer sent is not a JSON object, but the framing is intact: the bad
    message was consumed and the next one can be read. `code` is the JSON-RPC error code a
    server answers it with (-32700 not JSON, -32600 JSON but not an object); `request_id` the
    id of the request it was, when that could still be read (JSON nested too deeply to parse)."""

    def __init__(self, message: str, *, peer: str = "peer", code: int = -32700, request_id: int | str | None = None) -> None:
        super().__init__(message, peer=peer)
        self.code = code
        self.request_id = request_id


class LocalProtocolError(ProtocolError):
    """We misused the API: fed data after EOF, encoded something that is not a message."""
