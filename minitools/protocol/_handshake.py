"""The WebSocket opening handshake, client side (RFC 6455, section 4). Sans-IO.

The request is an HTTP/1.1 GET with ``Upgrade: websocket``, ``Connection: Upgrade``, a random
16-byte ``Sec-WebSocket-Key`` (base64) and ``Sec-WebSocket-Version: 13``. The server accepts
with ``101`` whose ``Sec-WebSocket-Accept`` is base64(SHA-1(key + the RFC's GUID)); anything
else fails the connection (section 4.1, the client's checks 1 to 6). No extension and no
subprotocol is offered, so a response that names one is refused too.
"""

from __future__ import annotations

import base64
import hashlib

from minitools.protocol._errors import LocalProtocolError, RemoteProtocolError

__all__ = ["handshake_request", "accept_token", "check_handshake_response"]

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def accept_token(key: bytes) -> str:
    """The ``Sec-WebSocket-Accept`` value a server must answer the base64 `key` with."""
    return base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode("ascii")


def handshake_request(host: str, path: str, key: bytes) -> bytes:
    """The opening GET for `host` (``name:port``) and `path`; `key` is the base64 of 16 random bytes."""
    if not path.startswith("/") or any(c in path for c in " \r\n") or any(c in host for c in " /\r\n"):
        raise LocalProtocolError(f"not a WebSocket target: host {host!r}, path {path!r}")
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key.decode('ascii')}",
        "Sec-WebSocket-Version: 13",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def check_handshake_response(block: bytes, key: bytes, peer: str) -> dict[str, str]:
    """The response's headers (lower-case names) when `block` (the bytes before the empty line)
    accepts the handshake for `key`; RemoteProtocolError quoting what is wrong otherwise."""
    try:
        text = block.decode("ascii")
    except UnicodeDecodeError:
        raise RemoteProtocolError(f"handshake response is not ASCII: it began {block[:80]!r}", peer=peer) from None
    status, *lines = text.split("\r\n")
    parts = status.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1."):
        raise RemoteProtocolError(f"handshake response is not HTTP: {status[:80]!r}", peer=peer)
    if parts[1] != "101":
        raise RemoteProtocolError(f"refused the WebSocket handshake: {status[:120]!r} (101 Switching Protocols expected)", peer=peer)
    headers: dict[str, str] = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise RemoteProtocolError(f"malformed header line in the handshake response: {line[:80]!r}", peer=peer)
        name = name.lower()
        headers[name] = f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
    if headers.get("upgrade", "").lower() != "websocket":
        raise RemoteProtocolError(f"handshake response has Upgrade {headers.get('upgrade')!r}, not 'websocket'", peer=peer)
    if "upgrade" not in {token.strip().lower() for token in headers.get("connection", "").split(",")}:
        raise RemoteProtocolError(f"handshake response has Connection {headers.get('connection')!r}, not 'Upgrade'", peer=peer)
    expected = accept_token(key)
    if headers.get("sec-websocket-accept") != expected:
        raise RemoteProtocolError(
            f"handshake response has Sec-WebSocket-Accept {headers.get('sec-websocket-accept')!r}, expected {expected!r}", peer=peer)
    for name in ("sec-websocket-extensions", "sec-websocket-protocol"):
        if headers.get(name):
            raise RemoteProtocolError(f"handshake response names {name} {headers[name][:80]!r}, which was not offered", peer=peer)
    return headers
