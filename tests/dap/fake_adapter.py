"""A scripted debug adapter for hostile-peer tests: it does the handshake like a real one, then
answers and sends what a JSON script (argv[1]) says, however malformed.

The script: {"responses": {command: body}, "after_launch": [event, ...],
"reverse": [request, ...]}. `responses` replaces the body of a command's response (default {});
`after_launch` are sent once configurationDone is answered (an event is {"event": name, "body":
body}, or any raw message); `reverse` are requests sent to the client at launch.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fake_wire import read, send

script = json.loads(Path(sys.argv[1]).read_text())
seq = 0


def next_seq():
    global seq
    seq += 1
    return seq


def emit(message):
    if isinstance(message, dict) and "event" in message and "type" not in message:
        message = {"type": "event", **message}
    if isinstance(message, dict):
        message.setdefault("seq", next_seq())
    send(message)


launch = None
while True:
    msg = read()
    if msg.get("type") != "request":
        continue
    command = msg.get("command")
    body = script.get("responses", {}).get(command, {"supportsConfigurationDoneRequest": True} if command == "initialize" else {})
    if command == "launch":
        launch = msg
        emit({"event": "initialized", "body": {}})
        for request in script.get("reverse", []):
            emit({"type": "request", **request})
        continue
    send({"seq": next_seq(), "type": "response", "request_seq": msg["seq"], "command": command, "success": True, "body": body})
    if command == "configurationDone" and launch is not None:
        send({"seq": next_seq(), "type": "response", "request_seq": launch["seq"], "command": "launch", "success": True, "body": {}})
        for event in script.get("after_launch", []):
            emit(event)
    if command == "disconnect":
        sys.exit(0)
