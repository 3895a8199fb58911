"""A fault-injection debug adapter: it answers `continue` the way debugpy attached to a running
program sometimes does under load. The program hits its breakpoint before the request takes
effect, so the `stopped` event comes first; then `continued`, the response, and the real stop
a moment later."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fake_wire import read, send

seq = 0


def event(name, body):
    global seq
    seq += 1
    send({"seq": seq, "type": "event", "event": name, "body": body})


while True:
    msg = read()
    seq += 1
    if msg.get("command") == "continue":
        event("stopped", {"reason": "breakpoint", "threadId": 1, "description": "before the continue"})
        event("continued", {"threadId": 1, "allThreadsContinued": True})
        send({"seq": seq, "type": "response", "request_seq": msg["seq"], "success": True, "command": "continue", "body": {}})
        time.sleep(0.2)
        event("stopped", {"reason": "breakpoint", "threadId": 1, "description": "after the continue"})
    else:
        send({"seq": seq, "type": "response", "request_seq": msg["seq"], "success": True, "command": msg.get("command"), "body": {}})
