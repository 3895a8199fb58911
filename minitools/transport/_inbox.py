"""The receiving end both connections share: messages queued by a reader task, until the
connection closes with an exception."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

__all__ = ["take_or_raise"]

T = TypeVar("T")


async def take_or_raise(queue: asyncio.Queue[T], closed: asyncio.Future[BaseException]) -> T:
    """The next message in `queue`; once it is empty and `closed` is done, raise its exception."""
    if not queue.empty():
        return queue.get_nowait()
    if closed.done():
        raise closed.result()
    getter = asyncio.ensure_future(queue.get())
    waiters: set[asyncio.Future[Any]] = {getter, closed}
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not getter.done():
            getter.cancel()
    if getter.done() and not getter.cancelled():
        return getter.result()
    raise closed.result()
