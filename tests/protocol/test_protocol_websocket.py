"""The WebSocket client: the handshake, frames whole, byte by byte and with trailing garbage,
what it sends, what a bad peer gets, and the fuzz invariant."""

from __future__ import annotations

import base64
import hashlib
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.protocol import (
    CLOSED,
    NEED_DATA,
    Accepted,
    BinaryMessage,
    CloseReceived,
    LocalProtocolError,
    Opcode,
    Ping,
    Pong,
    RemoteProtocolError,
    TextMessage,
    WebSocketClient,
    WebSocketState,
    accept_token,
    encode_frame,
)

KEY = b"dGhlIHNhbXBsZSBub25jZQ=="  # the sample nonce of RFC 6455 section 1.3
MASK = b"\x37\xfa\x21\x3d"


def response(key: bytes = KEY, *, status: str = "101 Switching Protocols", extra: str = "", accept: str | None = None) -> bytes:
    accept = accept if accept is not None else base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()).decode()
    return (f"HTTP/1.1 {status}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n{extra}\r\n").encode()


def client(**kw: object) -> WebSocketClient:
    ws = WebSocketClient("127.0.0.1:9229", "/abc", random_bytes=lambda n: MASK[:n], peer="node", key=KEY, **kw)  # type: ignore[arg-type]
    ws.initiate()
    return ws


def opened(**kw: object) -> WebSocketClient:
    ws = client(**kw)
    ws.receive_data(response())
    assert isinstance(ws.next_event(), Accepted)
    return ws


def events(ws: WebSocketClient) -> list[object]:
    out: list[object] = []
    while (event := ws.next_event()) is not NEED_DATA and event is not CLOSED:
        out.append(event)
    return out


def client_frames(data: bytes) -> list[tuple[bool, int, bytes]]:
    """What a server reads from our bytes: (FIN, opcode, unmasked payload), each frame masked."""
    frames = []
    while data:
        fin, opcode, n = bool(data[0] & 0x80), data[0] & 0x0F, data[1] & 0x7F
        assert data[1] & 0x80, "a client frame is masked"
        at = 2
        if n == 126:
            n, at = int.from_bytes(data[2:4], "big"), 4
        elif n == 127:
            n, at = int.from_bytes(data[2:10], "big"), 10
        key, body = data[at : at + 4], data[at + 4 : at + 4 + n]
        frames.append((fin, opcode, bytes(b ^ key[i % 4] for i, b in enumerate(body))))
        data = data[at + 4 + n :]
    return frames


# A server's stream: a text, a binary, a text in three fragments with a ping among them, a pong, a close.
STREAM = (
    response()
    + encode_frame(Opcode.TEXT, '{"id":1,"result":{}} é😀'.encode())
    + encode_frame(Opcode.BINARY, bytes(range(256)) * 300)
    + encode_frame(Opcode.TEXT, b"frag", fin=False)
    + encode_frame(Opcode.PING, b"are you there")
    + encode_frame(Opcode.CONTINUATION, b"ment", fin=False)
    + encode_frame(Opcode.CONTINUATION, b"ed", fin=True)
    + encode_frame(Opcode.PONG, b"")
    + encode_frame(Opcode.CLOSE, (1001).to_bytes(2, "big") + "going away ✓".encode())
)
EXPECTED = [
    TextMessage('{"id":1,"result":{}} é😀'),
    BinaryMessage(bytes(range(256)) * 300),
    Ping(b"are you there"),
    TextMessage("fragmented"),
    Pong(b""),
    CloseReceived(1001, "going away ✓"),
]


def test_handshake_request_and_the_rfc_sample_accept() -> None:
    ws = WebSocketClient("127.0.0.1:9229", "/abc?x=1", random_bytes=secrets.token_bytes, key=KEY)
    request = ws.initiate().decode()
    assert request.startswith("GET /abc?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9229\r\n") and request.endswith("\r\n\r\n")
    for line in ("Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {KEY.decode()}", "Sec-WebSocket-Version: 13"):
        assert line in request.split("\r\n")
    assert accept_token(KEY) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert len(base64.b64decode(WebSocketClient("h:1", random_bytes=secrets.token_bytes).key)) == 16


