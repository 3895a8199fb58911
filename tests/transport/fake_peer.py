"""A tiny JSON-RPC peer for fault injection, written without minitools (stdlib only).

Methods: echo (returns params), fail (error response), ask (sends the client a request and
returns its answer), sleep (never answers), crash (writes to stderr and exits 3),
spam_stderr (writes params["bytes"] bytes to stderr, then answers), garbage (writes bytes
that are not a frame).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fake_wire import out, read, send

next_id = 1000
while True:
    msg = read()
    method, params, mid = msg.get("method"), msg.get("params"), msg.get("id")
    if method is None:
        continue
    if method == "echo":
        send({"jsonrpc": "2.0", "id": mid, "result": params})
    elif method == "fail":
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": "bad params", "data": params}})
    elif method == "ask":
        next_id += 1
        send({"jsonrpc": "2.0", "id": next_id, "method": params["method"], "params": params.get("params")})
        while True:
            answer = read()
            if answer.get("id") == next_id and "method" not in answer:
                break
        send({"jsonrpc": "2.0", "id": mid, "result": answer})
    elif method == "notify_me":
        send({"jsonrpc": "2.0", "method": "hello", "params": params})
        send({"jsonrpc": "2.0", "id": mid, "result": None})
    elif method == "sleep" or method == "cancelled?":
        pass
    elif method == "$/cancelRequest":
        send({"jsonrpc": "2.0", "method": "saw_cancel", "params": params})
    elif method == "crash":
        sys.stderr.write("fatal: the fake peer was told to crash\n")
        sys.stderr.flush()
        time.sleep(0.05)
        sys.exit(3)
    elif method == "spam_stderr":
        sys.stderr.buffer.write(b"x" * (params["bytes"] - 5) + b"\nEND\n")
        sys.stderr.flush()
        send({"jsonrpc": "2.0", "id": mid, "result": "done"})
    elif method == "garbage":
        out.write(b"Content-Length: nope\r\n\r\n")
        out.flush()
