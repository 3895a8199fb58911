"""Every conversation's breakpoints, kept on their code (docs/tools.md, "debug"): file -> its
entries (tools/debug/_breakpoints.py), each file as it read when last looked at, and the
slot's DAP view of them, which a launch sets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitools.dap import DebugSupervisor
from minitools.tools.debug._breakpoints import Entry, entry_text, follow, read_lines, source_specs
from minitools.toolspec import ToolError

__all__ = ["Books", "entry_json"]

LIVE_NOTE = ("The running program runs the code it started with, so its breakpoints stay where they were set; "
             "launch again to run the edited code with the breakpoints where they are now.")


def entry_json(entry: Entry, rel: str) -> dict[str, Any]:
    return {"file": rel, "line": entry.line, "text": entry.text, "symbol": entry.symbol, "function": entry.function,
            **({"running_at": entry.sent} if entry.sent is not None else {}), **entry.options}


class Books:
    """The breakpoints of every conversation of a Run, over its debug supervisor's slots."""

    def __init__(self, sup: DebugSupervisor, relpath: Callable[[str], str]) -> None:
        self.sup = sup
        self.relpath = relpath
        self.books: dict[str, dict[str, list[Entry]]] = {}  # conversation -> file -> entries
        self.seen: dict[str, list[str]] = {}  # a file with breakpoints as it read when last looked at

    def of(self, conversation: str) -> dict[str, list[Entry]]:
        """The conversation's breakpoints: file -> its entries, as given and followed since."""
        return self.books.setdefault(conversation, {})

    def store(self, conversation: str, path: str, entries: list[Entry], lines: list[str]) -> None:
        """`entries` become the breakpoints of `path` (none: cleared), set from its `lines`."""
        self.follow({path}, conversation)  # the other conversations' ones, against the file as it reads now
        book = self.of(conversation)
        if entries:
            book[path] = entries
            self.seen[path] = lines
        else:
            book.pop(path, None)
        self._sync(conversation)

    def follow(self, paths: set[str], conversation: str) -> list[str]:
        """Every conversation's breakpoints in `paths` looked for again (after a write, and before
        a launch: a file may change without the run writing it); what moved or was lost, for
        `conversation`'s and any running session's."""
        notes: list[str] = []
        for path in sorted(paths & {p for book in self.books.values() for p in book}):
            try:
                lines = read_lines(path)
            except ToolError:
                lines = []  # removed or unreadable: every breakpoint in it is lost
            before, self.seen[path] = self.seen.get(path), lines
            for other, book in self.books.items():
                if path not in book:
                    continue
                slot = self.sup.slot(other)
                live = slot.session is not None and slot.session.is_alive
                moved = follow(book[path], path, self.relpath(path), before, lines, live)
                if not book[path]:
                    book.pop(path)
                if moved and live:
                    moved.append(LIVE_NOTE)
                notes += [f"debug: {note}" for note in moved] if other == conversation or live else []
                self._sync(other)
        return notes

    def listing(self, conversation: str) -> tuple[str, list[dict[str, Any]]]:
        """The conversation's breakpoints where they are now, one line each (and as data)."""
        rows, shown = [], []
        for path, entries in self.of(conversation).items():
            rel = self.relpath(path)
            for entry in entries:
                running = f" (the running program has it at line {entry.sent}, from before the edit)" if entry.sent else ""
                rows.append("  " + entry_text(entry, rel) + running)
                shown.append(entry_json(entry, rel))
        return ("\nbreakpoints:\n" + "\n".join(rows) if rows else ""), shown

    def launched(self, conversation: str) -> None:
        """A program started: it runs the code as it is now."""
        for entries in self.of(conversation).values():
            for entry in entries:
                entry.sent = None

    def _sync(self, conversation: str) -> None:
        self.sup.slot(conversation).breakpoints = {path: source_specs(entries, False)
                                                   for path, entries in self.of(conversation).items()}
