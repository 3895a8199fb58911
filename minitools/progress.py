"""What a call is doing while it runs, for whoever tells the person (the MCP server's progress
notifications and task status; docs/architecture.md, "minitools mcp", Progress).

A call that reports is given a `ProgressBoard` (`reporting_to`); the code it runs registers a
source for what it waits on (`progress_from`): a function that says, when asked, what is being
done and how far it is, ``(what, done, total)``, from the real events (a language server's
``$/progress``, the files searched of the files to search, a cell's last output line). Nothing
is pushed: the reporter asks the board as often as it reports (a few times a second at most),
so a source costs nothing between reports. Where nothing reports, `progress_from` does nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator

__all__ = ["ProgressState", "ProgressSource", "ProgressBoard", "reporting_to", "progress_from"]

# what is being done, how much of it is done, and of how much (None where it is not counted)
ProgressState = tuple[str, "int | None", "int | None"]
ProgressSource = Callable[[], "ProgressState | None"]

_BOARD: contextvars.ContextVar[ProgressBoard | None] = contextvars.ContextVar("minitools_progress", default=None)


class ProgressBoard:
    """What one call is doing: the innermost source that says something wins."""

    def __init__(self) -> None:
        self._sources: list[ProgressSource] = []

    def now(self) -> ProgressState | None:
        """The state the innermost source gives (a source that fails is passed over)."""
        for source in reversed(self._sources):
            try:
                state = source()
            except Exception:  # noqa: BLE001 - a source reads live state; it must never break the call
                continue
            if state is not None and state[0]:
                return state
        return None

    def add(self, source: ProgressSource) -> None:
        self._sources.append(source)

    def remove(self, source: ProgressSource) -> None:
        with contextlib.suppress(ValueError):
            self._sources.remove(source)


@contextlib.contextmanager
def reporting_to(board: ProgressBoard) -> Iterator[ProgressBoard]:
    """Run the block (and the tasks it starts) with `board` as where progress goes."""
    token = _BOARD.set(board)
    try:
        yield board
    finally:
        _BOARD.reset(token)


@contextlib.contextmanager
def progress_from(source: ProgressSource) -> Iterator[None]:
    """While the block runs, `source` says what the call is doing (when something reports it)."""
    board = _BOARD.get()
    if board is None:
        yield
        return
    board.add(source)
    try:
        yield
    finally:
        board.remove(source)
