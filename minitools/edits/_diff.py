"""How a staged edit reads: its unified diff, a preview cut to a size, and what it does to a file."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from minitools.edits._staging import StagedFile

__all__ = ["diff_preview", "file_operation", "unified_diff"]


def unified_diff(staged: Sequence[StagedFile]) -> str:
    """The unified diff of staged files, LF line ends; a file created comes from /dev/null, a
    file deleted goes to it (as git shows them)."""
    chunks = []
    for f in staged:
        old = (f.original or b"").decode("utf-8").splitlines(keepends=True)
        new = (f.new or b"").decode("utf-8").splitlines(keepends=True)
        before = "/dev/null" if f.original is None else f"a/{f.display}"
        after = "/dev/null" if f.new is None else f"b/{f.display}"
        if not old and not new:  # an empty file made or removed: a header alone says it
            chunks.append(f"--- {before}\n+++ {after}\n")
            continue
        lines = difflib.unified_diff(old, new, fromfile=before, tofile=after)
        chunks.append("".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines))
    return "".join(chunks).replace("\r\n", "\n")


def diff_preview(diff: str, limit: int, more: str = "") -> str:
    """`diff` whole when it fits in `limit` characters, else cut at the last line end before it,
    with a line saying where it was cut (and `more`: where the rest can be read)."""
    if len(diff) <= limit:
        return diff.rstrip("\n")
    cut = diff[:limit].rsplit("\n", 1)[0]
    return f"{cut}\n… diff cut at {len(cut):,} of {len(diff):,} characters{more}"


def file_operation(f: StagedFile) -> str | None:
    """"create" or "delete" for a file an edit makes or removes (a language server's file
    operations), None for one it changes."""
    return "create" if f.original is None else "delete" if f.new is None else None
