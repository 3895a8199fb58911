"""A WebSocket client (RFC 6455), the subset a loopback server needs. Sans-IO.

    client = WebSocketClient("127.0.0.1:9229", "/uuid", random_bytes=secrets.token_bytes, peer="node")
    write(client.initiate())            # the opening handshake
    client.receive_data(bytes_read)     # b"" at EOF
    event = client.next_event()         # Accepted, TextMessage, ..., NEED_DATA or CLOSED
    write(client.data_to_send())        # pongs and the close echo, queued by next_event
    write(client.send_text("..."))

Rules (RFC 6455, sections 5 and 7):
- every frame we send is masked with a fresh 4-byte key; a server's frame must not be masked;
- no extension is negotiated, so the three RSV bits are 0; opcodes 3-7 and 11-15 are refused;
- a message is one text or binary frame, or that frame without FIN and continuation frames up
  to one with FIN; control frames (close, ping, pong) carry at most 125 bytes, are never
  fragmented, and may arrive between the fragments of a message;
- a ping is answered with a pong carrying its payload; a close is echoed with its code
  (unless we sent ours first), after which nothing more is read;
- text is UTF-8, checked once the message is whole; a close's payload is empty or a valid code
  and UTF-8 reason.

Memory stays bounded whatever arrives: a message (all its fragments) longer than `max_message`
is refused from the frame header that announces it, before its payload is buffered, so the
client never holds more than about ``max_message`` bytes of a message plus one frame header and
what one `receive_data` brought. Whatever arrives, `next_event` returns an event or a sentinel
or raises RemoteProtocolError, never anything else; after that error `fail_code` is the close
code to send the peer (1002 protocol error, 1007 bad text, 1009 too big).
"""

from __future__ import annotations

import base64
import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from minitools.protocol._errors import LocalProtocolError, RemoteProtocolError
from minitools.protocol._framing import _Buffer
from minitools.protocol._handshake import check_handshake_response, handshake_request
from minitools.protocol._sentinels import CLOSED, NEED_DATA, Sentinel

__all__ = [
    "Opcode",
    "WebSocketState",
    "WebSocketClient",
    "WebSocketEvent",
    "Accepted",
    "TextMessage",
    "BinaryMessage",
    "Ping",
    "Pong",
    "CloseReceived",
    "encode_frame",
]

_MAX_HEADER = 8 * 1024  # the handshake response's header block
_MAX_CONTROL = 125
# close codes a peer may send (RFC 6455 7.4.1 and the IANA registry); 1005, 1006 and 1015 are
# for reporting only and never on the wire
_VALID_CLOSE = frozenset(range(1000, 1004)) | frozenset(range(1007, 1015)) | frozenset(range(3000, 5000))


class Opcode(enum.IntEnum):
    CONTINUATION = 0x0
    TEXT = 0x1
    BINARY = 0x2
    CLOSE = 0x8
    PING = 0x9
    PONG = 0xA


_OPCODES = frozenset(int(op) for op in Opcode)


class WebSocketState(enum.Enum):
    CONNECTING = "connecting"  # the handshake was sent; its answer not yet read
    OPEN = "open"
    CLOSING = "closing"  # we sent a close; the peer's is awaited
    CLOSED = "closed"  # the peer's close arrived (or the stream ended): nothing more is read
    FAILED = "failed"  # the peer broke the protocol


@dataclass(frozen=True)
class Accepted:
    """The server accepted the handshake; its headers, names in lower case."""

    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TextMessage:
    text: str


@dataclass(frozen=True)
class BinaryMessage:
    data: bytes


@dataclass(frozen=True)
class Ping:
    """The peer pinged; the pong is already queued in `data_to_send`."""

    payload: bytes


@dataclass(frozen=True)
class Pong:
    payload: bytes


@dataclass(frozen=True)
class CloseReceived:
    """The peer's close frame: `code` None when it carried none (reported as 1005)."""

    code: int | None
    reason: str = ""

    def __post_init__(self) -> None:
        if self.code is not None and self.code not in _VALID_CLOSE:
            raise LocalProtocolError(f"{self.code} is not a close code a peer may send")


WebSocketEvent = Accepted | TextMessage | BinaryMessage | Ping | Pong | CloseReceived


