"""Sans-IO wire protocols: Content-Length framing (LSP, DAP, the kernel pipe), newline-delimited
JSON (``minitools serve`` and ``minitools mcp``), JSON-RPC 2.0 envelopes and a WebSocket client
(RFC 6455, for the V8 inspector).

Nothing here does I/O: a framer takes bytes with ``receive_data`` and hands back messages
with ``next_message`` (or the sentinel ``NEED_DATA``); ``encode_message`` gives bytes to send.
Errors say who is at fault: RemoteProtocolError (the peer) or LocalProtocolError (the caller).
"""

from __future__ import annotations

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

__all__ = [
    "ProtocolError",
    "RemoteProtocolError",
    "MalformedMessage",
    "LocalProtocolError",
    "NEED_DATA",
    "CLOSED",
    "Sentinel",
    "Framer",
    "LineFramer",
    "encode_message",
    "encode_line",
    "JSONRPCId",
    "Params",
    "Request",
    "Notification",
    "Response",
    "ErrorResponse",
    "Envelope",
    "parse_jsonrpc",
    "to_json",
    "PARSE_ERROR",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "INVALID_PARAMS",
    "INTERNAL_ERROR",
    "SERVER_NOT_INITIALIZED",
    "UNKNOWN_ERROR_CODE",
    "REQUEST_FAILED",
    "SERVER_CANCELLED",
    "CONTENT_MODIFIED",
    "REQUEST_CANCELLED",
    "WebSocketClient",
    "WebSocketState",
    "WebSocketEvent",
    "Accepted",
    "TextMessage",
    "BinaryMessage",
    "Ping",
    "Pong",
    "CloseReceived",
    "Opcode",
    "encode_frame",
    "accept_token",
]
