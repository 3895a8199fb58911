"""The inspector session against a scripted WebSocket server: answers matched by id, events held
for a later waiter (bounded), refusals, and a peer that sends what CDP does not allow."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from minitools.inspector import CDPError, InspectorSession
from minitools.protocol import Opcode, RemoteProtocolError, encode_frame
from minitools.transport import ConnectionClosed
from ws_server import Peer, next_seen, serving

pytestmark = pytest.mark.timeout(30)


async def read_command(peer: Peer) -> dict[str, Any]:
    fin, opcode, payload = await peer.read_frame()
    assert fin and opcode == Opcode.TEXT
    command = json.loads(payload)
    assert isinstance(command, dict)
    return command


async def send_json(peer: Peer, obj: object) -> None:
    await peer.send(encode_frame(Opcode.TEXT, json.dumps(obj).encode()))


async def test_answers_by_id_and_events_held_for_a_later_waiter() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        first, second = await read_command(peer), await read_command(peer)
        await send_json(peer, {"method": "Debugger.scriptParsed", "params": {"scriptId": "7"}})
        await send_json(peer, {"id": second["id"], "result": {"which": second["method"]}})
        await send_json(peer, {"id": first["id"], "error": {"code": -32000, "message": "Not allowed"}})
        await send_json(peer, {"id": 999, "result": {}})  # nobody asked: dropped
        for n in range(10):
            await send_json(peer, {"method": "Tick", "params": {"n": n}})
        await send_json(peer, {"method": "Done", "params": {}})
        await peer.until_closed()

    async with serving(script) as (url, _):
        session = await InspectorSession.connect(url, timeout=10, max_events=4)
        try:
            refused = asyncio.ensure_future(session.request("Debugger.pause"))
            answered = asyncio.ensure_future(session.request("Runtime.enable"))
            assert await answered == {"which": "Runtime.enable"}
            with pytest.raises(CDPError, match=r"the inspector refused Debugger\.pause: Not allowed \(code -32000\)") as info:
                await refused
            assert info.value.code == -32000
            # every event came before this waiter; four are held, the oldest dropped
            assert await session.wait_event("Done") == {}
            assert [(event.method, event.params["n"]) for event in session.held_events()] == [("Tick", 7), ("Tick", 8), ("Tick", 9)]
            assert await session.wait_event("Tick") == {"n": 7}
        finally:
            await session.close()


async def test_a_request_nobody_answers_is_a_bounded_wait_naming_it() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        await peer.until_closed()

    async with serving(script) as (url, _):
        session = await InspectorSession.connect(url, timeout=10)
        try:
            with pytest.raises(asyncio.TimeoutError, match=r"inspector did not answer Debugger\.enable within 0\.3 s"):
                await session.request("Debugger.enable", timeout=0.3)
            with pytest.raises(asyncio.TimeoutError, match=r"inspector sent no Debugger\.paused event within 0\.3 s"):
                await session.wait_event("Debugger.paused", timeout=0.3)
        finally:
            await session.close()


@pytest.mark.parametrize(
    "sent, error, match, close_code",
    [
        (encode_frame(Opcode.TEXT, b"{not json"), RemoteProtocolError, "inspector: sent a message that is not JSON: '{not json'", 1002),
        (encode_frame(Opcode.TEXT, b"[1, 2]"), RemoteProtocolError, "sent JSON that is not an object", 1002),
        (encode_frame(Opcode.BINARY, b"\x00\x01"), RemoteProtocolError, "sent a binary message of 2 bytes", 1002),
        (encode_frame(Opcode.TEXT, b"[" * 100_000), RemoteProtocolError, "not JSON", 1002),
        (encode_frame(Opcode.CLOSE, (1001).to_bytes(2, "big")), ConnectionClosed, r"inspector closed the WebSocket \(code 1001\)", 1001),
    ],
    ids=["not-json", "not-an-object", "binary", "deep-nesting", "close"],
)
async def test_a_bad_message_fails_the_pending_request_and_the_waiters(sent: bytes, error: type[Exception], match: str,
                                                                       close_code: int) -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        await read_command(peer)
        await peer.send(sent)
        peer.seen.put_nowait(await peer.until_closed())

    async with serving(script) as (url, seen):
        session = await InspectorSession.connect(url, timeout=10)
        try:
            waiter = asyncio.ensure_future(session.wait_event("Debugger.paused", timeout=20))
            with pytest.raises(error, match=match):
                await session.request("Debugger.enable", timeout=20)
            with pytest.raises(error, match=match):
                await waiter
            with pytest.raises(error, match=match):
                await session.request("Debugger.resume")
            # the session closes the socket with the code the fault calls for (or echoes the peer's)
            assert await next_seen(seen) == close_code.to_bytes(2, "big")
        finally:
            await session.close()


async def test_a_result_that_is_not_an_object_fails_that_request_only() -> None:
    async def script(peer: Peer) -> None:
        await peer.accept()
        command = await read_command(peer)
        await send_json(peer, {"id": command["id"], "result": [1]})
        command = await read_command(peer)
        await send_json(peer, {"id": command["id"], "result": {"ok": True}})
        await peer.until_closed()

    async with serving(script) as (url, _):
        session = await InspectorSession.connect(url, timeout=10)
        try:
            with pytest.raises(RemoteProtocolError, match=r"answered Runtime\.evaluate with a result that is not an object: \[1\]"):
                await session.request("Runtime.evaluate", {"expression": "1"})
            assert await session.request("Runtime.evaluate", {"expression": "2"}) == {"ok": True}
        finally:
            await session.close()
