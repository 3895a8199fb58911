"""A server's workspace edit staged for `resolve`, never written here: `lsp_code_action` stages
every edit this way, and `lsp_rename` an edit that creates, renames or deletes files (docs/tools.md,
"lsp_rename"). The proposal is the diff `ast_edit` shows, an `edit_id`, and the file operations
named before anything is written."""

from __future__ import annotations

from typing import Any

from minitools.edits import StagedFile, diff_preview, file_operation, unified_diff
from minitools.lsp import EditError, FileChange, LSPClient, path_to_uri, plan_workspace_edit, read_regular
from minitools.text import plural
from minitools.tools._context import RunContext
from minitools.tools._staged import DIFF_PREVIEW_CHARS
from minitools.toolspec import ToolError, ToolResult

__all__ = ["plan_edit", "propose"]


def plan_edit(ctx: RunContext, client: LSPClient, edit: Any) -> list[FileChange]:
    """A server's workspace edit as file changes under the root, each checked against the text
    the server was given (EditError: outside the root, a version the server did not have, a file
    that changed on disk since the server read it)."""
    versions = {d.uri: d.version for d in client.documents.values()}
    plan = plan_workspace_edit(edit, client.encoding, top=ctx.root, versions=versions)
    for change in plan:
        open_doc = client.documents.get(path_to_uri(change.path))
        if open_doc is not None and change.before is not None and open_doc.text != change.before:
            raise EditError(f"{change.path.name} changed on disk after the server read it")
    return plan


def propose(ctx: RunContext, plan: list[FileChange], title: str, what: str, notes: list[str],
            data: dict[str, Any]) -> ToolResult:
    """Stage `plan` as one edit for resolve, each file checked against the bytes on disk; the
    result shows the diff and names the files the edit creates or deletes. `title` names the
    edit in its summary (an action's title), `what` in messages ('"Move" at a.py:3'); `data` is
    added to the result's data."""
    staged = [_staged(change, ctx.relpath(change.path), what) for change in plan if change.after != change.before]
    if not staged:
        return ToolResult(ok=True, text=f"{what} changes nothing; nothing was staged.",
                          data={**data, "edit_id": None, "replacements": 0, "files": []})
    count = sum(f.replacements for f in staged)
    summary = f"{plural(count, 'edit')} in {plural(len(staged), 'file')} ({title})"
    pending = ctx.edits.stage(staged, summary)
    lines = [f'(proposed) {summary} … call resolve with edit_id "{pending.id}" and action "accept" to '
             'write it, or "discard".']
    operations = [f"{f.display} ({file_operation(f)})" for f in staged if file_operation(f)]
    if operations:
        lines.append(f"files it makes or removes, written only if accepted: {', '.join(operations)}")
    lines.append(diff_preview(unified_diff(staged), DIFF_PREVIEW_CHARS))
    pending.data = {"edit_id": pending.id, **data, "replacements": count,
                    "files": [{"file": f.display, "edits": f.replacements,
                               **({"operation": file_operation(f)} if file_operation(f) else {})} for f in staged]}
    return ToolResult(ok=True, text="\n".join(notes + lines), data=pending.data)


def _staged(change: FileChange, display: str, what: str) -> StagedFile:
    """One planned file change as a staged file, checked against the bytes on disk (a file the
    edit creates must still be absent, one it deletes or renames away still there)."""
    try:
        original: bytes | None = read_regular(change.path)
    except FileNotFoundError:
        original = None
    except OSError as exc:  # a FIFO made meanwhile is never opened (NotRegularFile)
        raise ToolError(f"{what}: {display} cannot be staged: {exc}; nothing was staged.") from None
    if (original is None) != (change.before is None) or (
            original is not None and original.decode("utf-8", errors="replace") != change.before):
        raise ToolError(f"{what}: {display} changed while the edit was computed; nothing was staged. "
                        "Ask again.")
    return StagedFile.of_text(change.path, display, change.before, change.after, change.edits)
