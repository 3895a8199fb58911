"""Content-Length framing, as LSP, DAP and the kernel pipe use it. Sans-IO.

Rules (LSP base protocol, "Header Part"; docs/reference.md, "Framing"):
- a header block is ASCII ``Name: value`` lines, each ended by CRLF, the block ended by an empty line;
- header names are case-insensitive and may come in any order; unknown headers are ignored;
- ``Content-Length`` is required, decimal digits only, and counts the bytes of the UTF-8 body;
- the body is one JSON object.

Memory stays bounded whatever arrives: a header block longer than `max_header` or a body longer
than `max_body` is refused before it is buffered, so an incomplete message never holds more than
``max_header + max_body`` bytes. Whatever garbage arrives, `next_message` either returns a message,
a sentinel, or raises RemoteProtocolError — never anything else. A body that is framed correctly
but is not a JSON object raises its subclass MalformedMessage after it was consumed, so a reader
that can answer the peer (`JSONRPCEndpoint(answer_malformed=True)`) may go on with the next one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from minitools.protocol._errors import LocalProtocolError, MalformedMessage, RemoteProtocolError
from minitools.protocol._jsonrpc import INVALID_REQUEST
from minitools.protocol._sentinels import CLOSED, NEED_DATA, Sentinel

__all__ = ["Framer", "LineFramer", "encode_message", "encode_line"]

_HEADER_END = b"\r\n\r\n"
_LENGTH = b"content-length"
# headers seen in the wild are ~40 bytes; 8 KiB leaves room for any honest peer
_MAX_HEADER = 8 * 1024
# compact the buffer once this many consumed bytes sit in front of the unread ones
_COMPACT_AT = 1 << 16


def _decode_body(body: bytes | bytearray | memoryview, peer: str) -> dict[str, Any]:
    """The body as a JSON object; MalformedMessage (quoting its start) when it is not one."""
    try:
        # decode explicitly: json.loads(bytes) would also accept UTF-16/32, which the spec does not
        obj = json.loads(str(body, "utf-8"))
    except UnicodeDecodeError as exc:
        raise MalformedMessage(f"message body is not UTF-8 ({exc.reason} at byte {exc.start}); it began {_start(body)}",
                               peer=peer) from None
    except RecursionError:
        # JSON nested deeper than the reader recurses: still the peer's garbage, but a request
        # whose id can be read is answered as itself, or its sender would wait for it forever
        raise MalformedMessage(f"message body nests too deeply to read; send a shallower message; it began {_start(body)}",
                               peer=peer, request_id=_top_level_id(str(body, "utf-8"))) from None
    except ValueError as exc:
        # JSONDecodeError is a ValueError; so is an integer too long to convert
        raise MalformedMessage(f"message body is not JSON ({str(exc)[:120]}); it began {_start(body)}", peer=peer) from None
    if not isinstance(obj, dict):
        raise MalformedMessage(f"message body is JSON but not an object (got {type(obj).__name__}: {_start(body)})",
                               peer=peer, code=INVALID_REQUEST)
    return obj


_BRACKETS_OR_STRING = re.compile(r'[{\[]+|[}\]]+|"')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_ID_VALUE = re.compile(r'\s*:\s*(-?[0-9]{1,300}(?![0-9.eE])|"(?:[^"\\]|\\.)*")')


_ID_SEARCH = 1 << 16  # bytes at the start of an overlong line searched for its id


def _top_level_id(text: str) -> Any:
    """The value of the top-level object's "id" key when it is an integer or a string (None
    otherwise), read without recursing: one pass that skips strings and counts brackets."""
    depth, pos = 0, 0
    while (found := _BRACKETS_OR_STRING.search(text, pos)) is not None:
        run, pos = found.group(), found.start()
        if run == '"':
            string = _STRING.match(text, pos)
            assert string is not None  # a quote always opens one, closed or not
            pos = string.end()
            value = _ID_VALUE.match(text, pos) if depth == 1 and string.group() == '"id"' else None
            if value is not None:
                try:
                    return json.loads(value.group(1))
                except ValueError:  # a string with a bad escape: no usable id
                    return None
            continue
        depth += len(run) if run[0] in "{[" else -len(run)
        pos = found.end()
    return None


def _start(body: bytes | bytearray | memoryview) -> str:
    """The first bytes of a body, as the peer sent them, for an error message."""
    return repr(bytes(body[:80]).decode("utf-8", "replace"))


class _Buffer:
    """The receiving half both framers share: bytes in, compacted as they are consumed."""

    _buf: bytearray
    _pos: int  # start of the unread bytes in _buf
    _eof: bool

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as a message."""
        return len(self._buf) - self._pos

    def receive_data(self, data: bytes) -> None:
        """Add bytes from the peer; ``b""`` marks the end of the stream."""
        if self._eof:
            raise LocalProtocolError("receive_data called after EOF was signalled")
        if not data:
            self._eof = True
            return
        if self._pos >= _COMPACT_AT:
            del self._buf[: self._pos]
            self._pos = 0
        self._buf += data


