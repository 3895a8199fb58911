"""Small helpers for the text the model reads."""

from __future__ import annotations

__all__ = ["page_note", "plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` with its noun, singular for exactly one: "1 file", "3 files", "2 matches"."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def page_note(total: int, offset: int, shown: int) -> str:
    """How a capped list continues: "" when everything is shown, else "showing 51-100 of 139;
    offset 100 for the next" (or "showing 101-139 of 139" on the last page)."""
    if offset == 0 and shown >= total:
        return ""
    if shown == 0:
        return f"nothing at offset {offset} of {total}; offset 0 starts again"
    end = offset + shown
    return f"showing {offset + 1}-{end} of {total}" + (f"; offset {end} for the next" if end < total else "")
