"""A minimal language server for fault injection only (stdlib, no minitools): it answers
initialize and shutdown, never publishes diagnostics, and misbehaves on demand through the
FAKE_LSP_MODE environment variable: "silent" (default: answers nothing but the handshake),
"garbage" (writes a broken frame after initialize)."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fake_wire import out, read, send

mode = os.environ.get("FAKE_LSP_MODE", "silent")


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
