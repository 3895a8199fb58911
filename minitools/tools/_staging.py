"""Staged edits: proposed file contents held in the Run until `resolve` accepts or discards them.

Accepting is all or nothing (docs/tools.md, "ast_edit, resolve"): every file is re-read and compared with the
bytes captured at staging time before any is written; each is written through a temporary file
in its own directory and a rename, keeping its mode; a failure half-way restores the files
already written, so the tree is never left half old and half new.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["StagedFile", "StagedEdit", "EditStore", "StaleEdit", "WriteFailed", "UnknownEdit", "write_atomically"]


@dataclass(frozen=True)
class StagedFile:
    path: Path
    display: str
    original: bytes
    new: bytes
    replacements: int


@dataclass
class StagedEdit:
    id: str
    files: list[StagedFile]
    summary: str
    data: dict[str, object] = field(default_factory=dict)

    @property
    def replacements(self) -> int:
        return sum(f.replacements for f in self.files)


class StaleEdit(Exception):
    """Files changed since the edit was staged; nothing was written."""

    def __init__(self, changed: list[str]) -> None:
        super().__init__(", ".join(changed))
        self.changed = changed


class WriteFailed(Exception):
    """A write failed half-way; what had been written was restored."""

    def __init__(self, display: str, error: OSError, restored: list[str], unrestored: list[str]) -> None:
        super().__init__(f"{display}: {error}")
        self.display = display
        self.error = error
        self.restored = restored
        self.unrestored = unrestored


class UnknownEdit(Exception):
    """No open edit has this id."""


def write_atomically(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write `data` to `path` through a temporary file in the same directory and a rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".minitools-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


class EditStore:
    """The Run's staged edits, each resolvable once."""

    def __init__(self) -> None:
        self._open: dict[str, StagedEdit] = {}
        self._resolved: dict[str, str] = {}  # id -> how it was resolved
        self._counter = 0

    def stage(self, files: list[StagedFile], summary: str) -> StagedEdit:
        self._counter += 1
        edit = StagedEdit(f"edit_{self._counter}", files, summary)
        self._open[edit.id] = edit
        return edit

    def open_ids(self) -> list[str]:
        return list(self._open)

    def take(self, edit_id: str, how: str) -> StagedEdit:
        """Remove and return an open edit; `how` records the resolution for later errors."""
        edit = self._open.pop(edit_id, None)
        if edit is None:
            open_ids = ", ".join(f'"{i}"' for i in self._open) or "none"
            if edit_id in self._resolved:
                raise UnknownEdit(f'edit_id "{edit_id}" was already {self._resolved[edit_id]}; an edit resolves once. Open edits: {open_ids}.')
            raise UnknownEdit(f'no staged edit has edit_id "{edit_id}". Open edits: {open_ids}.')
        self._resolved[edit_id] = how
        return edit

    @staticmethod
    def commit(edit: StagedEdit) -> None:
        """Write every file of `edit`, or none (StaleEdit, WriteFailed)."""
        changed = []
        modes: dict[Path, int] = {}
        for f in edit.files:
            try:
                current = f.path.read_bytes()
                modes[f.path] = stat.S_IMODE(f.path.stat().st_mode)
            except OSError:
                changed.append(f"{f.display} (no longer readable)")
                continue
            if current != f.original:
                changed.append(f.display)
        if changed:
            raise StaleEdit(changed)
        written: list[StagedFile] = []
        for f in edit.files:
            try:
                write_atomically(f.path, f.new, modes[f.path])
            except OSError as exc:
                restored, unrestored = [], []
                for done in reversed(written):
                    try:
                        write_atomically(done.path, done.original, modes[done.path])
                        restored.append(done.display)
                    except OSError:
                        unrestored.append(done.display)
                raise WriteFailed(f.display, exc, restored, unrestored) from exc
            written.append(f)
