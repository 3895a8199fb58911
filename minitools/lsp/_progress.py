"""Work a server reports as in progress (``window/workDoneProgress/create`` then
``$/progress`` begin / report / end), kept so that a project-wide answer computed while the
server is still working — clangd's background index, "indexing 5/13" — can wait for it or
be marked as possibly incomplete (docs/tools.md, "Answers while a server indexes").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["WorkProgress", "Work", "MAX_WORK", "SHOWN_WORK"]

# pieces of work kept (the oldest begun is forgotten past it: a server that begins work it never
# ends must not grow without bound), and shown by `describe` (the rest are counted)
MAX_WORK = 100
SHOWN_WORK = 3
_TEXT_CHARS = 120  # a title or message is cut there


@dataclass
class Work:
    """One piece of work the server began and has not ended."""

    title: str
    message: str = ""
    percentage: int | None = None

    def describe(self) -> str:
        text = self.title or "working"
        if self.message:
            text += f" {self.message}"
        elif self.percentage is not None:
            text += f" {self.percentage}%"
        return text


class WorkProgress:
    """The server's work in progress, by token; `wait_idle` waits until none is left."""

    def __init__(self) -> None:
        self.active: dict[Any, Work] = {}
        self.seen = False  # the server has begun some work at least once
        self._changed = asyncio.Event()

    def notify(self, params: Any) -> None:
        """``$/progress``: begin, report or end of one token's work."""
        if not isinstance(params, dict) or not isinstance(params.get("value"), dict):
            return
        token, value = params.get("token"), params["value"]
        if not isinstance(token, (str, int)):
            return
        kind = value.get("kind")
        if kind == "begin":
            self.seen = True
            self.active.pop(token, None)
            self.active[token] = Work(_cut(value.get("title")), _cut(value.get("message")), _percentage(value))
            while len(self.active) > MAX_WORK:
                del self.active[next(iter(self.active))]
        elif kind == "report" and token in self.active:
            work = self.active[token]
            if value.get("message") is not None:
                work.message = _cut(value["message"])
            if _percentage(value) is not None:
                work.percentage = _percentage(value)
        elif kind == "end":
            self.active.pop(token, None)
        else:
            return
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def busy(self) -> bool:
        return bool(self.active)

    def describe(self) -> str:
        """What the server is still doing, e.g. "indexing 5/13" ("" when idle): the first
        `SHOWN_WORK` pieces, and how many more."""
        shown = [work.describe() for work, _ in zip(self.active.values(), range(SHOWN_WORK))]
        more = len(self.active) - len(shown)
        return "; ".join(shown) + (f"; and {more} more" if more else "")

    async def wait_changed(self) -> None:
        """Until the next begin, report or end of any work."""
        await self._changed.wait()

    async def wait_idle(self, timeout: float, gone: Awaitable[Any] | None = None) -> bool:
        """Wait up to `timeout` seconds for every piece of work to end, or for `gone` (the
        connection closing); whether the server is idle."""
        return await self._wait(lambda: not self.active, timeout, gone)

    async def wait_begun(self, timeout: float, gone: Awaitable[Any] | None = None) -> bool:
        """Wait up to `timeout` seconds for the server to begin its first piece of work (a server
        that reports its index only after it has answered the first publish); whether it has."""
        return await self._wait(lambda: self.seen, timeout, gone)

    async def _wait(self, done: Callable[[], bool], timeout: float, gone: Awaitable[Any] | None) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        stop = asyncio.ensure_future(gone) if gone is not None else None
        try:
            while not done() and (stop is None or not stop.done()):
                left = deadline - loop.time()
                if left <= 0:
                    break
                changed = asyncio.ensure_future(self._changed.wait())
                waiters: set[asyncio.Future[Any]] = {changed} | ({stop} if stop is not None else set())
                try:
                    await asyncio.wait(waiters, timeout=left, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    changed.cancel()
        finally:
            if stop is not None:
                stop.cancel()
        return done()


def _cut(text: Any) -> str:
    text = str(text or "")
    return text if len(text) <= _TEXT_CHARS else text[: _TEXT_CHARS - 1] + "…"


def _percentage(value: dict[str, Any]) -> int | None:
    pct = value.get("percentage")
    return int(pct) if isinstance(pct, (int, float)) and not isinstance(pct, bool) else None
