"""WorkspaceEdit, applied all-or-nothing: both forms (``changes`` and versioned
``documentChanges`` with create/rename/delete), positions converted from the server's
encoding, everything computed in memory first, then written through temp files and
renames, rolled back if any write fails.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools.lsp._columns import from_lsp_column
from minitools.lsp._documents import NotRegularFile, read_regular, uri_to_path
from minitools.lsp._payloads import PeerPayloadError, check_workspace_edit

__all__ = ["GIT_DIR", "EditError", "FileChange", "plan_workspace_edit", "apply_plan", "apply_text_edits", "check_plan"]


# the repository's own folder (hooks, config, objects): no edit a server computes is written there
GIT_DIR = ".git"


class EditError(Exception):
    """The edit cannot be applied as a whole; nothing was written."""


@dataclass
class FileChange:
    """What happens to one path: its text before and after (None = absent)."""

    path: Path
    before: str | None
    after: str | None
    edits: int = 0
    operations: list[str] = field(default_factory=list)


def _line_starts(text: str) -> list[int]:
    # CR, LF and CRLF end a line (LSP "Text Documents"); nothing else does
    return [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


def _offset(text: str, starts: list[int], pos: dict[str, Any], encoding: str) -> int:
    line, col = int(pos["line"]), int(pos["character"])
    if line >= len(starts):
        return len(text)
    begin = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    body = text[begin:end].rstrip("\r\n")
    return begin + from_lsp_column(body, col, encoding)


def _crlf(text: str) -> bool:
    """Whether every line of `text` ends with CRLF (and at least one does)."""
    crlf = text.count("\r\n")
    return crlf > 0 and crlf == text.count("\n") == text.count("\r")


def apply_text_edits(text: str, edits: list[dict[str, Any]], encoding: str, where: str = "") -> str:
    """Apply LSP TextEdits (all relative to `text`); EditError when two overlap. In a text
    whose lines all end with CRLF, the new text's bare LFs become CRLF, as an editor keeps a
    document's line endings."""
    starts = _line_starts(text)
    crlf = _crlf(text)
    spans = []
    for index, edit in enumerate(edits):
        rng = edit["range"]
        a, b = _offset(text, starts, rng["start"], encoding), _offset(text, starts, rng["end"], encoding)
        if b < a:
            raise EditError(f"edit {index} in {where} ends before it starts")
        new = edit.get("newText", "")
        spans.append((a, b, index, re.sub(r"(?<!\r)\n", "\r\n", new) if crlf else new))
    spans.sort(key=lambda s: (s[0], s[1], s[2]))
    for prev, cur in itertools.pairwise(spans):
        if cur[0] < prev[1]:
            raise EditError(f"two edits overlap in {where} (characters {prev[0]}–{prev[1]} and {cur[0]}–{cur[1]})")
    out = []
    last = 0
    for a, b, _, new in spans:
        out.append(text[last:a])
        out.append(new)
        last = b
    out.append(text[last:])
    return "".join(out)


