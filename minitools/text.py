"""Small helpers for the text the model reads."""

from __future__ import annotations

import json
import re

__all__ = ["page_note", "plural", "not_unicode"]

_SURROGATE = re.compile("[\ud800-\udfff]")


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


def not_unicode(text: str) -> str:
    """Why `text` cannot become source code ("" when it can): JSON may spell a lone surrogate
    (``"\\ud800"``), which has no UTF-8 form, so no file can hold it. Said for a message that
    quotes the input: 'holds a lone surrogate "\\ud800" at character 3, which is not Unicode text'."""
    found = _SURROGATE.search(text)
    if found is None:
        return ""
    return f"holds a lone surrogate {json.dumps(found.group())} at character {found.start()}, which is not Unicode text"
