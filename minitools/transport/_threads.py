"""A blocking callable run beside the event loop, as `asyncio.to_thread` runs it, except that
every exception it raises reaches the awaiting task: a StopIteration (a callable that calls
`next()` on an exhausted iterator) cannot be set on an asyncio future, so `to_thread` would
leave its caller waiting forever."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["in_thread"]

T = TypeVar("T")


async def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in a worker thread; a StopIteration it raises becomes a RuntimeError."""
    return await asyncio.to_thread(_stop_iteration_as_error, fn, *args)


def _stop_iteration_as_error(fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except StopIteration as exc:
        raise RuntimeError(f"{getattr(fn, '__qualname__', fn)!s} raised StopIteration") from exc
