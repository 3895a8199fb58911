"""Staged edits: proposed file contents held in the Run until `resolve` accepts or discards them.

Accepting is all or nothing (docs/tools.md, "ast_edit, resolve"): every file is reached from the root
without following a symlink, checked (a regular file, writable, inside the root) and re-read and
compared with the bytes captured at staging time before any is written; each is written through a
temporary file in its own directory (by descriptor) and a rename, keeping its mode; a failure
half-way restores the files already written, so the tree is never left half old and half new.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["StagedFile", "StagedEdit", "EditStore", "StaleEdit", "UnsafeEdit", "WriteFailed", "UnknownEdit"]


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

    def reopen(self, edit: StagedEdit) -> None:
        """Put back an edit whose accept was refused before anything was written (it can be
        accepted again once the cause is fixed)."""
        self._resolved.pop(edit.id, None)
        self._open[edit.id] = edit

    @staticmethod
    def commit(edit: StagedEdit, root: Path, *, force: bool = False) -> None:
        """Write every file of `edit`, or none (UnsafeEdit, StaleEdit, WriteFailed).

        Each file is reached from `root` through directories opened one by one without
        following symlinks, and read and written relative to its directory's descriptor: a
        folder swapped for a symlink after staging is refused, and a swap between the check and
        the write cannot redirect the write. A file that is no longer a regular file (a FIFO),
        or is read-only (unless `force`), is refused."""
        targets: list[_Target] = []
        try:
            problems: list[str] = []
            changed: list[str] = []
            for f in edit.files:
                target, problem = _open_target(f, root, force)
                if target is None:
                    problems.append(f"{f.display} ({problem})")
                    continue
                targets.append(target)
                if target.current != f.original:
                    changed.append(f.display)
            if problems:
                raise UnsafeEdit(problems)
            if changed:
                raise StaleEdit(changed)
            written: list[_Target] = []
            for t in targets:
                try:
                    _replace(t, t.file.new)
                except OSError as exc:
                    restored, unrestored = [], []
                    for done in reversed(written):
                        try:
                            _replace(done, done.file.original)
                            restored.append(done.file.display)
                        except OSError:
                            unrestored.append(done.file.display)
                    raise WriteFailed(t.file.display, exc, restored, unrestored) from exc
                written.append(t)
        finally:
            for t in targets:
                os.close(t.dir_fd)


class UnsafeEdit(Exception):
    """A staged path is no longer one accept may write: it leaves the root, is not a regular
    file, or is read-only. Nothing was written."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class _Target:
    """A staged file as accept reaches it: its directory's descriptor, its name, mode and bytes."""

    file: StagedFile
    dir_fd: int
    name: str
    mode: int
    current: bytes


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def _open_target(f: StagedFile, root: Path, force: bool) -> tuple[_Target | None, str]:
    """`f` reached from `root` without following a symlink, or why it cannot be written."""
    try:
        rel = f.path.relative_to(root)
    except ValueError:
        return None, f"outside the workspace root {root}"
    if not rel.parts:
        return None, "not a file"
    dir_fd = os.open(root, _DIR_FLAGS)
    try:
        for part in rel.parts[:-1]:
            try:
                next_fd = os.open(part, _DIR_FLAGS, dir_fd=dir_fd)
            except OSError as exc:
                if _is_link(part, dir_fd):
                    return None, f"its folder {part!r} is now a symlink, which may lead outside the root"
                return None, f"its folder {part!r}: {(exc.strerror or str(exc)).lower()}"
            os.close(dir_fd)
            dir_fd = next_fd
        name = rel.parts[-1]
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError as exc:
            return None, f"no longer readable: {(exc.strerror or str(exc)).lower()}"
        if not stat.S_ISREG(info.st_mode):
            kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode) else "not a regular file"
            return None, f"now {kind}, not the regular file that was staged"
        mode = stat.S_IMODE(info.st_mode)
        if not force and not mode & stat.S_IWUSR:
            return None, f"read-only (mode {mode:o}); make it writable, or accept with force"
        fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None, "not a regular file"
            current = handle.read(len(f.original) + 1)  # bounded: one byte more tells it changed
        target = _Target(f, dir_fd, name, mode, current)
        dir_fd = -1
        return target, ""
    except OSError as exc:
        return None, f"unreadable: {(exc.strerror or str(exc)).lower()}"
    finally:
        if dir_fd != -1:
            os.close(dir_fd)


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _replace(t: _Target, data: bytes) -> None:
    """Write `data` as `t`'s file: a temporary file in the same directory (by descriptor), then a rename."""
    tmp = f".{t.name}.{os.getpid()}.{os.urandom(4).hex()}.minitools-tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=t.dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), t.mode)
        os.replace(tmp, t.name, src_dir_fd=t.dir_fd, dst_dir_fd=t.dir_fd)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=t.dir_fd)
        raise
