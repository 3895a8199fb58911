"""A search run on a thread for a tool call, stopped when the call is cancelled: a thread
cannot be interrupted, so the cancel reaches it through the search's budget, which it looks
at between files and inside long matches (match/_budget.py), and through the budget the
shard workers that share the search (match/_pool.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from minitools.match import Budget
from minitools.progress import ProgressState, progress_from

__all__ = ["search_in_thread"]

T = TypeVar("T")


async def search_in_thread(budget: Budget, search: Callable[[], T]) -> T:
    """`search()` on a worker thread; when the awaiting call is cancelled, `budget` is
    cancelled too, so the thread (and the workers) stop at the budget's next look. While it
    runs, the call's progress says how many files it has searched of how many."""
    try:
        with progress_from(lambda: _files(budget)):
            return await asyncio.to_thread(search)
    except asyncio.CancelledError:
        budget.cancel()
        raise


def _files(budget: Budget) -> ProgressState | None:
    """How far the search is: files searched of files to search (once they are collected)."""
    total, done = budget.files_total, min(budget.files_searched, budget.files_total)
    if not total:
        return None
    if not done:
        return f"searching {total} files", None, total
    return f"files searched: {done} of {total}", done, total
