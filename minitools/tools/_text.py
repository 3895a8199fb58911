"""Small helpers for the text the model reads."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` with its noun, singular for exactly one: "1 file", "3 files", "2 matches"."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
