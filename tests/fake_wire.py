"""Content-Length framing for the fault-injection peers, written without minitools (stdlib
only), so that a fake peer never shares a bug with the framer it tests."""

import json
import sys

out, inp = sys.stdout.buffer, sys.stdin.buffer


def send(obj):
    body = json.dumps(obj).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


def read():
    """The next message; exits the process quietly when the client closes stdin."""
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
