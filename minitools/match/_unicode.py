"""Text that cannot become source code: JSON may spell a lone surrogate (``"\\ud800"``), which
has no UTF-8 form, so no file can hold it. A pattern, a template, a rule and the code a tool is
given are checked where they are read."""

from __future__ import annotations

import json
import re

__all__ = ["not_unicode"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def not_unicode(text: str) -> str:
    """Why `text` cannot become source code ("" when it can), said for a message that quotes
    the input: 'holds a lone surrogate "\\ud800" at character 3, which is not Unicode text'."""
    found = _SURROGATE.search(text)
    if found is None:
        return ""
    return f"holds a lone surrogate {json.dumps(found.group())} at character {found.start()}, which is not Unicode text"
