"""Sentinels returned by the framers instead of raising: ordinary outcomes are values."""

from __future__ import annotations

import enum

__all__ = ["Sentinel", "NEED_DATA", "CLOSED"]


class Sentinel(enum.Enum):
    NEED_DATA = "NEED_DATA"  # no complete message buffered yet: feed more bytes
    CLOSED = "CLOSED"  # the peer closed cleanly between messages; nothing more will come

    def __repr__(self) -> str:
        return self.value


NEED_DATA = Sentinel.NEED_DATA
CLOSED = Sentinel.CLOSED
