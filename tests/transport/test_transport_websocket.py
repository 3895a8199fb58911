"""The WebSocket connection against a small scripted server on 127.0.0.1: a good peer and bad
ones (a truncated frame, a 2**63 length, a masked frame, a close mid-message, a handshake never
answered). Every wait is bounded; what the server read back from us is checked too."""

from __future__ import annotations

import asyncio

import pytest

from minitools.protocol import Opcode, RemoteProtocolError, encode_frame
from minitools.transport import ConnectionClosed, WebSocketConnection
from ws_server import Peer, next_seen, serving

pytestmark = pytest.mark.timeout(30)

async def connect(url: str, **kw: float) -> WebSocketConnection:
    return await WebSocketConnection.connect(url, peer="fake", timeout=kw.pop("timeout", 10), **kw)  # type: ignore[arg-type]


async def test_messages_both_ways_with_fragments_pings_and_the_close_handshake() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        fin, opcode, payload = await peer.read_frame()
        peer.seen.put_nowait((fin, opcode, payload))
        await peer.send(encode_frame(Opcode.TEXT, b"ec", fin=False) + encode_frame(Opcode.PING, b"hb")
                        + encode_frame(Opcode.CONTINUATION, payload[:3] + b"\xf0\x9f", fin=False)
                        + encode_frame(Opcode.CONTINUATION, b"\x98\x80"))
        peer.seen.put_nowait(await peer.read_frame())  # the pong
        await peer.send(encode_frame(Opcode.BINARY, bytes(70000)))
        peer.seen.put_nowait(await peer.read_frame())  # our close
        await peer.send(encode_frame(Opcode.CLOSE, (1000).to_bytes(2, "big")))

    async with serving(script) as (url, seen):
        ws = await connect(url)
        await ws.send_text("héllo")
        assert await next_seen(seen) == (True, Opcode.TEXT, "héllo".encode())
        assert await asyncio.wait_for(ws.receive(), 10) == "eché😀"
        assert await next_seen(seen) == (True, Opcode.PONG, b"hb")
        assert await asyncio.wait_for(ws.receive(), 10) == bytes(70000)
        await ws.close(timeout=10)
        assert await next_seen(seen) == (True, Opcode.CLOSE, (1000).to_bytes(2, "big"))
        assert ws.is_closed
        with pytest.raises(ConnectionClosed):
            await ws.send_text("after close")


async def test_the_peers_close_is_echoed_and_ends_the_connection_with_its_code() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        await peer.send(encode_frame(Opcode.TEXT, b"last words") + encode_frame(Opcode.CLOSE, (1001).to_bytes(2, "big") + b"bye"))
        peer.seen.put_nowait(await peer.read_frame())

    async with serving(script) as (url, seen):
        ws = await connect(url)
        assert await asyncio.wait_for(ws.receive(), 10) == "last words"
        with pytest.raises(ConnectionClosed, match=r"fake closed the WebSocket \(code 1001: 'bye'\)"):
            await asyncio.wait_for(ws.receive(), 10)
        assert await next_seen(seen) == (True, Opcode.CLOSE, (1001).to_bytes(2, "big"))
        await ws.close(timeout=1)


