"""Budget: what one search may spend (docs/tools.md, "ast_grep": "Limits").

A search builds at most `max_results` matches (the rest are only counted: no text, no
captures), counts at most `count_limit` candidates past that cap (beyond, the total is "at
least"), and ends early, with what it found so far and a note saying so, once it has run for
`seconds` or grown the process by `memory_bytes`, or once it is cancelled (`cancel()`, from
another thread: the call it serves was cancelled). The budget crosses into forked children and
shard workers as plain numbers: the deadline is on the machine's monotonic clock, and each
process measures its own growth; a cancel reaches a shard worker through its pipe
(match/_pool.py), through the hooks `on_cancel` registers.
"""

from __future__ import annotations

import os
import time
from _thread import _local as _ThreadLocal  # threading.local, without the threading module
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

__all__ = ["Budget", "DEFAULT_SECONDS", "DEFAULT_MEMORY_BYTES", "DEFAULT_COUNT_LIMIT", "OutOfBudget", "WATCHED", "charge",
           "watched"]

DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_BYTES = 1 << 30
# candidates verified past the cap before the total becomes "at least": about a second's work
DEFAULT_COUNT_LIMIT = 200_000
CHECK_EVERY = 1024  # candidates between two looks at the clock and the memory
MEMORY_EVERY = 0.01  # seconds between two looks at the memory
# What parsing costs at worst, per source byte (a dense file of calls, measured: a 1 MiB one
# takes 0.8 s and a 147 MB tree): a parse that could outrun what is left of the budget is
# watched as it goes (`may_overrun`).
TREE_BYTES_PER_BYTE = 160
# the largest text a rule's transformation may build: four times the largest file searched
MAX_BUILT_BYTES = 16 << 20
PARSE_SECONDS_PER_BYTE = 2e-6
WATCH_FROM_BYTES = 64 << 10  # smaller sources are never worth the look
T = TypeVar("T")


