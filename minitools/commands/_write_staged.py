"""Writing a CLI rewrite's staged files: all or none, through the edit store the tools use."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from minitools.edits import EditStore, StagedEdit, StagedFile, StaleEdit, UnsafeEdit, WriteFailed

__all__ = ["write_all_or_none"]


def write_all_or_none(staged: Sequence[StagedFile], root: Path, *, noun: str = "replacements", note: str = "") -> str | None:
    """Write every staged file or none; say how many `noun` went into how many files. Returns
    why nothing was written, or None."""
    try:
        EditStore.commit(StagedEdit("cli", list(staged), ""), root)
    except (StaleEdit, UnsafeEdit, WriteFailed) as exc:
        return f"nothing was written: {exc}"
    count = sum(f.replacements for f in staged)
    print(f"applied {count} {noun} in {len(staged)} files{note}", file=sys.stderr)
    return None
