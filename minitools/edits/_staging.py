"""Staged edits: proposed file contents held in the Run until `resolve` accepts or discards them.

Accepting is all or nothing (docs/tools.md, "ast_edit, resolve"): every file is reached from the root
without following a symlink, checked (a regular file, writable, inside the root and not under its
.git/) and re-read and
compared with the bytes captured at staging time before any is written; each is written through a
temporary file in its own directory (by descriptor) and a rename, keeping its mode; a failure
half-way restores the files already written, so the tree is never left half old and half new.
A staged file may also be one the edit creates (it must still be absent; missing folders are
made one by one, by descriptor) or deletes (a language server's file operations).
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["StagedFile", "StagedEdit", "EditStore", "StaleEdit", "UnsafeEdit", "WriteFailed", "UnknownEdit"]


@dataclass(frozen=True)
class StagedFile:
    path: Path
    display: str
    original: bytes | None  # None: not there; the edit creates it
    new: bytes | None  # None: the edit deletes it
    replacements: int

    @classmethod
    def of_text(cls, path: Path, display: str, before: str | None, after: str | None, replacements: int) -> StagedFile:
        """A file change given as text (None: absent before, so created; absent after, so deleted)."""
        return cls(path, display, None if before is None else before.encode("utf-8"),
                   None if after is None else after.encode("utf-8"), replacements)


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


_COMMITTING = threading.Lock()  # held from the first file's check to the last file's write


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

    def settle(self, edit_id: str, how: str) -> None:
        """Record how a taken edit ended (its accept was rejected, or done), for later errors."""
        self._resolved[edit_id] = how

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
        or is read-only (unless `force`), is refused. A file to create that exists by now is
        stale; its missing folders are made at the write (and removed again on a failure).
        Files are written before any is deleted (a renamed file's new name first). One edit is
        committed at a time: two edits of the same file accepted at once would both find it
        unchanged, and the second write would undo the first."""
        with _COMMITTING:
            EditStore._commit(edit, root, force=force)

    @staticmethod
    def _commit(edit: StagedEdit, root: Path, *, force: bool) -> None:
        targets: list[_Target] = []
        made: list[tuple[int, str]] = []  # folders made: (the parent's descriptor, the name)
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
            for t in sorted(targets, key=lambda t: t.file.new is None):
                try:
                    _make_folders(t, made)
                    _put(t, t.file.new)
                except OSError as exc:
                    restored, unrestored = [], []
                    for done in reversed(written):
                        try:
                            _put(done, done.file.original)
                            restored.append(done.file.display)
                        except OSError:
                            unrestored.append(done.file.display)
                    for parent, name in reversed(made):
                        with contextlib.suppress(OSError):
                            os.rmdir(name, dir_fd=parent)
                    raise WriteFailed(t.file.display, exc, restored, unrestored) from exc
                written.append(t)
        finally:
            for t in targets:
                os.close(t.dir_fd)
            for parent, _name in made:
                os.close(parent)


class UnsafeEdit(Exception):
    """A staged path is no longer one accept may write: it leaves the root, is not a regular
    file, or is read-only. Nothing was written."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class _Target:
    """A staged file as accept reaches it: its directory's descriptor (the deepest folder that
    exists, with `missing` the folders below it still to make), its name, mode and bytes
    (mode and bytes None: the file is not there)."""

    file: StagedFile
    dir_fd: int
    name: str
    mode: int | None
    current: bytes | None
    missing: list[str] = field(default_factory=list)


_GIT_DIR = ".git"  # a repository's own folder, or a worktree's .git file: never written
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
    if _GIT_DIR in rel.parts:
        return None, f"under {_GIT_DIR}/, which no minitools tool writes (hooks and config run as code)"
    dir_fd = os.open(root, _DIR_FLAGS)
    try:
        folders = list(rel.parts[:-1])
        while folders:
            part = folders[0]
            try:
                next_fd = os.open(part, _DIR_FLAGS, dir_fd=dir_fd)
            except FileNotFoundError as exc:
                if f.original is None:  # a file to create, in folders to make
                    return _Target(f, os.dup(dir_fd), rel.parts[-1], None, None, folders), ""
                return None, f"its folder {part!r}: {(exc.strerror or str(exc)).lower()}"
            except OSError as exc:
                if _is_link(part, dir_fd):
                    return None, f"its folder {part!r} is now a symlink, which may lead outside the root"
                return None, f"its folder {part!r}: {(exc.strerror or str(exc)).lower()}"
            os.close(dir_fd)
            dir_fd = next_fd
            folders.pop(0)
        name = rel.parts[-1]
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError as exc:
            if f.original is None:
                return _Target(f, os.dup(dir_fd), name, None, None), ""
            return None, f"no longer readable: {(exc.strerror or str(exc)).lower()}"
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
            current = handle.read(len(f.original or b"") + 1)  # bounded: one byte more tells it changed
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


def _make_folders(t: _Target, made: list[tuple[int, str]]) -> None:
    """Make the folders `t`'s file is to be created in, one by one below its descriptor (one
    made meanwhile by another file of the edit is opened, never followed if a symlink)."""
    while t.missing:
        name = t.missing[0]
        try:
            os.mkdir(name, 0o777, dir_fd=t.dir_fd)
            made.append((os.dup(t.dir_fd), name))
        except FileExistsError:
            pass
        fd = os.open(name, _DIR_FLAGS, dir_fd=t.dir_fd)
        os.close(t.dir_fd)
        t.dir_fd = fd
        t.missing.pop(0)


def _put(t: _Target, data: bytes | None) -> None:
    """`t`'s file made to hold `data`, or removed (None)."""
    if data is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(t.name, dir_fd=t.dir_fd)
    else:
        _replace(t, data)


def _replace(t: _Target, data: bytes) -> None:
    """Write `data` as `t`'s file: a temporary file in the same directory (by descriptor), then a
    rename; with `t`'s mode, or for a new file the mode the process's umask gives."""
    tmp = f".{t.name}.{os.getpid()}.{os.urandom(4).hex()}.minitools-tmp"
    mode = 0o600 if t.mode is not None else 0o666
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode, dir_fd=t.dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if t.mode is not None:
                os.fchmod(handle.fileno(), t.mode)
        os.replace(tmp, t.name, src_dir_fd=t.dir_fd, dst_dir_fd=t.dir_fd)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=t.dir_fd)
        raise