def _rss() -> int:
    """This process's resident memory now, in bytes (its peak where /proc is absent)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if os.uname().sysname == "Darwin" else peak * 1024


def _amount(size: int) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.3g} {unit}"
    return f"{size} bytes"


class Budget:
    """The bounds of one search call; `start()` it when the call begins (again in each
    process that searches a share, which then measures its own memory growth)."""

    __slots__ = ("max_results", "seconds", "memory_bytes", "count_limit", "deadline", "_base", "_next_look", "stopped",
                 "counted", "exact", "cancelled", "_hooks", "files_total", "files_searched")

    def __init__(
        self,
        *,
        max_results: int | None = None,
        seconds: float | None = DEFAULT_SECONDS,
        memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
        count_limit: int = DEFAULT_COUNT_LIMIT,
    ) -> None:
        """`max_results`: matches built (None: all); `seconds` and `memory_bytes`: when the
        search stops (None: never); `count_limit`: candidates counted past the cap."""
        self.max_results = max_results
        self.seconds = seconds
        self.memory_bytes = memory_bytes
        self.count_limit = count_limit
        self.deadline: float | None = None
        self._base = 0
        self._next_look = 0.0
        self.stopped: str | None = None  # why the search stopped early, once it has
        self.counted = 0  # candidates verified past the cap, only to be counted
        self.exact = True  # False once counting stopped at count_limit: totals are "at least"
        self.cancelled = False  # set by `cancel`, from any thread; `start` keeps it
        self._hooks: list[Callable[[], None]] = []
        # files this search is to look at, and has looked at in this process, for a progress report
        self.files_total = 0
        self.files_searched = 0

    def cancel(self) -> None:
        """End the search at its next look at the budget, here and (through the hooks) in the
        processes it shared the work with; safe from any thread."""
        self.cancelled = True
        for hook in list(self._hooks):
            hook()

    def on_cancel(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Call `hook` when the budget is cancelled (at once if it is already); returns what
        takes the hook off again."""
        self._hooks.append(hook)
        if self.cancelled:
            hook()
        return lambda: self._hooks.remove(hook) if hook in self._hooks else None

    def start(self) -> Budget:
        """Begin the clock (unless a parent process began it) and the memory baseline."""
        if self.deadline is None and self.seconds is not None:
            self.deadline = time.monotonic() + self.seconds
        self._base = _rss() if self.memory_bytes is not None else 0
        self._next_look = time.monotonic() + MEMORY_EVERY
        self.stopped = None
        self.counted = 0
        self.exact = True
        return self

    def spent(self) -> bool:
        """Whether the time or the memory ran out; `stopped` then says which, as a note."""
        if self.stopped is not None:
            return True
        if self.cancelled:
            self.stopped = "cancelled"
            return True
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            self.stopped = f"stopped after {self.seconds:g} s"
        elif self.memory_bytes is not None and now >= self._next_look:
            # reading the process's memory costs ~10 µs: at most every MEMORY_EVERY seconds
            self._next_look = now + MEMORY_EVERY
            if _rss() - self._base > self.memory_bytes:
                self.stopped = f"stopped after {_amount(self.memory_bytes)}"
        return self.stopped is not None

    def holds(self, size: int) -> bool:
        """Whether `size` more bytes fit what is left of the memory (and the time has not run
        out); `stopped` says why not."""
        if self.spent():
            return False
        if self.memory_bytes is not None and _rss() - self._base + size > self.memory_bytes:
            self.stopped = f"stopped after {_amount(self.memory_bytes)}"
            return False
        return True

    def may_overrun(self, size: int) -> bool:
        """Whether parsing `size` bytes could, at worst, take more time or memory than is left."""
        if size < WATCH_FROM_BYTES:
            return False
        if self.deadline is not None and time.monotonic() + size * PARSE_SECONDS_PER_BYTE > self.deadline:
            return True
        return self.memory_bytes is not None and _rss() - self._base + size * TREE_BYTES_PER_BYTE > self.memory_bytes

    def __getstate__(self) -> tuple[object, ...]:
        return (self.max_results, self.seconds, self.memory_bytes, self.count_limit, self.deadline)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        self.max_results, self.seconds, self.memory_bytes, self.count_limit, self.deadline = state  # type: ignore[assignment]
        self._base = 0
        self._next_look = 0.0
        self.stopped = None
        self.counted = 0
        self.exact = True
        self.cancelled = False
        self._hooks = []
        self.files_total = self.files_searched = 0  # a shard's own count; the caller's progress is its own

    def watch(self, candidates: Iterable[T], capped: Callable[[], bool]) -> Iterator[T]:
        """`candidates`, until the time or memory runs out, or until `count_limit` of them
        have been taken while `capped()` (the matches past the cap are only counted)."""
        for k, node in enumerate(candidates):
            if capped():
                self.counted += 1
                if self.counted > self.count_limit:
                    self.exact = False
                    return
            if k % CHECK_EVERY == CHECK_EVERY - 1 and self.spent():
                return
            yield node


class OutOfBudget(Exception):
    """The budget ran out in the middle of one node's match (a pattern whose `$$$` runs can
    be split in very many ways): the search ends there, `stopped` saying why."""


class _Watched(_ThreadLocal):
    """The budget of the search this thread runs, which the matcher looks at every
    MATCH_STEPS steps of its backtracking (a single match can outlast a whole budget)."""

    budget: Budget | None = None
    steps = 0


WATCHED = _Watched()
MATCH_STEPS = 4096


def charge(size: int) -> None:
    """Before a rule builds a text of `size` bytes (a transformation's result): OutOfBudget
    when the watched budget's time has run out or its memory cannot hold that much more, so
    what a rule's `transform` makes counts in the search's budget like what the search finds;
    and past MAX_BUILT_BYTES whatever the budget."""
    budget = WATCHED.budget
    if size > MAX_BUILT_BYTES:
        why = (f"stopped where a rule's transformation would make a text of {_amount(size)} "
               f"(more than {_amount(MAX_BUILT_BYTES)})")
        if budget is not None:
            budget.stopped = why
        raise OutOfBudget(why)
    if budget is not None and not budget.holds(size):
        raise OutOfBudget(budget.stopped)


def watched(budget: Budget | None, run: Callable[[], T]) -> T | None:
    """`run()` with `budget` watched inside each match; None when it ran out there."""
    outer, WATCHED.budget = WATCHED.budget, budget
    try:
        return run()
    except OutOfBudget:
        return None
    finally:
        WATCHED.budget = outer