@pytest.mark.parametrize(
    "sent, error, match, close_code",
    [
        (encode_frame(Opcode.TEXT, b"x" * 100)[:40], RemoteProtocolError, r"in the middle of a message \(40 bytes of a frame received\)", None),
        (bytes([0x82, 127]) + (1 << 63).to_bytes(8, "big") + b"then a lot", RemoteProtocolError, "top bit set", 1002),
        (bytes([0x82, 127]) + ((1 << 63) - 1).to_bytes(8, "big"), RemoteProtocolError,
         "binary message of 9223372036854775807 bytes, over the limit of 65536 bytes", 1009),
        (encode_frame(Opcode.TEXT, b"masked", mask=b"abcd"), RemoteProtocolError, "masked frame", 1002),
        (encode_frame(Opcode.TEXT, b"half of a message", fin=False), RemoteProtocolError, "17 bytes of an unfinished message", None),
        (encode_frame(Opcode.TEXT, b"\xff\xfe"), RemoteProtocolError, "not UTF-8", 1007),
        (b"", ConnectionClosed, "fake closed the connection without a WebSocket close frame", None),
    ],
    ids=["truncated-frame", "length-2**63", "length-2**63-1", "masked-frame", "closed-mid-message", "bad-utf8", "no-close-frame"],
)
async def test_a_bad_peer_ends_the_connection_with_a_clear_error(sent: bytes, error: type[Exception], match: str,
                                                                   close_code: int | None) -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        await peer.send(sent)
        if close_code is not None:
            peer.seen.put_nowait(await peer.read_frame())  # the client fails the connection
            await asyncio.wait_for(peer.reader.read(), 10)  # then closes its socket

    async with serving(script) as (url, seen):
        ws = await connect(url, max_message=65536)
        with pytest.raises(error, match=match) as info:
            await asyncio.wait_for(ws.receive(), 10)
        assert str(info.value).startswith("fake")
        if close_code is not None:
            assert await next_seen(seen) == (True, Opcode.CLOSE, close_code.to_bytes(2, "big"))
        assert ws.is_closed and ws.exception is info.value
        await ws.close(timeout=1)


async def test_a_close_frame_between_fragments_ends_the_connection() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        await peer.send(encode_frame(Opcode.TEXT, b"part", fin=False) + encode_frame(Opcode.CLOSE, (1011).to_bytes(2, "big")))
        peer.seen.put_nowait(await peer.read_frame())

    async with serving(script) as (url, seen):
        ws = await connect(url)
        with pytest.raises(ConnectionClosed, match=r"code 1011"):
            await asyncio.wait_for(ws.receive(), 10)
        assert await next_seen(seen) == (True, Opcode.CLOSE, (1011).to_bytes(2, "big"))


async def test_a_server_that_never_answers_the_handshake_is_a_bounded_wait() -> None:
    async def script(peer: Peer) -> None:
        await peer.read_request()
        await peer.reader.read()  # holds the connection open, silent

    async with serving(script) as (url, _):
        with pytest.raises(ConnectionClosed, match=r"fake did not answer the WebSocket handshake at ws://127.0.0.1:\d+/session within 0.5 s"):
            await connect(url, timeout=0.5)


async def test_a_server_that_drips_its_answer_forever_is_a_bounded_wait() -> None:
    async def script(peer: Peer) -> None:
        await peer.read_request()
        await peer.send(b"HTTP/1.1 101 Switching Protocols\r\n")
        while True:
            await peer.send(b"X-Slow: 1\r\n")
            await asyncio.sleep(0.05)

    async with serving(script) as (url, _):
        with pytest.raises(ConnectionClosed, match="did not answer the WebSocket handshake"):
            await connect(url, timeout=0.5)


@pytest.mark.parametrize(
    "answer, error, match",
    [
        (b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", RemoteProtocolError, "refused the WebSocket handshake: 'HTTP/1.1 403 Forbidden'"),
        (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: eA==\r\n\r\n",
         RemoteProtocolError, "Sec-WebSocket-Accept 'eA=='"),
        (b"HTTP/1.1 10", RemoteProtocolError, "closed the connection before answering the WebSocket handshake"),
    ],
)
async def test_a_refused_or_wrong_handshake_quotes_the_answer(answer: bytes, error: type[Exception], match: str) -> None:
    async def script(peer: Peer) -> None:
        await peer.read_request()
        await peer.send(answer)

    async with serving(script) as (url, _):
        with pytest.raises(error, match=match):
            await connect(url)


async def test_nothing_listening_and_a_bad_url() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    with pytest.raises(ConnectionClosed, match=f"could not connect to fake at ws://127.0.0.1:{port}/"):
        await connect(f"ws://127.0.0.1:{port}/")
    with pytest.raises(ValueError, match="not a ws:// URL"):
        await connect("wss://127.0.0.1:1/")


async def test_a_peer_that_never_answers_our_close_is_a_bounded_wait() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        peer.seen.put_nowait(await peer.read_frame())
        await peer.reader.read()

    async with serving(script) as (url, seen):
        ws = await connect(url)
        await ws.close(1000, "done", timeout=0.3)
        assert await next_seen(seen) == (True, Opcode.CLOSE, b"\x03\xe8done")
        assert ws.is_closed
