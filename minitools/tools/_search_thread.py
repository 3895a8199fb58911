"""A search run on a thread for a tool call, stopped when the call is cancelled: a thread
cannot be interrupted, so the cancel reaches it through the search's budget, which it looks
at between files and inside long matches (match/_budget.py), and through the budget the
shard workers that share the search (match/_pool.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from minitools.match import Budget

__all__ = ["search_in_thread"]

T = TypeVar("T")


async def search_in_thread(budget: Budget, search: Callable[[], T]) -> T:
    """`search()` on a worker thread; when the awaiting call is cancelled, `budget` is
    cancelled too, so the thread (and the workers) stop at the budget's next look."""
    try:
        return await asyncio.to_thread(search)
    except asyncio.CancelledError:
        budget.cancel()
        raise