def plan_workspace_edit(edit: dict[str, Any], encoding: str, *, top: Path,
                        versions: dict[str, int] | None = None) -> list[FileChange]:
    """The file changes `edit` makes, computed against the files on disk. Raises EditError
    (quoting the reason) for an edit that does not fit the protocol (a negative position, a
    field of the wrong type: lsp/_payloads.py), a path outside `top` or under its .git/, a stale document version, overlapping
    edits or a resource operation that cannot be done."""
    try:
        check_workspace_edit(edit)
    except PeerPayloadError as exc:
        raise EditError(f"the server sent {exc.what} that does not fit the protocol ({exc.reason})") from None
    versions = versions or {}
    state: dict[Path, FileChange] = {}

    def inside(uri: str) -> Path:
        path = Path(os.path.realpath(uri_to_path(uri)))
        if path != top and top not in path.parents:
            raise EditError(f"the edit touches {path}, outside the workspace root {top}")
        if GIT_DIR in path.relative_to(top).parts:
            raise EditError(f"the edit touches {path.relative_to(top)}, under {GIT_DIR}/, which minitools never writes")
        return path

    def entry(path: Path) -> FileChange:
        if path not in state:
            before = _read(path)
            state[path] = FileChange(path, before, before)
        return state[path]

    def text_edit(uri: str, edits: list[dict[str, Any]], version: int | None) -> None:
        path = inside(uri)
        change = entry(path)
        if change.after is None:
            raise EditError(f"the edit changes {path.name}, which does not exist")
        known = versions.get(uri)
        if version is not None and known is not None and version != known:
            raise EditError(f"the edit was computed for version {version} of {path.name}, but version {known} is current")
        change.after = apply_text_edits(change.after, edits, encoding, path.name)
        change.edits += len(edits)

    if edit.get("documentChanges") is not None:
        for op in edit["documentChanges"]:
            kind = op.get("kind")
            options = op.get("options") or {}
            if kind is None:
                doc = op["textDocument"]
                text_edit(doc["uri"], op.get("edits", []), doc.get("version"))
            elif kind == "create":
                change = entry(inside(op["uri"]))
                if change.after is not None and not options.get("overwrite"):
                    if options.get("ignoreIfExists"):
                        continue
                    raise EditError(f"the edit creates {change.path.name}, which already exists")
                change.after = ""
                change.operations.append("create")
            elif kind == "rename":
                old, new = entry(inside(op["oldUri"])), entry(inside(op["newUri"]))
                if old.after is None:
                    raise EditError(f"the edit renames {old.path.name}, which does not exist")
                if new.after is not None and not options.get("overwrite"):
                    if options.get("ignoreIfExists"):
                        continue
                    raise EditError(f"the edit renames {old.path.name} onto {new.path.name}, which exists")
                new.after, old.after = old.after, None
                old.operations.append(f"renamed to {new.path.name}")
                new.operations.append(f"renamed from {old.path.name}")
            elif kind == "delete":
                change = entry(inside(op["uri"]))
                if change.after is None:
                    if options.get("ignoreIfNotExists"):
                        continue
                    raise EditError(f"the edit deletes {change.path.name}, which does not exist")
                change.after = None
                change.operations.append("delete")
            else:
                raise EditError(f"unknown resource operation {kind!r}")
    for uri, edits in (edit.get("changes") or {}).items():
        text_edit(uri, edits, None)
    return [c for c in state.values() if c.after != c.before or c.operations]


def _read(path: Path) -> str | None:
    """The file's text as it is on disk, line endings included (None: absent). A FIFO or any
    other special file is refused, never opened for reading (it would block)."""
    try:
        data = read_regular(path)
    except FileNotFoundError:
        return None
    except NotRegularFile as exc:
        raise EditError(f"{path.name} is {exc.kind}, not a regular file; nothing was written") from None
    except OSError as exc:
        raise EditError(f"{path.name} cannot be read ({(exc.strerror or str(exc)).lower()}); nothing was written") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EditError(f"{path.name} is not UTF-8 text (byte {exc.start}); nothing was written") from None


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def check_plan(changes: list[FileChange]) -> None:
    """EditError when a file no longer holds what the plan read, or is read-only."""
    for change in changes:
        now = _read(change.path)
        if now != change.before:
            raise EditError(f"{change.path.name} changed on disk while the edit was prepared; nothing was written")
        mode = stat.S_IMODE(change.path.stat().st_mode) if now is not None else 0o200
        if not mode & stat.S_IWUSR:  # as an editor would: a read-only file is not silently replaced
            raise EditError(f"{change.path.name} is read-only (mode {mode:o}); make it writable and try again; nothing was written")


def apply_plan(changes: list[FileChange]) -> None:
    """Write `changes`: first check them (`check_plan`), then write each through a temp file
    and rename; on a failure restore what was written. EditError."""
    check_plan(changes)
    done: list[FileChange] = []
    try:
        for change in changes:
            if change.after is None:
                if change.path.exists():
                    change.path.unlink()
            else:
                _write(change.path, change.after)
            done.append(change)
    except OSError as exc:
        for change in reversed(done):
            with contextlib.suppress(OSError):
                if change.before is None:
                    change.path.unlink()
                else:
                    _write(change.path, change.before)
        raise EditError(f"writing {change.path} failed ({exc.strerror or exc}); every file was restored") from None
