"""Sans-IO wire protocols: Content-Length framing (LSP, DAP, the kernel pipe), newline-delimited
JSON (``minitools serve`` and ``minitools mcp``), JSON-RPC 2.0 envelopes and a WebSocket client
(RFC 6455, for the V8 inspector).

Nothing here does I/O: a framer takes bytes with ``receive_data`` and hands back messages
with ``next_message`` (or the sentinel ``NEED_DATA``); ``encode_message`` gives bytes to send.
Errors say who is at fault: RemoteProtocolError (the peer) or LocalProtocolError (the caller).
"""

from __future__ import annotations

from minitools.protocol import _errors, _framing, _jsonrpc, _sentinels, _websocket
from minitools.protocol._errors import LocalProtocolError, MalformedMessage, ProtocolError, RemoteProtocolError
from minitools.protocol._framing import Framer, LineFramer, encode_line, encode_message
from minitools.protocol._handshake import accept_token
from minitools.protocol._jsonrpc import (
    CONTENT_MODIFIED,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    REQUEST_FAILED,
    SERVER_CANCELLED,
    SERVER_NOT_INITIALIZED,
    UNKNOWN_ERROR_CODE,
    Envelope,
    ErrorResponse,
    JSONRPCId,
    Notification,
    Params,
    Request,
    Response,
    parse_jsonrpc,
    to_json,
)
from minitools.protocol._sentinels import CLOSED, NEED_DATA, Sentinel
from minitools.protocol._websocket import (
    Accepted,
    BinaryMessage,
    CloseReceived,
    Opcode,
    Ping,
    Pong,
    TextMessage,
    WebSocketClient,
    WebSocketEvent,
    WebSocketState,
    encode_frame,
)

# the package exports what its modules export, and the handshake's server-side token
__all__ = ["accept_token"]
__all__ += _errors.__all__ + _sentinels.__all__ + _framing.__all__ + _jsonrpc.__all__ + _websocket.__all__
