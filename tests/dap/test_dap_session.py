"""The session against a scripted adapter (fault injection beside the real ones): events that
arrive before the response, reverse requests answered, output joined into lines."""

from __future__ import annotations

import sys
from pathlib import Path

from minitools.dap import DAPSession, OutputBuffer
from minitools.transport import ChildProcess, FramedConnection

FAKE = r'''
import json, sys
def send(obj):
    body = json.dumps(obj).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); sys.stdout.buffer.flush()
def recv():
    length = 0
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            sys.exit(0)
        if line == b"\r\n":
            break
        if line.lower().startswith(b"content-length"):
            length = int(line.split(b":")[1])
    return json.loads(sys.stdin.buffer.read(length))
seq = 100
while True:
    m = recv()
    seq += 1
    if m.get("type") == "response":
        send({"seq": seq, "type": "event", "event": "reverseAnswered", "body": m})
        continue
    c = m["command"]
    if c == "initialize":
        send({"seq": seq, "type": "event", "event": "initialized"})  # before the response
        send({"seq": seq + 1, "type": "response", "request_seq": m["seq"], "command": c, "success": True, "body": {"supportsConfigurationDoneRequest": True}})
    elif c == "launch":
        send({"seq": seq, "type": "request", "command": "startDebugging", "arguments": {}})
        send({"seq": seq + 1, "type": "event", "event": "output", "body": {"category": "telemetry", "output": "secret"}})
        send({"seq": seq + 2, "type": "event", "event": "output", "body": {"category": "stdout", "output": "hel"}})
        send({"seq": seq + 3, "type": "event", "event": "output", "body": {"category": "stdout", "output": "lo\nwor"}})
        pending_launch = m
    elif c == "configurationDone":
        send({"seq": seq, "type": "response", "request_seq": m["seq"], "command": c, "success": True})
        send({"seq": seq + 1, "type": "response", "request_seq": pending_launch["seq"], "command": "launch", "success": True})
        send({"seq": seq + 2, "type": "event", "event": "exited", "body": {"exitCode": 3}})
    elif c == "setBreakpoints":
        send({"seq": seq, "type": "response", "request_seq": m["seq"], "command": c, "success": False, "message": "nope"})
    else:
        send({"seq": seq, "type": "response", "request_seq": m["seq"], "command": c, "success": True})
'''


async def test_handshake_order_reverse_requests_and_output(tmp_path: Path) -> None:
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    child = await ChildProcess.start([sys.executable, str(script)], peer="fake")
    session = DAPSession.over("fake", lambda m, c: FramedConnection.over_child(child, on_message=m, on_close=c), child)
    try:
        await session.initialize("fake", 10)
        stop, _ = await session.start("launch", {}, {}, 10)
        assert stop["event"] == "exited" and session.stop.exit_code == 3
        lines, dropped = session.output.take()
        assert "hello" in lines and "wor" in lines and dropped == 0
        assert not any("secret" in line for line in lines)
        answer = (await session.wait_event(("reverseAnswered",), 0, 10, "the fake's echo"))["body"]
        assert answer["command"] == "startDebugging" and answer["success"] is False
        assert "child debug sessions" in answer["message"]
    finally:
        await session.close()
    assert child.returncode is not None


def test_output_buffer_is_bounded_and_joins_chunks() -> None:
    buf = OutputBuffer(max_lines=3)
    for i in range(5):
        buf.write("stdout", f"line{i}\n")
    buf.write("stderr", "par")
    buf.write("stderr", "tial")
    lines, dropped = buf.take()
    assert lines == ["line3", "line4", "[stderr] partial"] and dropped == 3


async def test_a_stop_the_adapter_then_resumed_does_not_answer_continue() -> None:
    """Beside the real adapters: a fake one sends `stopped`, `continued`, then the response and
    the real stop (debugpy attached to a running program does this under load). `continue`
    answers with the stop after the resume, and the session says stopped."""
    import sys
    from pathlib import Path

    from minitools.dap import DAPSession
    from minitools.transport import ChildProcess, FramedConnection

    fake = Path(__file__).with_name("fake_late_resume.py")
    child = await ChildProcess.start([sys.executable, str(fake)], peer="fake")
    session = DAPSession.over("fake", lambda m, c: FramedConnection.over_child(child, on_message=m, on_close=c), child)
    try:
        stop = await session.step("continue", {"threadId": 1}, 5.0)
        assert stop["body"]["description"] == "after the continue"
        assert session.stop.state.value == "stopped" and session.stop.description == "after the continue"
    finally:
        await session.close(graceful=False)
