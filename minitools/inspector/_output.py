"""The program's output as DAP `output` events: node's stdout and stderr pipes (launch), decoded
as UTF-8 across chunk boundaries, with the inspector's own lines taken out of stderr ("Debugger
listening on ...", "Debugger attached.", "Waiting for the debugger to disconnect..."), which are
node's words to a debugger, not the program's."""

from __future__ import annotations

import asyncio
import codecs
import re
from collections.abc import Callable

__all__ = ["OutputPipe", "INSPECTOR_LINE"]

INSPECTOR_LINE = re.compile(rb"^(Debugger listening on ws://|For help, see: https://nodejs\.org/en/docs/inspector|"
                            rb"Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|Debugger ending on ws://)")
MAX_PARTIAL = 64 * 1024  # bytes of an unfinished stderr line held back before it is sent anyway


class OutputPipe:
    """One pipe of the program: `feed(chunk)` (``b""`` at its end) sends its text to `emit`
    under `category`; with `filter_inspector`, whole lines node writes for a debugger are dropped."""

    def __init__(self, category: str, emit: Callable[[str, str], None], *, filter_inspector: bool = False) -> None:
        self.category = category
        self.emit = emit
        self.filter_inspector = filter_inspector
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._partial = b""
        self.ended = asyncio.get_running_loop().create_future()

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            self._send(self._partial, final=True)
            self._partial = b""
            if not self.ended.done():
                self.ended.set_result(None)
            return
        if not self.filter_inspector:
            self._send(chunk)
            return
        data = self._partial + chunk
        cut = data.rfind(b"\n") + 1
        whole, self._partial = data[:cut], data[cut:]
        if len(self._partial) > MAX_PARTIAL:
            whole, self._partial = data, b""
        kept = b"".join(line for line in whole.splitlines(keepends=True) if not INSPECTOR_LINE.match(line))
        self._send(kept)

    def _send(self, data: bytes, final: bool = False) -> None:
        text = self._decoder.decode(data, final)
        if text:
            self.emit(self.category, text)