def test_whole_stream_gives_every_event_and_the_replies() -> None:
    ws = client()
    ws.receive_data(STREAM)
    first = ws.next_event()
    assert isinstance(first, Accepted) and first.headers["upgrade"] == "websocket"
    assert events(ws) == EXPECTED
    assert ws.state is WebSocketState.CLOSED and ws.close_code == 1001
    # the pong carries the ping's payload; the close echoes the peer's code
    assert client_frames(ws.data_to_send()) == [(True, Opcode.PONG, b"are you there"), (True, Opcode.CLOSE, (1001).to_bytes(2, "big"))]
    assert ws.next_event() is CLOSED


def test_one_byte_at_a_time() -> None:
    ws = client()
    got: list[object] = []
    for i in range(len(STREAM)):
        ws.receive_data(STREAM[i : i + 1])
        got.extend(events(ws))
    assert got[1:] == EXPECTED and isinstance(got[0], Accepted)
    assert ws.buffered == 0


def test_frames_that_come_with_the_handshake_answer_are_read() -> None:
    ws = client()
    ws.receive_data(response() + encode_frame(Opcode.TEXT, b"hi"))
    assert isinstance(ws.next_event(), Accepted)
    assert ws.next_event() == TextMessage("hi")


def test_trailing_garbage_after_messages_is_the_peers_fault_and_after_close_is_ignored() -> None:
    ws = opened()
    ws.receive_data(encode_frame(Opcode.TEXT, b"one") + b"\x83\x00garbage")
    assert ws.next_event() == TextMessage("one")
    with pytest.raises(RemoteProtocolError, match="node: sent a frame with reserved opcode 0x3"):
        ws.next_event()
    ws = opened()
    ws.receive_data(encode_frame(Opcode.CLOSE, b"") + b"\xff\xffgarbage")
    assert ws.next_event() == CloseReceived(None)
    ws.receive_data(b"more garbage")
    assert ws.next_event() is CLOSED and ws.buffered == 0


def test_end_of_stream_between_messages_is_closed_and_inside_one_the_peers_fault() -> None:
    ws = opened()
    ws.receive_data(encode_frame(Opcode.TEXT, b"last"))
    ws.receive_data(b"")
    assert ws.next_event() == TextMessage("last")
    assert ws.next_event() is CLOSED and ws.close_code is None
    ws = opened()
    ws.receive_data(encode_frame(Opcode.TEXT, b"x" * 300)[:100])
    ws.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match=r"closed the connection in the middle of a message \(100 bytes of a frame received\)"):
        ws.next_event()
    ws = opened()
    ws.receive_data(encode_frame(Opcode.BINARY, b"abc", fin=False))
    ws.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match="3 bytes of an unfinished message"):
        ws.next_event()
    with pytest.raises(LocalProtocolError):
        ws.receive_data(b"x")


@pytest.mark.parametrize(
    "answer, match",
    [
        (response(status="200 OK"), "refused the WebSocket handshake: 'HTTP/1.1 200 OK'"),
        (response(status="404 Not Found"), "404 Not Found"),
        (response(accept="d3Jvbmc="), "Sec-WebSocket-Accept 'd3Jvbmc=', expected 's3pPLMBiTxaQ9kYGzzhZRbK\\+xOo='"),
        (response().replace(b"Upgrade: websocket", b"Upgrade: h2c"), "Upgrade 'h2c'"),
        (response().replace(b"Connection: Upgrade", b"Connection: keep-alive"), "Connection 'keep-alive'"),
        (response(extra="Sec-WebSocket-Extensions: permessage-deflate\r\n"), "sec-websocket-extensions 'permessage-deflate'"),
        (response(extra="Sec-WebSocket-Protocol: chat\r\n"), "not offered"),
        (b"SSH-2.0-OpenSSH\r\n\r\n", "not HTTP"),
        (response(extra="no colon here\r\n"), "malformed header line"),
        (b"HTTP/1.1 101 \xff\r\n\r\n", "not ASCII"),
        (b"HTTP/1.1 101 Switching\r\n" + b"X-Pad: " + b"a" * 9000, "no end of the handshake response within 8192 bytes"),
    ],
)
def test_a_bad_handshake_answer_quotes_it(answer: bytes, match: str) -> None:
    ws = client()
    ws.receive_data(answer)
    with pytest.raises(RemoteProtocolError, match=match) as info:
        ws.next_event()
    assert str(info.value).startswith("node: ") and ws.state is WebSocketState.FAILED


def test_a_server_that_closes_before_answering() -> None:
    ws = client()
    ws.receive_data(b"HTTP/1.1 101")
    assert ws.next_event() is NEED_DATA
    ws.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match=r"closed the connection before answering the WebSocket handshake \(12 bytes received"):
        ws.next_event()


