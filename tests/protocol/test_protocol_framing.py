"""The Content-Length framer: whole, byte by byte, any split, garbage, limits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.protocol import (
    CLOSED,
    NEED_DATA,
    Framer,
    LineFramer,
    LocalProtocolError,
    MalformedMessage,
    RemoteProtocolError,
    encode_line,
    encode_message,
)

MESSAGES = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": "file:///tmp/x"}},
    {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": "file:///é", "diagnostics": []}},
    {"jsonrpc": "2.0", "id": 1, "result": {"text": "héllo😀 \r\n\r\nContent-Length: 3"}},
]


def drain(framer: Framer | LineFramer) -> list[object]:
    out = []
    while (message := framer.next_message()) is not NEED_DATA and message is not CLOSED:
        out.append(message)
    return out


def test_whole_stream_gives_every_message() -> None:
    framer = Framer("srv")
    framer.receive_data(b"".join(encode_message(m) for m in MESSAGES))
    assert drain(framer) == MESSAGES
    assert framer.buffered == 0


def test_one_byte_at_a_time() -> None:
    framer = Framer("srv")
    data = b"".join(encode_message(m) for m in MESSAGES)
    got = []
    for i in range(len(data)):
        framer.receive_data(data[i : i + 1])
        got.extend(drain(framer))
    assert got == MESSAGES


def test_length_counts_utf8_bytes_not_characters() -> None:
    body = json.dumps({"s": "😀é"}, ensure_ascii=False).encode()
    framer = Framer()
    framer.receive_data(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert framer.next_message() == {"s": "😀é"}


def test_headers_in_any_order_and_any_case() -> None:
    body = b'{"a":1}'
    framer = Framer()
    framer.receive_data(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 7\r\n\r\n" + body)
    assert framer.next_message() == {"a": 1}


def test_clean_eof_is_closed_and_eof_mid_message_is_the_peers_fault() -> None:
    framer = Framer("clangd")
    framer.receive_data(encode_message({"a": 1}))
    framer.receive_data(b"")
    assert framer.next_message() == {"a": 1}
    assert framer.next_message() is CLOSED
    framer = Framer("clangd")
    framer.receive_data(b"Content-Length: 10\r\n\r\n{}")
    framer.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match="clangd: stream ended in the middle"):
        framer.next_message()
    with pytest.raises(LocalProtocolError):
        framer.receive_data(b"x")


@pytest.mark.parametrize(
    "data, match",
    [
        (b"Content-Type: x\r\n\r\n{}", "no Content-Length"),
        (b"Content-Length: ten\r\n\r\n", "not a decimal number"),
        (b"Content-Length: -1\r\n\r\n", "not a decimal number"),
        (b"Content-Length: 99999999999\r\n\r\n", "exceeds the limit"),
        (b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two different"),
        (b"garbage\r\n\r\n", "malformed header line"),
        (b"Content-Length: 3\r\n\r\n[1]", "not an object"),
        (b"Content-Length: 3\r\n\r\n{x}", "not JSON"),
        (b"Content-Length: 2\r\n\r\n\xff\xfe", "not UTF-8"),
    ],
)
def test_bad_input_names_the_peer(data: bytes, match: str) -> None:
    framer = Framer("pylsp", max_body=1 << 20)
    framer.receive_data(data)
    with pytest.raises(RemoteProtocolError, match=match) as info:
        framer.next_message()
    assert info.value.peer == "pylsp" and str(info.value).startswith("pylsp: ")


def test_header_without_end_is_refused_once_past_the_limit() -> None:
    framer = Framer(max_header=64)
    framer.receive_data(b"X" * 60)
    assert framer.next_message() is NEED_DATA
    framer.receive_data(b"X" * 10)
    with pytest.raises(RemoteProtocolError, match="no end of header block"):
        framer.next_message()


def test_deep_nesting_is_a_protocol_error_not_a_recursion_error() -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    framer = Framer()
    framer.receive_data(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    with pytest.raises(RemoteProtocolError):
        framer.next_message()


def test_encode_refuses_what_is_not_a_message() -> None:
    with pytest.raises(LocalProtocolError):
        encode_message([1, 2])  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        encode_message({"x": float("nan")})
    with pytest.raises(LocalProtocolError):
        encode_message({"x": object()})


def test_line_framer_round_trip_and_last_line_without_newline() -> None:
    framer = LineFramer("host")
    framer.receive_data(b"".join(encode_line(m) for m in MESSAGES) + b"\n\n" + b'{"last": true}')
    framer.receive_data(b"")
    assert drain(framer) == MESSAGES + [{"last": True}]
    assert framer.next_message() is CLOSED


def test_line_framer_goes_on_after_a_malformed_line() -> None:
    framer = LineFramer("host")
    framer.receive_data(b'{not json\n[1, 2]\n{"ok": 1}\n')
    with pytest.raises(MalformedMessage) as not_json:
        framer.next_message()
    assert not_json.value.code == -32700 and "{not json" in str(not_json.value)
    with pytest.raises(MalformedMessage) as not_object:
        framer.next_message()
    assert not_object.value.code == -32600 and "list" in str(not_object.value)
    assert framer.next_message() == {"ok": 1}
    assert framer.next_message() is NEED_DATA


def test_line_framer_drops_an_overlong_line_and_reads_the_next() -> None:
    framer = LineFramer("host", max_line=16)
    framer.receive_data(b'{"a": "' + b"x" * 40)
    with pytest.raises(MalformedMessage) as too_long:
        framer.next_message()
    assert "longer than 16 bytes" in str(too_long.value)
    framer.receive_data(b"y" * 100)  # still the same line: dropped as it arrives
    assert framer.next_message() is NEED_DATA and framer.buffered == 0
    framer.receive_data(b'"}\n{"b": 2}\n')
    assert framer.next_message() == {"b": 2}
    framer.receive_data(b"")
    assert framer.next_message() is CLOSED


# Property tests ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
messages = st.lists(st.dictionaries(st.text(max_size=8), json_values, max_size=5), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(messages, st.data())
def test_any_split_gives_the_same_messages(msgs: list[dict[str, object]], data: st.DataObject) -> None:
    stream = b"".join(encode_message(m) for m in msgs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    framer = Framer()
    got: list[object] = []
    last = 0
    for cut in cuts + [len(stream)]:
        if cut > last:
            framer.receive_data(stream[last:cut])
        last = max(last, cut)
        got.extend(drain(framer))
    framer.receive_data(b"")
    assert framer.next_message() is CLOSED
    assert got == msgs


garbage = st.one_of(
    st.binary(max_size=300),
    st.lists(
        st.sampled_from([b"Content-Length: ", b"content-length:", b"12", b"-3", b"\r\n", b"\r\n\r\n", b"{", b"}", b'"a"',
                         b":", b"[", b"]", b"\xff", b"Content-Type: x", b"0", b"99999999999999999999999", b" "]),
        max_size=40,
    ).map(b"".join),
)


@settings(max_examples=500, deadline=None)
@given(garbage, st.integers(1, 50))
def test_garbage_parses_or_raises_remote_protocol_error_only(data: bytes, chunk: int) -> None:
    framer = Framer("fuzz", max_body=4096, max_header=256)
    try:
        for i in range(0, len(data), chunk):
            framer.receive_data(data[i : i + chunk])
            while (message := framer.next_message()) is not NEED_DATA:
                assert isinstance(message, dict)
            # bounded memory: an incomplete message never holds more than the two limits
            assert framer.buffered <= 256 + 4 + 4096 + chunk
        framer.receive_data(b"")
        while (message := framer.next_message()) is not CLOSED:
            assert isinstance(message, dict)
    except RemoteProtocolError as exc:
        assert exc.peer == "fuzz"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_line_framer_garbage_parses_or_raises_remote_protocol_error_only(data: bytes) -> None:
    framer = LineFramer("fuzz", max_line=128)
    try:
        if data:
            framer.receive_data(data)
        framer.receive_data(b"")
        while (message := framer.next_message()) is not CLOSED:
            assert isinstance(message, dict)
    except RemoteProtocolError:
        pass


@pytest.mark.parametrize("encode", [encode_message, encode_line])
def test_a_lone_surrogate_is_written_as_an_escape_and_reads_back_the_same(encode: Any) -> None:
    # a file name that is not UTF-8 (read with surrogateescape) or text user code printed
    message = {"text": "a\udcff.py: ok \ud800 é"}
    data = encode(message)
    data.decode("utf-8")  # the bytes are UTF-8
    framer = Framer() if encode is encode_message else LineFramer()
    framer.receive_data(data)
    assert framer.next_message() == message


@pytest.mark.parametrize("body, request_id", [
    ('{"jsonrpc": "2.0", "id": 7, "params": ' + "[" * 5000 + "]" * 5000 + "}", 7),
    ('{"params": {"id": 1, "x": ' + "[" * 5000 + '"id"' + "]" * 5000 + '}, "s": "\\"id\\"", "id" : "r-2"}', "r-2"),
    ('{"params": ' + "[" * 5000 + "]" * 5000 + "}", None),  # a notification: no id
    ('{"id": 1.5, "params": ' + "[" * 5000 + "]" * 5000 + "}", None),  # no usable id
    ('{"id": ' + "9" * 400 + ', "params": ' + "[" * 5000 + "]" * 5000 + "}", None),  # no usable id
])
def test_a_message_too_deep_to_read_keeps_its_id(body: str, request_id: Any) -> None:
    framer = LineFramer("host")
    framer.receive_data(body.encode() + b"\n")
    with pytest.raises(MalformedMessage, match="nests too deeply") as info:
        framer.next_message()
    assert info.value.request_id == request_id


def test_an_overlong_line_keeps_its_id_when_the_id_comes_first() -> None:
    framer = LineFramer("host", max_line=1000)
    framer.receive_data(b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"code": "' + b"x" * 2000)
    with pytest.raises(MalformedMessage, match="line longer than 1000 bytes") as info:
        framer.next_message()
    assert info.value.request_id == 12
    framer.receive_data(b'"}}\n{"jsonrpc": "2.0", "params": {"code": "' + b"y" * 2000)
    with pytest.raises(MalformedMessage) as late:  # the id after the long part: not known
        framer.next_message()
    assert late.value.request_id is None
