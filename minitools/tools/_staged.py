"""A staged edit as the model reads it: the proposal's summary, the edit_id to resolve, its notes
and its diff cut to a preview; shared by ast_edit, symbol_edit and the language-server edits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minitools.edits import EditStore, StagedFile, diff_preview, unified_diff
from minitools.text import plural
from minitools.toolspec import ToolResult

__all__ = ["DIFF_PREVIEW_CHARS", "stage_proposal"]

DIFF_PREVIEW_CHARS = 6000


def stage_proposal(store: EditStore, staged: Sequence[StagedFile], notes: list[str], data: dict[str, Any]) -> ToolResult:
    """Stage `staged` in the edit store: the proposal's text (its notes, then the diff, cut
    at DIFF_PREVIEW_CHARS) and data (ast_edit's and symbol_edit's proposals)."""
    count = sum(f.replacements for f in staged)
    summary = f"{plural(count, 'replacement')} in {plural(len(staged), 'file')}"
    edit = store.stage(list(staged), summary)
    diff = unified_diff(staged)
    lines = [f'(proposed) {summary} … call resolve with edit_id "{edit.id}" and action "accept" to write it, or "discard".',
             *notes, diff_preview(diff, DIFF_PREVIEW_CHARS, "; data.files lists every replacement.")]
    edit.data = {"edit_id": edit.id, "replacements": count, **data, "diff_chars": len(diff)}
    return ToolResult(ok=True, text="\n".join(lines), data=edit.data)
