"""JSON-RPC 2.0 envelopes: classification, round trip, and refusals that say what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitools.protocol as protocol
from minitools.protocol import (
    ErrorResponse,
    LocalProtocolError,
    Notification,
    RemoteProtocolError,
    Request,
    Response,
    parse_jsonrpc,
    to_json,
)


@pytest.mark.parametrize(
    "envelope",
    [
        Request(1, "initialize", {"processId": None}),
        Request("a", "shutdown"),
        Notification("exit"),
        Notification("$/progress", [1, 2]),
        Response(3, None),
        Response("x", {"capabilities": {}}),
        ErrorResponse(4, -32601, "nope"),
        ErrorResponse(None, -32700, "parse error", {"detail": 1}),
    ],
)
def test_round_trip(envelope: protocol.Envelope) -> None:
    assert parse_jsonrpc(to_json(envelope)) == envelope


@pytest.mark.parametrize(
    "obj, match",
    [
        ({"id": 1, "method": "x"}, '"jsonrpc" is not "2.0"'),
        ({"jsonrpc": "2.0", "id": True, "method": "x"}, '"id"'),
        ({"jsonrpc": "2.0", "id": 1, "method": 5}, '"method"'),
        ({"jsonrpc": "2.0", "method": "x", "params": 3}, '"params"'),
        ({"jsonrpc": "2.0", "id": 1}, "exactly one"),
        ({"jsonrpc": "2.0", "id": 1, "result": 1, "error": {}}, "exactly one"),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}}, "error.code"),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": 1}}, "error.message"),
        ({"jsonrpc": "2.0", "id": None, "result": 1}, "response"),
    ],
)
def test_bad_envelopes_are_the_peers_fault(obj: dict[str, object], match: str) -> None:
    with pytest.raises(RemoteProtocolError, match=match):
        parse_jsonrpc(obj, peer="tsserver")


def test_constructing_a_bad_envelope_is_our_fault() -> None:
    with pytest.raises(LocalProtocolError):
        Request(None, "x")  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        Notification("x", 5)  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        ErrorResponse(1, "bad", "m")  # type: ignore[arg-type]


def test_error_codes() -> None:
    assert (protocol.PARSE_ERROR, protocol.INVALID_REQUEST, protocol.METHOD_NOT_FOUND, protocol.INVALID_PARAMS,
            protocol.INTERNAL_ERROR) == (-32700, -32600, -32601, -32602, -32603)
    assert (protocol.SERVER_NOT_INITIALIZED, protocol.REQUEST_CANCELLED, protocol.CONTENT_MODIFIED) == (-32002, -32800, -32801)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["jsonrpc", "id", "method", "params", "result", "error"]),
                       st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.just("2.0")
                       | st.dictionaries(st.sampled_from(["code", "message", "data"]), st.integers() | st.text(max_size=3)),
                       max_size=6))
def test_any_object_classifies_or_raises_remote_protocol_error(obj: dict[str, object]) -> None:
    try:
        envelope = parse_jsonrpc(obj)
    except RemoteProtocolError:
        return
    assert isinstance(envelope, (Request, Notification, Response, ErrorResponse))


def test_public_surface() -> None:
    assert {"Framer", "LineFramer", "NEED_DATA", "CLOSED", "encode_message", "parse_jsonrpc", "to_json", "Request",
            "Notification", "Response", "ErrorResponse", "RemoteProtocolError", "LocalProtocolError"} <= set(protocol.__all__)


def test_protocol_does_no_io() -> None:
    import ast
    from pathlib import Path

    for path in Path(protocol.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                top = name.split(".")[0]
                assert top not in {"asyncio", "subprocess", "os", "threading", "socket"}, f"{path.name} imports {name}"
                # base64, hashlib and collections.abc: the WebSocket handshake's computation and a type
                assert top in {"__future__", "json", "re", "enum", "dataclasses", "typing", "base64", "hashlib", "collections", "minitools"}, \
                    f"{path.name} imports {name}"