@pytest.mark.parametrize(
    "frames, match, code",
    [
        (encode_frame(Opcode.TEXT, b"hi", mask=MASK), "sent a masked frame", 1002),
        (encode_frame(Opcode.TEXT, b"hi", rsv=0x40), "reserved bits 0x40", 1002),
        (encode_frame(0xB, b""), "reserved opcode 0xb", 1002),
        (encode_frame(Opcode.PING, b"x" * 126), "ping frame of 126 bytes; a control frame holds at most 125", 1002),
        (encode_frame(Opcode.PING, b"x", fin=False), "fragmented ping frame", 1002),
        (bytes([0x82, 127]) + (1 << 63).to_bytes(8, "big"), "top bit set", 1002),
        (bytes([0x82, 127]) + ((1 << 63) - 1).to_bytes(8, "big"), "binary message of 9223372036854775807 bytes, over the limit of 1024", 1009),
        (encode_frame(Opcode.TEXT, b"a" * 1000, fin=False) + bytes([0x80, 126]) + (100).to_bytes(2, "big"),
         "text message of 1000 \\+ 100 bytes, over the limit of 1024", 1009),
        (encode_frame(Opcode.CONTINUATION, b"x"), "continuation frame with no message begun", 1002),
        (encode_frame(Opcode.TEXT, b"a", fin=False) + encode_frame(Opcode.BINARY, b"b"), "began a new binary message before finishing", 1002),
        (encode_frame(Opcode.TEXT, b"\xc3\x28ok"), "text message that is not UTF-8", 1007),
        (encode_frame(Opcode.CLOSE, b"\x03"), "close frame of 1 byte", 1002),
        (encode_frame(Opcode.CLOSE, (1005).to_bytes(2, "big")), "close code 1005", 1002),
        (encode_frame(Opcode.CLOSE, (1000).to_bytes(2, "big") + b"\xff"), "close reason that is not UTF-8", 1007),
    ],
)
def test_a_bad_frame_names_what_the_peer_sent(frames: bytes, match: str, code: int) -> None:
    ws = opened(max_message=1024)
    ws.receive_data(frames)
    with pytest.raises(RemoteProtocolError, match=match) as info:
        ws.next_event()
    assert info.value.peer == "node" and ws.fail_code == code
    assert client_frames(ws.send_close(ws.fail_code)) == [(True, Opcode.CLOSE, code.to_bytes(2, "big"))]
    with pytest.raises(LocalProtocolError):
        ws.next_event()


def test_an_oversized_message_is_refused_from_its_header_before_its_payload() -> None:
    ws = opened(max_message=1 << 20)
    ws.receive_data(bytes([0x81, 127]) + (1 << 40).to_bytes(8, "big"))
    with pytest.raises(RemoteProtocolError, match="over the limit"):
        ws.next_event()


def test_what_the_client_sends_is_masked_and_framed() -> None:
    ws = opened()
    for size in (0, 125, 126, 65535, 65536):
        sent = ws.send_binary(b"z" * size)
        assert client_frames(sent) == [(True, Opcode.BINARY, b"z" * size)]
    assert client_frames(ws.send_text("héllo", fragment=2)) == [
        (False, Opcode.TEXT, b"h\xc3"), (False, Opcode.CONTINUATION, b"\xa9l"), (True, Opcode.CONTINUATION, b"lo")]
    assert client_frames(ws.send_text("")) == [(True, Opcode.TEXT, b"")]
    assert client_frames(ws.send_ping(b"p")) == [(True, Opcode.PING, b"p")]
    assert client_frames(ws.send_close(1000, "bye")) == [(True, Opcode.CLOSE, b"\x03\xe8bye")]
    assert ws.state is WebSocketState.CLOSING
    # the peer's answer to our close is not echoed again
    ws.receive_data(encode_frame(Opcode.CLOSE, b"\x03\xe8"))
    assert ws.next_event() == CloseReceived(1000) and ws.data_to_send() == b""


