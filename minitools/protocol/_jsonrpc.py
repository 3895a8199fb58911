"""JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification), as frozen dataclasses.

`parse_jsonrpc` turns a decoded JSON object into exactly one of `Request`, `Notification`,
`Response`, `ErrorResponse`, or raises RemoteProtocolError naming what is wrong. `to_json`
is the inverse. Constructing an envelope by hand validates it (LocalProtocolError).
Batches are not supported: neither LSP nor ``minitools serve`` uses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from minitools.protocol._errors import LocalProtocolError, RemoteProtocolError

__all__ = [
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
]

# Union, not X | Y: the eval kernel's worker imports this package on the project's own
# interpreter, which may predate Python 3.10
JSONRPCId = Union[int, str]  # noqa: UP007
Params = Union[dict[str, Any], list[Any], None]  # noqa: UP007

# JSON-RPC 2.0, section 5.1
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# LSP 3.17, "ErrorCodes" and "LSPErrorCodes"
SERVER_NOT_INITIALIZED = -32002
UNKNOWN_ERROR_CODE = -32001
REQUEST_FAILED = -32803
SERVER_CANCELLED = -32802
CONTENT_MODIFIED = -32801
REQUEST_CANCELLED = -32800


def _check_id(value: Any, *, allow_null: bool = False) -> bool:
    # bool is an int subclass in Python but not a JSON-RPC id
    if value is None:
        return allow_null
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _check_params(value: Any) -> bool:
    return value is None or isinstance(value, (dict, list))


@dataclass(frozen=True)
class Request:
    """A call that expects a response with the same `id`."""

    id: JSONRPCId
    method: str
    params: Params = None

    def __post_init__(self) -> None:
        if not _check_id(self.id):
            raise LocalProtocolError(f"request id must be an int or a string, got {self.id!r}")
        _check_call(self.method, self.params)


def _check_call(method: Any, params: Any) -> None:
    """A request's or notification's method and params, as JSON-RPC allows them."""
    if not isinstance(method, str):
        raise LocalProtocolError(f"method must be a string, got {method!r}")
    if not _check_params(params):
        raise LocalProtocolError(f"params must be an object, an array or absent, got {type(params).__name__}")


@dataclass(frozen=True)
class Notification:
    """A call that gets no response."""

    method: str
    params: Params = None

    def __post_init__(self) -> None:
        _check_call(self.method, self.params)


@dataclass(frozen=True)
class Response:
    """A successful answer; `result` may be any JSON value, null included."""

    id: JSONRPCId
    result: Any = None

    def __post_init__(self) -> None:
        if not _check_id(self.id):
            raise LocalProtocolError(f"response id must be an int or a string, got {self.id!r}")


@dataclass(frozen=True)
class ErrorResponse:
    """A failed answer. `id` is None only when the request's id could not be read."""

    id: JSONRPCId | None
    code: int
    message: str
    data: Any = None

    def __post_init__(self) -> None:
        if not _check_id(self.id, allow_null=True):
            raise LocalProtocolError(f"error response id must be an int, a string or null, got {self.id!r}")
        if not isinstance(self.code, int) or isinstance(self.code, bool):
            raise LocalProtocolError(f"error code must be an int, got {self.code!r}")
        if not isinstance(self.message, str):
            raise LocalProtocolError(f"error message must be a string, got {self.message!r}")


Envelope = Union[Request, Notification, Response, ErrorResponse]  # noqa: UP007 - see JSONRPCId


def parse_jsonrpc(obj: Any, *, peer: str = "peer") -> Envelope:
    """Classify a decoded JSON object as a JSON-RPC 2.0 envelope; RemoteProtocolError if it is none."""

    def bad(why: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"not a JSON-RPC 2.0 message ({why}): {str(obj)[:120]}", peer=peer)

    if not isinstance(obj, dict):
        raise bad(f"a {type(obj).__name__}, not an object")
    if obj.get("jsonrpc") != "2.0":
        raise bad('"jsonrpc" is not "2.0"')
    if "method" in obj:
        method = obj["method"]
        params = obj.get("params")
        if not isinstance(method, str):
            raise bad('"method" is not a string')
        if not _check_params(params):
            raise bad('"params" is neither an object nor an array')
        if "id" not in obj:
            return Notification(method, params)
        if not _check_id(obj["id"]):
            raise bad('"id" is neither an int nor a string')
        return Request(obj["id"], method, params)
    has_result, has_error = "result" in obj, "error" in obj
    if has_result == has_error:
        raise bad('a response needs exactly one of "result" and "error"')
    if has_result:
        if not _check_id(obj.get("id")):
            raise bad('response "id" is neither an int nor a string')
        return Response(obj["id"], obj["result"])
    error = obj["error"]
    if not isinstance(error, dict):
        raise bad('"error" is not an object')
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, int) or isinstance(code, bool):
        raise bad('"error.code" is not an integer')
    if not isinstance(message, str):
        raise bad('"error.message" is not a string')
    if not _check_id(obj.get("id"), allow_null=True):
        raise bad('error response "id" is neither an int, a string nor null')
    return ErrorResponse(obj.get("id"), code, message, error.get("data"))


def to_json(envelope: Envelope) -> dict[str, Any]:
    """The envelope as a JSON object ready for a framer."""
    if isinstance(envelope, Request):
        out: dict[str, Any] = {"jsonrpc": "2.0", "id": envelope.id, "method": envelope.method}
        if envelope.params is not None:
            out["params"] = envelope.params
        return out
    if isinstance(envelope, Notification):
        out = {"jsonrpc": "2.0", "method": envelope.method}
        if envelope.params is not None:
            out["params"] = envelope.params
        return out
    if isinstance(envelope, Response):
        return {"jsonrpc": "2.0", "id": envelope.id, "result": envelope.result}
    if isinstance(envelope, ErrorResponse):
        error: dict[str, Any] = {"code": envelope.code, "message": envelope.message}
        if envelope.data is not None:
            error["data"] = envelope.data
        return {"jsonrpc": "2.0", "id": envelope.id, "error": error}
    raise LocalProtocolError(f"not a JSON-RPC envelope: {envelope!r}")