class Framer(_Buffer):
    """Turns a byte stream into JSON objects framed by ``Content-Length`` headers.

    Feed bytes with `receive_data` (``b""`` means EOF), then call `next_message` until it
    returns `NEED_DATA` (or `CLOSED` after EOF).
    """

    def __init__(self, peer: str = "peer", *, max_body: int = 64 * 2**20, max_header: int = _MAX_HEADER) -> None:
        self.peer = peer
        self.max_body = max_body
        self.max_header = max_header
        self._buf = bytearray()
        self._pos = 0  # start of the unread bytes in _buf
        self._want = -1  # body length of the message whose header was read, or -1
        self._eof = False


    def next_message(self) -> dict[str, Any] | Sentinel:
        """The next complete message, `NEED_DATA`, or `CLOSED` (clean EOF)."""
        buf = self._buf
        pos = self._pos
        if self._want < 0:
            end = buf.find(_HEADER_END, pos, pos + self.max_header + 4)
            if end < 0:
                return self._incomplete(len(buf) - pos > self.max_header, "header block")
            self._want = self._parse_header(bytes(buf[pos:end]))
            pos = self._pos = end + 4
        want = self._want
        if len(buf) - pos < want:
            return self._incomplete(False, "body")
        body = memoryview(buf)[pos : pos + want]
        try:
            obj = _decode_body(body, self.peer)
        finally:
            body.release()
            self._pos = pos + want
            self._want = -1
        if self._pos == len(buf):
            buf.clear()
            self._pos = 0
        return obj

    def _incomplete(self, too_long: bool, part: str) -> Sentinel:
        if too_long:
            raise RemoteProtocolError(
                f"no end of header block within {self.max_header} bytes (started {bytes(self._buf[self._pos:self._pos + 40])!r})",
                peer=self.peer,
            )
        if not self._eof:
            return NEED_DATA
        if self.buffered == 0 and self._want < 0:
            return CLOSED
        raise RemoteProtocolError(f"stream ended in the middle of a message ({part} incomplete, {self.buffered} bytes buffered)", peer=self.peer)

    def _parse_header(self, block: bytes) -> int:
        length: int | None = None
        for line in block.split(b"\r\n"):
            name, sep, value = line.partition(b":")
            if not sep:
                raise RemoteProtocolError(f"malformed header line {line[:80]!r} (expected 'Name: value')", peer=self.peer)
            if name.strip().lower() != _LENGTH:
                continue
            value = value.strip()
            if not value.isdigit() or not value.isascii():
                raise RemoteProtocolError(f"Content-Length is not a decimal number: {value[:40]!r}", peer=self.peer)
            if len(value) > 20:
                raise RemoteProtocolError(f"Content-Length {value[:40]!r}... exceeds the limit of {self.max_body} bytes", peer=self.peer)
            n = int(value)
            if length is not None and n != length:
                raise RemoteProtocolError(f"two different Content-Length headers ({length} and {n})", peer=self.peer)
            length = n
        if length is None:
            raise RemoteProtocolError(f"header block has no Content-Length: {block[:80]!r}", peer=self.peer)
        if length > self.max_body:
            raise RemoteProtocolError(f"Content-Length {length} exceeds the limit of {self.max_body} bytes", peer=self.peer)
        return length


