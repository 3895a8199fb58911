"""A minimal language server for fault injection only (stdlib, no minitools): it answers
initialize and shutdown, never publishes diagnostics, and misbehaves on demand through the
FAKE_LSP_MODE environment variable: "silent" (default: answers nothing but the handshake),
"garbage" (writes a broken frame after initialize).

FAKE_LSP_SCRIPT names a JSON file that scripts a hostile peer (every string in it has "$ROOT"
replaced by the root's URI, "$PATH" by its path):
  "capabilities": what initialize answers (added to the defaults); "initialize": its whole answer;
  "answers": {method: result} for requests (anything else gets null; without a script, no answer);
  "fifos": {method: [relative paths]} made FIFOs just before that request is answered;
  "writes": {method: {relative path: text}} written then, after "pause": {method: seconds};
  "flood": [{"method", "params", "count"}] notifications sent after `initialized`, each "$N" in
           them replaced by the message's number;
  "apply_edits": [params] sent as workspace/applyEdit requests while a workspace/executeCommand
           runs (the answer waits for the client's replies)."""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fake_wire import out, read, send

mode = os.environ.get("FAKE_LSP_MODE", "silent")
script_file = os.environ.get("FAKE_LSP_SCRIPT")
script_text = Path(script_file).read_text() if script_file else "{}"
script = json.loads(script_text)


def substituted(root_uri):
    """The script with $ROOT and $PATH filled in."""
    root_path = root_uri[len("file://"):]
    text = script_text.replace("$ROOT", root_uri).replace("$PATH", root_path)
    return json.loads(text), root_path


def flood(items):
    for item in items:
        template = json.dumps({"jsonrpc": "2.0", "method": item["method"], "params": item.get("params")})
        for n in range(item.get("count", 1)):
            body = template.replace("$N", str(n)).encode()
            out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        out.flush()


root = ""
next_id = 1000
while True:
    msg = read()
    method = msg.get("method")
    if method == "initialize":
        script, root = substituted(msg["params"].get("rootUri") or "file:///")
        capabilities = {"textDocumentSync": 1, "definitionProvider": True, "hoverProvider": True}
        capabilities.update(script.get("capabilities", {}))
        send({"jsonrpc": "2.0", "id": msg["id"], "result": script.get("initialize", {"capabilities": capabilities})})
        if mode == "garbage":
            out.write(b"Content-Length: banana\r\n\r\n")
            out.flush()
    elif method == "initialized":
        flood(script.get("flood", []))
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
    elif method == "exit":
        sys.exit(0)
    elif script_file and "id" in msg and method is not None:
        for rel in script.get("fifos", {}).get(method, []):
            target = Path(root) / rel
            if target.exists() or target.is_symlink():
                target.unlink()
            os.mkfifo(target)
        time.sleep(script.get("pause", {}).get(method, 0))
        for rel, text in script.get("writes", {}).get(method, {}).items():
            (Path(root) / rel).write_text(text)
        if method == "workspace/executeCommand":
            for params in script.get("apply_edits", []):
                next_id += 1
                send({"jsonrpc": "2.0", "id": next_id, "method": "workspace/applyEdit", "params": params})
                while "result" not in (reply := read()) and "error" not in reply:
                    pass
        send({"jsonrpc": "2.0", "id": msg["id"], "result": script.get("answers", {}).get(method)})
