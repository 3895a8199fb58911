"""A bounded ring of a child's stderr: the last bytes it wrote, never more than `limit`.

A chatty server whose stderr nobody reads blocks on a full pipe (docs/reference.md,
"Framing"), so stderr is always drained, and only its tail is kept for error messages.
"""

from __future__ import annotations

from collections import deque

__all__ = ["StderrRing"]


class StderrRing:
    """Keeps the last `limit` bytes written; `tail()` decodes them for a message."""

    def __init__(self, limit: int = 64 * 1024) -> None:
        self.limit = limit
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self.total = 0  # bytes ever written, kept or not

    def write(self, data: bytes) -> None:
        """Append `data`, dropping the oldest bytes past the limit."""
        if not data:
            return
        self.total += len(data)
        if len(data) >= self.limit:
            self._chunks.clear()
            data = data[-self.limit :]
            self._size = 0
        self._chunks.append(data)
        self._size += len(data)
        while self._size > self.limit:
            head = self._chunks[0]
            excess = self._size - self.limit
            if len(head) <= excess:
                self._chunks.popleft()
                self._size -= len(head)
            else:
                self._chunks[0] = head[excess:]
                self._size -= excess

    def tail(self, max_chars: int = 2000) -> str:
        """The last `max_chars` characters, decoded leniently; lines cut at the front are dropped."""
        text = b"".join(self._chunks).decode("utf-8", errors="replace")
        if len(text) > max_chars:
            text = text[-max_chars:]
            cut = text.find("\n")
            if 0 <= cut < len(text) - 1:
                text = text[cut + 1 :]
        return text.strip()

    def __len__(self) -> int:
        return self._size
