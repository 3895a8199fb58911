"""What a session holds of what the adapter sends, bounded whatever it sends: its events (the
latest few, numbered as they came) and the debuggee's output (joined into lines, each line and
the count of lines capped)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EventLog", "OutputBuffer"]


class EventLog:
    """The adapter's events (output aside), numbered from 0 in the order they came. Only the
    latest `keep` are held: a wait looks from a number it took a moment before, and an adapter
    may send any number of events meanwhile."""

    def __init__(self, keep: int = 256) -> None:
        self._held: deque[dict[str, Any]] = deque(maxlen=keep)
        self._count = 0

    def __len__(self) -> int:
        """How many events came so far (the number the next one gets)."""
        return self._count

    def append(self, event: dict[str, Any]) -> None:
        self._held.append(event)
        self._count += 1

    def held(self) -> int:
        """How many events are held now (at most `keep`)."""
        return len(self._held)

    def since(self, number: int) -> list[tuple[int, dict[str, Any]]]:
        """The held events numbered `number` or later, with their numbers, oldest first."""
        first = self._count - len(self._held)
        start = max(number - first, 0)
        return [(first + i, self._held[i]) for i in range(start, len(self._held))]


class OutputBuffer:
    """The debuggee's output since the last `take`, joined into lines, bounded: at most
    `max_lines` lines of at most `max_line` characters each (the rest of a longer line is
    counted, not kept). Each chunk costs its own length: a line that arrives in many chunks is
    joined once, when it ends."""

    def __init__(self, max_lines: int = 500, max_line: int = 2000) -> None:
        self._lines: deque[str] = deque(maxlen=max_lines)
        self.max_line = max_line
        self._partial: dict[str, _Line] = {}
        self.dropped = 0

    def write(self, category: str, text: str) -> None:
        """Append a chunk; chunks are not line-aligned, so a partial line waits for its end."""
        *ended, rest = text.split("\n")
        for piece in ended:
            self._line(category).add(piece, self.max_line)
            self._end(category)
        if rest:
            self._line(category).add(rest, self.max_line)

    def held(self) -> int:
        """Characters held for lines not yet ended (at most `max_line` per category)."""
        return sum(line.kept for line in self._partial.values())

    def _line(self, category: str) -> _Line:
        return self._partial.setdefault(category, _Line())

    def _end(self, category: str) -> None:
        line = self._partial.pop(category)
        if len(self._lines) == self._lines.maxlen:
            self.dropped += 1
        prefix = "" if category in ("stdout", "console") else f"[{category}] "
        self._lines.append(prefix + line.text())

    def take(self) -> tuple[list[str], int]:
        """Lines since the last call (partial lines included) and how many were dropped."""
        for category in list(self._partial):
            self._end(category)
        lines, dropped = list(self._lines), self.dropped
        self._lines.clear()
        self.dropped = 0
        return lines, dropped


@dataclass
class _Line:
    """A line being received: its first characters, and how many more were cut."""

    pieces: list[str] = field(default_factory=list)
    kept: int = 0
    cut: int = 0

    def add(self, piece: str, cap: int) -> None:
        room = cap - self.kept
        if room > 0 and piece:
            self.pieces.append(piece[:room])
            self.kept += min(len(piece), room)
        self.cut += max(0, len(piece) - max(room, 0))

    def text(self) -> str:
        text = "".join(self.pieces).rstrip("\r")
        return text + (f"… {self.cut:,} more characters on this line" if self.cut else "")