def encode_message(obj: dict[str, Any]) -> bytes:
    """`obj` as a framed message: a Content-Length header, then its UTF-8 JSON body."""
    if not isinstance(obj, dict):
        raise LocalProtocolError(f"a message is a JSON object, not {type(obj).__name__}")
    body = _json_bytes(obj)
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _json_bytes(obj: dict[str, Any]) -> bytes:
    """`obj` as UTF-8 JSON. A string holding a lone surrogate (a file name that is not UTF-8,
    read with surrogateescape; text user code printed) has no UTF-8 form, so the message is then
    written with ASCII escapes, where it is ``\\udcff``: still JSON, and the same string once
    parsed. Refusing it would leave a request unanswered for one odd file name."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LocalProtocolError(f"message is not JSON-serialisable: {exc}") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("ascii")


class LineFramer(_Buffer):
    """Newline-delimited JSON (one object per line), with the same interface as `Framer`.

    Used by ``minitools serve`` and ``minitools mcp``. Blank lines are skipped. A line that is
    not a JSON object raises MalformedMessage once it is consumed; a line longer than
    `max_line` is refused before it is buffered in full (MalformedMessage too: the rest of that
    line is skipped as it arrives, and the line after it is read as usual).
    """

    def __init__(self, peer: str = "peer", *, max_line: int = 64 * 2**20) -> None:
        self.peer = peer
        self.max_line = max_line
        self._buf = bytearray()
        self._pos = 0
        self._eof = False
        self._skipping = False  # inside an overlong line, dropping bytes up to its newline

    def next_message(self) -> dict[str, Any] | Sentinel:
        """The next complete line as a JSON object, `NEED_DATA`, or `CLOSED`."""
        while True:
            buf, pos = self._buf, self._pos
            if self._skipping:
                end = buf.find(b"\n", pos)
                if end < 0:
                    buf.clear()
                    self._pos = 0
                    if self._eof:
                        return CLOSED
                    return NEED_DATA
                self._skipping = False
                self._pos = pos = end + 1
            end = buf.find(b"\n", pos, pos + self.max_line + 1)
            if end < 0:
                if self.buffered > self.max_line:
                    self._skipping = True
                    # a request whose id comes before its long part is answered as itself
                    head = str(buf[pos:pos + _ID_SEARCH], "utf-8", "replace")
                    raise MalformedMessage(f"line longer than {self.max_line} bytes (it began {_start(buf[pos:pos + 40])}); "
                                           "it was dropped; send less in one message", peer=self.peer,
                                           request_id=_top_level_id(head))
                if not self._eof:
                    return NEED_DATA
                if not bytes(buf[pos:]).strip():
                    self._buf.clear()
                    self._pos = 0
                    return CLOSED
                end = len(buf)  # a last line without its newline still counts
            line = bytes(buf[pos:end])
            self._pos = min(end + 1, len(buf))
            if self._pos == len(buf):
                buf.clear()
                self._pos = 0
            if line.strip():
                return _decode_body(line, self.peer)


def encode_line(obj: dict[str, Any]) -> bytes:
    """`obj` as one line of newline-delimited JSON (no raw newline can occur inside JSON text)."""
    if not isinstance(obj, dict):
        raise LocalProtocolError(f"a message is a JSON object, not {type(obj).__name__}")
    return _json_bytes(obj) + b"\n"
