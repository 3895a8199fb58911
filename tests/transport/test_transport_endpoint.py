"""JSON-RPC correlation over a real child process (a stdlib fake peer for faults) and over an
in-memory link between two of our own endpoints."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from minitools.protocol import METHOD_NOT_FOUND
from minitools.transport import ChildExited, ChildProcess, ConnectionClosed, JSONRPCEndpoint, RPCError


async def start(argv: list[str], tracer: Any = None, **kw: Any) -> tuple[ChildProcess, JSONRPCEndpoint]:
    child = await ChildProcess.start(argv, peer="fake", tracer=tracer)
    return child, JSONRPCEndpoint.over_child(child, **kw)


async def test_request_response_and_error(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv)
    try:
        assert await rpc.request("echo", {"x": "😀"}, timeout=10) == {"x": "😀"}
        results = await asyncio.gather(*(rpc.request("echo", [i], timeout=10) for i in range(20)))
        assert results == [[i] for i in range(20)]
        with pytest.raises(RPCError) as info:
            await rpc.request("fail", {"a": 1}, timeout=10)
        assert info.value.code == -32602 and info.value.data == {"a": 1} and "fake answered fail" in str(info.value)
    finally:
        await child.stop()


async def test_every_server_request_gets_an_answer(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv)
    try:
        rpc.on_request("workspace/configuration", lambda params: [None] * len(params["items"]))

        async def slow(params: Any) -> str:
            await asyncio.sleep(0)
            return "ok"

        rpc.on_request("async/thing", slow)
        rpc.on_request("broken", lambda params: 1 / 0)
        rpc.on_request("unwritable", lambda params: {"x": float("nan")})  # no JSON for it
        answer = await rpc.request("ask", {"method": "workspace/configuration", "params": {"items": [{}, {}]}}, timeout=10)
        assert answer["result"] == [None, None]
        assert (await rpc.request("ask", {"method": "async/thing"}, timeout=10))["result"] == "ok"
        unknown = await rpc.request("ask", {"method": "no/such"}, timeout=10)
        assert unknown["error"]["code"] == METHOD_NOT_FOUND
        broken = await rpc.request("ask", {"method": "broken"}, timeout=10)
        assert broken["error"]["code"] == -32603 and "ZeroDivisionError" in broken["error"]["message"]
        unwritable = await rpc.request("ask", {"method": "unwritable"}, timeout=10)  # was never answered
        assert unwritable["error"]["code"] == -32603 and "could not be written" in unwritable["error"]["message"]
    finally:
        await child.stop()


async def test_notifications_reach_their_handler(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv)
    got: asyncio.Queue[Any] = asyncio.Queue()
    rpc.on_notification("hello", got.put_nowait)
    try:
        await rpc.request("notify_me", {"n": 1}, timeout=10)
        assert await asyncio.wait_for(got.get(), 10) == {"n": 1}
    finally:
        await child.stop()


async def test_timeout_sends_cancel(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv, cancel_method="$/cancelRequest")
    saw: asyncio.Queue[Any] = asyncio.Queue()
    rpc.on_notification("saw_cancel", saw.put_nowait)
    try:
        with pytest.raises(asyncio.TimeoutError):
            await rpc.request("sleep", None, timeout=0.2)
        assert "id" in await asyncio.wait_for(saw.get(), 10)
        assert await rpc.request("echo", [5], timeout=10) == [5]  # still usable
    finally:
        await child.stop()


async def test_child_exit_fails_every_pending_request_with_code_and_stderr(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv)
    pending = [asyncio.ensure_future(rpc.request("sleep", None, timeout=30)) for _ in range(3)]
    await asyncio.sleep(0)
    with pytest.raises(ChildExited) as info:
        await rpc.request("crash", None, timeout=30)
    assert info.value.returncode == 3 and "told to crash" in info.value.stderr_tail
    for fut in pending:
        with pytest.raises(ChildExited):
            await fut
    with pytest.raises(ChildExited):
        await rpc.request("echo", [1], timeout=5)
    await child.stop()


async def test_killed_mid_request(fake_argv: list[str]) -> None:
    child, rpc = await start(fake_argv)
    fut = asyncio.ensure_future(rpc.request("sleep", None, timeout=30))
    await rpc.request("echo", [1], timeout=10)
    child.kill_now()
    with pytest.raises(ChildExited) as info:
        await fut
    assert info.value.returncode == -9 and "signal 9" in str(info.value)
    await child.stop()


async def test_garbage_closes_with_remote_protocol_error(fake_argv: list[str]) -> None:
    from minitools.protocol import RemoteProtocolError

    child, rpc = await start(fake_argv)
    with pytest.raises(RemoteProtocolError, match="fake: Content-Length is not a decimal"):
        await rpc.request("garbage", None, timeout=10)
    await child.stop()


async def test_tracer_sees_every_message(fake_argv: list[str]) -> None:
    records: list[tuple[str, str, Any]] = []
    child, rpc = await start(fake_argv, tracer=lambda d, p, m: records.append((d, p, m)))
    await rpc.request("echo", {"t": 1}, timeout=10)
    await child.stop()
    directions = [(d, m.get("method") if isinstance(m, dict) else None) for d, p, m in records if p == "fake"]
    assert ("send", "echo") in directions and ("recv", None) in directions
    assert any(d == "event" and m.get("event") == "exit" for d, _, m in records)


async def _linked() -> tuple[JSONRPCEndpoint, JSONRPCEndpoint]:
    """Two endpoints talking to each other over a socket pair."""
    a_sock, b_sock = socket.socketpair()
    ra, wa = await asyncio.open_connection(sock=a_sock)
    rb, wb = await asyncio.open_connection(sock=b_sock)
    return JSONRPCEndpoint.connect(ra, wa, peer="b"), JSONRPCEndpoint.connect(rb, wb, peer="a")


async def test_two_endpoints_over_an_in_memory_link() -> None:
    a, b = await _linked()
    b.on_request("add", lambda p: p[0] + p[1])
    a.on_request("mul", lambda p: p[0] * p[1])
    assert await a.request("add", [2, 3], timeout=5) == 5
    assert await b.request("mul", [2, 3], timeout=5) == 6
    with pytest.raises(RPCError) as info:
        await a.request("nope", timeout=5)
    assert info.value.code == METHOD_NOT_FOUND
    pending = asyncio.ensure_future(a.request("never", timeout=30))
    b.on_request("never", lambda p: asyncio.sleep(100))
    await asyncio.sleep(0.01)
    await b.close()
    with pytest.raises(ConnectionClosed):
        await pending
    await a.close()


async def test_a_handler_knows_the_id_of_the_request_it_answers() -> None:
    a, b = await _linked()

    async def whoami(params: Any) -> Any:
        await asyncio.sleep(0.01)  # still known after the handler has waited
        return b.incoming_id()

    b.on_request("whoami", whoami)
    ids = await asyncio.gather(*(a.request("whoami", timeout=5) for _ in range(3)))
    assert None not in ids and len(set(ids)) == 3  # each its own request's id
    assert b.incoming_id() is None  # outside a handler
    await a.close()
    await b.close()
