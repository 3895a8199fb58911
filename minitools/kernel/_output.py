"""A cell's output on the host: ordered text capped to head + tail, the full text spilled to
a file once it passes the cap, and the images the cell displayed (docs/tools.md, "eval":
output is capped, head and tail kept, with the full text saved to a file named in the result)."""

from __future__ import annotations

import base64
import collections
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools.states import NamedState

__all__ = ["CellOutput", "SavedOutputs", "CellOutcome", "CellStatus", "text_of", "exit_description", "KEPT_OUTPUTS"]

KEPT_OUTPUTS = 20  # cells whose saved output is kept on disk, the latest

_IMAGE_MIMES = ("image/png", "image/jpeg", "image/gif", "image/webp")


MAX_SAVED = 64 << 20  # characters of one cell's output saved to its file; a cell may print forever


class CellOutput:
    """Everything a cell printed or displayed, in order, with bounded memory, and on disk at
    most `max_saved` characters of it."""

    def __init__(self, limit: int, spill_path: Path, max_images: int = 20, max_saved: int = MAX_SAVED) -> None:
        self.limit = max(limit, 200)
        self.spill_path = spill_path
        self.max_saved = max_saved
        self.saved = 0  # characters written to the file
        self.max_images = max_images
        self.total = 0
        self._head: list[str] = []
        self._head_size = 0
        self._tail: collections.deque[str] = collections.deque()
        self._tail_size = 0
        self._spill: Any = None
        self.images: list[tuple[str, bytes]] = []
        self.images_dropped = 0
        self.displays: list[dict[str, Any]] = []

    # Text ---------------------------------------------------------------------------

    def write(self, text: str) -> None:
        if not text:
            return
        self.total += len(text)
        if self._spill is None and self.total > self.limit:
            self._start_spill()
        if self._spill is not None:
            self._save(text)
        half = self.limit // 2
        if self._head_size < half:
            take = text[: half - self._head_size]
            self._head.append(take)
            self._head_size += len(take)
            text = text[len(take):]
        if text:
            self._tail.append(text)
            self._tail_size += len(text)
            while self._tail and self._tail_size - len(self._tail[0]) >= half:
                self._tail_size -= len(self._tail.popleft())

    def last_line(self, chars: int = 120) -> str:
        """The last line printed that has something on it (cut to `chars`), or ""."""
        recent: list[str] = []
        size = 0
        for part in (*reversed(self._tail), *reversed(self._head)):  # printed pieces, newest first
            recent.append(part)
            size += len(part)
            if size >= 4 * chars:
                break
        for line in reversed("".join(reversed(recent))[-4 * chars:].splitlines()):
            if line.strip():
                line = line.strip()
                return line if len(line) <= chars else line[:chars - 3] + "..."
        return ""

    def _start_spill(self) -> None:
        self.spill_path.parent.mkdir(parents=True, exist_ok=True)
        self._spill = open(self.spill_path, "w", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed in close()
        self._save("".join(self._head) + "".join(self._tail))

    def _save(self, text: str) -> None:
        room = self.max_saved - self.saved
        if room > 0:
            self._spill.write(text[:room])
            self.saved += min(len(text), room)

    @property
    def is_capped(self) -> bool:
        return self._spill is not None

    def saved_note(self) -> str:
        """Where the output is kept: "the full output (N characters) is in FILE", or, past
        `max_saved`, which part of it is."""
        if self.saved >= self.total:
            return f"the full output ({self.total} characters) is in {self.spill_path}"
        return (f"the first {self.saved} of its {self.total} characters are in {self.spill_path} "
                "(no more is saved)")

    def text(self) -> str:
        """The text the model reads: all of it, or head + marker + tail when capped."""
        head = "".join(self._head)
        tail = "".join(self._tail)
        if not self.is_capped:
            return head + tail
        half = self.limit // 2
        tail = tail[-half:]
        cut = self.total - len(head) - len(tail)
        return f"{head}\n\n... [{cut} characters cut; {self.saved_note()}] ...\n\n{tail}"

    def close(self) -> None:
        if self._spill is not None and not self._spill.closed:
            self._spill.close()

    # Display ------------------------------------------------------------------------

    def display(self, bundle: dict[str, Any]) -> None:
        """One display item: images go to `images`, its text into the ordered text."""
        data = bundle.get("data") or {}
        mimes = sorted(data)
        self.displays.append({"mimes": mimes})
        image = next((m for m in _IMAGE_MIMES if m in data), None)
        if image is not None:
            if len(self.images) < self.max_images:
                try:
                    self.images.append((image, base64.b64decode(data[image])))
                    label = data.get("text/plain", "")
                    self.write(f"[image {len(self.images)}: {image}{' ' + label if label else ''}]\n")
                    return
                except (ValueError, TypeError):
                    pass
            else:
                self.images_dropped += 1
                self.write(f"[image not returned: more than {self.max_images} images in one cell]\n")
                return
        self.write(text_of(data) + "\n")


class SavedOutputs:
    """The files in `folder` that cells save their output to past its cap, one per cell: the
    files of the cells before the last KEPT_OUTPUTS are removed, so a Run's saved output stays
    bounded."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._made = 0
        self._kept: collections.deque[Path] = collections.deque()

    def new(self, language: str, limit: int) -> CellOutput:
        """A cell's output, saved past `limit` characters to a file of its own."""
        self._made += 1
        path = self.folder / f"{language}-output-{self._made}.txt"
        self._kept.append(path)
        while len(self._kept) > KEPT_OUTPUTS:
            self._kept.popleft().unlink(missing_ok=True)
        return CellOutput(limit, path)


def text_of(data: dict[str, Any]) -> str:
    """The one text a model reads from a MIME bundle: markdown, then plain text, then HTML
    when the plain text is only a default `<object at 0x...>` repr."""
    plain = data.get("text/plain")
    if "text/markdown" in data:
        return str(data["text/markdown"])
    if isinstance(plain, str) and not (plain.startswith("<") and " at 0x" in plain and "text/html" in data):
        return plain
    for mime in ("text/html", "image/svg+xml", "text/latex", "application/json"):
        if mime in data:
            return str(data[mime])
    return str(plain) if plain is not None else f"[output of type {', '.join(sorted(data))}]"


class CellStatus(NamedState):
    """How a cell ended."""

    OK = "ok"
    ERROR = "error"  # the cell raised
    INTERRUPTED = "interrupted"  # stopped by SIGINT, state kept
    KILLED = "killed"  # did not stop: the kernel was killed and its state lost
    DIED = "died"  # the kernel exited or crashed on its own; state lost

    @classmethod
    def reported(cls, value: object) -> CellStatus:
        """The status a worker reported; one it has no name for is an error."""
        try:
            return cls(value)
        except ValueError:
            return cls.ERROR


@dataclass
class CellOutcome:
    """What running one cell came to (`status`: CellStatus)."""

    status: CellStatus
    output: CellOutput
    value: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    exit_code: int | None = None
    last_words: str = ""
    bridge_calls: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def state_lost(self) -> bool:
        return self.status in (CellStatus.KILLED, CellStatus.DIED)


def exit_description(code: int | None) -> str:
    """`exit code 3`, or `killed by signal SIGSEGV` for a negative code."""
    if code is None:
        return "exit status unknown"
    if code < 0:
        import signal

        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"

