"""A minimal language server for fault injection only (stdlib, no minitools): it answers
initialize and shutdown, never publishes diagnostics, and misbehaves on demand through the
FAKE_LSP_MODE environment variable: "silent" (default: answers nothing but the handshake),
"garbage" (writes a broken frame after initialize)."""

import json
import os
import sys

out, inp = sys.stdout.buffer, sys.stdin.buffer
mode = os.environ.get("FAKE_LSP_MODE", "silent")


def send(obj):
    body = json.dumps(obj).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


def read():
    length = None
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        if not line.strip():
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(inp.read(length))


while True:
    msg = read()
    method = msg.get("method")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"capabilities": {
            "textDocumentSync": 1, "definitionProvider": True, "hoverProvider": True}}})
        if mode == "garbage":
            out.write(b"Content-Length: banana\r\n\r\n")
            out.flush()
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
    elif method == "exit":
        sys.exit(0)