def _mask(data: bytes | bytearray | memoryview, key: bytes) -> bytes:
    """`data` XOR the repeated 4-byte `key` (masking and unmasking are the same step)."""
    n = len(data)
    if n == 0:
        return b""
    stream = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(n, "big")


def encode_frame(opcode: int, payload: bytes, *, fin: bool = True, mask: bytes | None = None, rsv: int = 0) -> bytes:
    """One frame: masked with the 4-byte `mask` when given (a client's), bare otherwise (a server's).
    `rsv` sets the three reserved bits as they stand in the first byte (tests of a bad peer)."""
    if mask is not None and len(mask) != 4:
        raise LocalProtocolError(f"a masking key is 4 bytes, not {len(mask)}")
    n = len(payload)
    first = (0x80 if fin else 0) | (rsv & 0x70) | (opcode & 0x0F)
    bit = 0x80 if mask is not None else 0
    if n < 126:
        head = bytes([first, bit | n])
    elif n < 1 << 16:
        head = bytes([first, bit | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([first, bit | 127]) + n.to_bytes(8, "big")
    if mask is None:
        return head + payload
    return head + mask + _mask(payload, mask)


class WebSocketClient(_Buffer):
    """The client side of one WebSocket connection to `host` (``name:port``) at `path`.

    `random_bytes(n)` gives n unpredictable bytes (``secrets.token_bytes``; the RFC wants the
    handshake key and every masking key unpredictable): the handshake key is base64 of 16 of
    them unless `key` is given, and each frame's mask is 4. Tests give fixed bytes.
    """

    def __init__(self, host: str, path: str = "/", *, random_bytes: Callable[[int], bytes], peer: str = "peer",
                 max_message: int = 64 * 2**20, key: bytes | None = None) -> None:
        self.peer = peer
        self.host = host
        self.path = path
        self.max_message = max_message
        self.key = key if key is not None else base64.b64encode(random_bytes(16))
        self._mask_key = random_bytes
        self.state = WebSocketState.CONNECTING
        self.close_code: int | None = None  # the peer's close code, once its close arrived
        self.fail_code: int | None = None  # the close code to send after a RemoteProtocolError
        self._buf = bytearray()
        self._pos = 0
        self._eof = False
        self._out = bytearray()
        self._message: bytearray | None = None  # the fragments of a message in progress
        self._message_text = False
        self._close_sent = False

    @property
    def buffered(self) -> int:
        """Bytes received and not yet parsed, plus the fragments of a message in progress."""
        return len(self._buf) - self._pos + (len(self._message) if self._message is not None else 0)

    def initiate(self) -> bytes:
        """The opening handshake to write first."""
        return handshake_request(self.host, self.path, self.key)

    # Receiving ------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Add bytes from the peer; ``b""`` marks the end of the stream."""
        if data and self.state is WebSocketState.CLOSED and not self._eof:
            return  # nothing is read after the peer's close
        super().receive_data(data)

    def next_event(self) -> WebSocketEvent | Sentinel:
        """The next event, `NEED_DATA`, or `CLOSED` (the peer's close was read, or the stream
        ended between messages)."""
        try:
            if self.state is WebSocketState.FAILED:
                raise LocalProtocolError("next_event called after the peer broke the protocol")
            if self.state is WebSocketState.CLOSED:
                return CLOSED
            if self.state is WebSocketState.CONNECTING:
                return self._read_handshake()
            return self._read_frames()
        except RemoteProtocolError:
            self.state = WebSocketState.FAILED
            self.fail_code = self.fail_code or 1002
            raise

    def data_to_send(self) -> bytes:
        """The replies `next_event` queued (pongs, the close echo); empty when there are none."""
        out, self._out = bytes(self._out), bytearray()
        return out

    def _error(self, message: str, code: int = 1002) -> RemoteProtocolError:
        self.fail_code = code
        return RemoteProtocolError(message, peer=self.peer)

    def _read_handshake(self) -> Accepted | Sentinel:
        buf, pos = self._buf, self._pos
        end = buf.find(b"\r\n\r\n", pos, pos + _MAX_HEADER + 4)
        if end < 0:
            if len(buf) - pos > _MAX_HEADER:
                raise self._error(f"no end of the handshake response within {_MAX_HEADER} bytes (it began {bytes(buf[pos:pos + 40])!r})")
            if self._eof:
                raise self._error(f"closed the connection before answering the WebSocket handshake ({len(buf) - pos} bytes received"
                                  + (f": {bytes(buf[pos:pos + 80])!r})" if len(buf) > pos else ")"))
            return NEED_DATA
        headers = check_handshake_response(bytes(buf[pos:end]), self.key, self.peer)
        self._pos = end + 4
        self.state = WebSocketState.OPEN
        return Accepted(headers)

    def _read_frames(self) -> WebSocketEvent | Sentinel:
        while True:
            frame = self._next_frame()
            if frame is None:
                return self._incomplete()
            fin, opcode, payload = frame
            if opcode >= Opcode.CLOSE:
                return self._control(opcode, payload)
            if opcode == Opcode.CONTINUATION:
                assert self._message is not None  # _check_length refused a continuation with none begun
                self._message += payload
            else:
                self._message = bytearray(payload)
                self._message_text = opcode == Opcode.TEXT
            if fin:
                whole, self._message = bytes(self._message), None
                return self._finish_message(whole)

    def _finish_message(self, data: bytes) -> TextMessage | BinaryMessage:
        if not self._message_text:
            return BinaryMessage(data)
        try:
            return TextMessage(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise self._error(f"sent a text message that is not UTF-8 ({exc.reason} at byte {exc.start}): it began {data[:60]!r}",
                              1007) from None

    def _next_frame(self) -> tuple[bool, int, bytes] | None:
        """The next whole frame (FIN, opcode, unmasked payload), or None until it is all here."""
        buf, pos = self._buf, self._pos
        have = len(buf) - pos
        if have < 2:
            return None
        first, second = buf[pos], buf[pos + 1]
        fin, opcode, length = bool(first & 0x80), first & 0x0F, second & 0x7F
        if first & 0x70:
            raise self._error(f"set reserved bits {first & 0x70:#04x} in a frame header, but no extension was negotiated")
        if opcode not in _OPCODES:
            raise self._error(f"sent a frame with reserved opcode {opcode:#x}")
        if second & 0x80:
            raise self._error("sent a masked frame; a server's frames are never masked (RFC 6455 5.1)")
        head = 2
        if length == 126:
            head = 4
            if have < head:
                return None
            length = int.from_bytes(buf[pos + 2 : pos + 4], "big")
        elif length == 127:
            head = 10
            if have < head:
                return None
            length = int.from_bytes(buf[pos + 2 : pos + 10], "big")
            if length >> 63:
                raise self._error(f"sent a frame length with its top bit set ({length:#x}); a length has 63 bits")
        self._check_length(fin, opcode, length)
        if have < head + length:
            return None
        payload = bytes(buf[pos + head : pos + head + length])
        self._pos = pos + head + length
        if self._pos == len(buf):
            buf.clear()
            self._pos = 0
        return fin, opcode, payload

    def _check_length(self, fin: bool, opcode: int, length: int) -> None:
        """Refuse a frame from its header, before its payload is buffered."""
        if opcode >= Opcode.CLOSE:
            if not fin:
                raise self._error(f"sent a fragmented {Opcode(opcode).name.lower()} frame; control frames are never fragmented")
            if length > _MAX_CONTROL:
                raise self._error(f"sent a {Opcode(opcode).name.lower()} frame of {length} bytes; a control frame holds at most 125")
            return
        if opcode == Opcode.CONTINUATION and self._message is None:
            raise self._error("sent a continuation frame with no message begun")
        if opcode != Opcode.CONTINUATION and self._message is not None:
            raise self._error(f"began a new {Opcode(opcode).name.lower()} message before finishing the last one")
        so_far = len(self._message) if self._message is not None else 0
        if so_far + length > self.max_message:
            kind = "text" if (self._message_text if self._message is not None else opcode == Opcode.TEXT) else "binary"
            total = f"{so_far} + {length}" if so_far else f"{length}"
            raise self._error(f"sent a {kind} message of {total} bytes, over the limit of {self.max_message} bytes", 1009)

    def _control(self, opcode: int, payload: bytes) -> Ping | Pong | CloseReceived:
        if opcode == Opcode.PING:
            if not self._close_sent:
                self._out += encode_frame(Opcode.PONG, payload, mask=self._mask_key(4))
            return Ping(payload)
        if opcode == Opcode.PONG:
            return Pong(payload)
        event = self._parse_close(payload)
        if not self._close_sent:
            self._out += self._close_frame(event.code, "")
            self._close_sent = True
        self.state = WebSocketState.CLOSED
        self.close_code = event.code
        del self._buf[:]
        self._pos = 0
        self._message = None
        return event

    def _parse_close(self, payload: bytes) -> CloseReceived:
        if not payload:
            return CloseReceived(None)
        if len(payload) == 1:
            raise self._error(f"sent a close frame of 1 byte ({payload!r}); a close code takes 2")
        code = int.from_bytes(payload[:2], "big")
        if code not in _VALID_CLOSE:
            raise self._error(f"sent close code {code}, which is not one a peer may send")
        try:
            reason = payload[2:].decode("utf-8")
        except UnicodeDecodeError:
            raise self._error(f"sent a close reason that is not UTF-8: {payload[2:]!r}", 1007) from None
        return CloseReceived(code, reason)

    def _incomplete(self) -> Sentinel:
        if not self._eof:
            return NEED_DATA
        pending = len(self._buf) - self._pos
        if pending or self._message is not None:
            what = f"{pending} bytes of a frame" if pending else "no frame"
            if self._message is not None:
                what += f", {len(self._message)} bytes of an unfinished message"
            raise self._error(f"closed the connection in the middle of a message ({what} received)")
        self.state = WebSocketState.CLOSED
        return CLOSED

    # Sending --------------------------------------------------------------------------

    def send_text(self, text: str, *, fragment: int | None = None) -> bytes:
        """`text` as a masked text message, in frames of `fragment` bytes when given."""
        return self._message_frames(Opcode.TEXT, text.encode("utf-8"), fragment)

    def send_binary(self, data: bytes, *, fragment: int | None = None) -> bytes:
        """`data` as a masked binary message, in frames of `fragment` bytes when given."""
        return self._message_frames(Opcode.BINARY, bytes(data), fragment)

    def send_ping(self, payload: bytes = b"") -> bytes:
        self._check_can_send("a ping")
        if len(payload) > _MAX_CONTROL:
            raise LocalProtocolError(f"a ping carries at most 125 bytes, not {len(payload)}")
        return encode_frame(Opcode.PING, payload, mask=self._mask_key(4))

    def send_close(self, code: int | None = 1000, reason: str = "") -> bytes:
        """Our close frame (`code` None: a close without a code). The peer's close then ends
        the connection; after a RemoteProtocolError, send ``send_close(client.fail_code)``."""
        if self._close_sent or self.state is WebSocketState.CLOSED:
            raise LocalProtocolError("a close frame was already sent or received")
        if self.state is WebSocketState.CONNECTING:
            raise LocalProtocolError("the handshake has not completed: close the stream instead")
        frame = self._close_frame(code, reason)
        self._close_sent = True
        if self.state is WebSocketState.OPEN:
            self.state = WebSocketState.CLOSING
        return frame

    def _close_frame(self, code: int | None, reason: str) -> bytes:
        if code is None:
            payload = b""
        elif code in _VALID_CLOSE:
            payload = code.to_bytes(2, "big") + reason.encode("utf-8")
        else:
            raise LocalProtocolError(f"{code} is not a close code one may send")
        if len(payload) > _MAX_CONTROL:
            raise LocalProtocolError(f"a close reason takes at most 123 bytes, not {len(payload) - 2}")
        return encode_frame(Opcode.CLOSE, payload, mask=self._mask_key(4))

    def _message_frames(self, opcode: Opcode, payload: bytes, fragment: int | None) -> bytes:
        self._check_can_send(f"a {opcode.name.lower()} message")
        if fragment is not None and fragment < 1:
            raise LocalProtocolError(f"a fragment holds at least 1 byte, not {fragment}")
        step = fragment or max(len(payload), 1)
        chunks = [payload[i : i + step] for i in range(0, len(payload), step)] or [b""]
        return b"".join(encode_frame(opcode if i == 0 else Opcode.CONTINUATION, chunk, fin=i == len(chunks) - 1,
                                     mask=self._mask_key(4))
                        for i, chunk in enumerate(chunks))

    def _check_can_send(self, what: str) -> None:
        if self.state is WebSocketState.CONNECTING:
            raise LocalProtocolError(f"cannot send {what} before the handshake completes")
        if self._close_sent or self.state is not WebSocketState.OPEN:
            raise LocalProtocolError(f"cannot send {what}: the connection is {self.state.value}")