def test_local_misuse_is_a_local_error() -> None:
    ws = client()
    with pytest.raises(LocalProtocolError, match="before the handshake completes"):
        ws.send_text("early")
    ws = opened()
    with pytest.raises(LocalProtocolError, match="at most 125"):
        ws.send_ping(b"x" * 126)
    with pytest.raises(LocalProtocolError, match="1005 is not a close code"):
        ws.send_close(1005)
    with pytest.raises(LocalProtocolError, match="at least 1 byte"):
        ws.send_text("x", fragment=0)
    ws.send_close()
    with pytest.raises(LocalProtocolError, match="the connection is closing"):
        ws.send_text("late")
    with pytest.raises(LocalProtocolError, match="already sent"):
        ws.send_close()
    with pytest.raises(LocalProtocolError):
        WebSocketClient("h:1", "no-slash", random_bytes=secrets.token_bytes).initiate()


# Property tests ---------------------------------------------------------------------

server_events = st.lists(
    st.one_of(
        st.text(max_size=40).map(TextMessage),
        st.binary(max_size=300).map(BinaryMessage),
        st.binary(max_size=125).map(Ping),
        st.binary(max_size=125).map(Pong),
    ),
    max_size=8,
)


def server_stream(items: list[TextMessage | BinaryMessage | Ping | Pong], fragment: int) -> bytes:
    out = bytearray(response())
    for item in items:
        if isinstance(item, Ping | Pong):
            out += encode_frame(Opcode.PING if isinstance(item, Ping) else Opcode.PONG, item.payload)
            continue
        data, opcode = (item.text.encode(), Opcode.TEXT) if isinstance(item, TextMessage) else (item.data, Opcode.BINARY)
        chunks = [data[i : i + fragment] for i in range(0, len(data), fragment)] or [b""]
        for i, chunk in enumerate(chunks):
            out += encode_frame(opcode if i == 0 else Opcode.CONTINUATION, chunk, fin=i == len(chunks) - 1)
    return bytes(out)


@settings(max_examples=300, deadline=None)
@given(server_events, st.integers(1, 50), st.data())
def test_any_split_gives_the_same_events(items: list[TextMessage | BinaryMessage | Ping | Pong], fragment: int,
                                         data: st.DataObject) -> None:
    stream = server_stream(items, fragment)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    ws = client()
    got: list[object] = []
    last = 0
    for cut in cuts + [len(stream)]:
        if cut > last:
            ws.receive_data(stream[last:cut])
        last = max(last, cut)
        got.extend(events(ws))
    ws.receive_data(b"")
    assert ws.next_event() is CLOSED
    assert isinstance(got[0], Accepted) and got[1:] == items
    pongs = [payload for fin, opcode, payload in client_frames(ws.data_to_send()) if opcode == Opcode.PONG]
    assert pongs == [item.payload for item in items if isinstance(item, Ping)]


garbage = st.one_of(
    st.binary(max_size=300),
    st.lists(
        st.sampled_from([
            encode_frame(Opcode.TEXT, b"ok"), encode_frame(Opcode.TEXT, b"par", fin=False), encode_frame(Opcode.CONTINUATION, b"t"),
            encode_frame(Opcode.PING, b"p"), encode_frame(Opcode.CLOSE, b"\x03\xe8"), bytes([0x81, 126, 0xFF]), bytes([0x82, 127]),
            b"\xff" * 8, b"\x00", b"\x80", b"\x7f", b"\xc3\x28", encode_frame(Opcode.BINARY, b"m" * 200),
        ]),
        max_size=30,
    ).map(b"".join),
)


@settings(max_examples=500, deadline=None)
@given(garbage, st.integers(1, 50))
def test_garbage_parses_or_raises_remote_protocol_error_only(data: bytes, chunk: int) -> None:
    ws = opened(max_message=256)
    try:
        for i in range(0, len(data), chunk):
            ws.receive_data(data[i : i + chunk])
            while (event := ws.next_event()) is not NEED_DATA and event is not CLOSED:
                assert isinstance(event, TextMessage | BinaryMessage | Ping | Pong | CloseReceived)
            # bounded memory: a message's fragments, one frame header and the last chunk at most
            assert ws.buffered <= 256 + 14 + chunk
        ws.receive_data(b"")
        while (event := ws.next_event()) is not CLOSED:
            assert isinstance(event, TextMessage | BinaryMessage | Ping | Pong | CloseReceived)
    except RemoteProtocolError as exc:
        assert exc.peer == "node" and ws.fail_code in (1002, 1007, 1009)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_garbage_in_place_of_the_handshake_answer(data: bytes) -> None:
    ws = client()
    try:
        if data:
            ws.receive_data(data)
        ws.receive_data(b"")
        while (event := ws.next_event()) is not CLOSED:
            assert event is not NEED_DATA
    except RemoteProtocolError as exc:
        assert exc.peer == "node"
