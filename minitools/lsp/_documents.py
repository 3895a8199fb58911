"""What the server was last sent of each file, so that a file changed on disk by anything
(another tool, a shell command, the user) is re-synced before the next query."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

__all__ = ["Document", "path_to_uri", "uri_to_path", "disk_stamp", "split_lines", "NotRegularFile", "file_kind",
           "read_regular", "DocumentTooLarge", "MAX_DOCUMENT_BYTES"]

_EOL = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them: only CR, LF and CRLF end a line (str.splitlines also splits
    on form feeds and U+2028, which would shift every line number after them)."""
    lines = _EOL.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def path_to_uri(path: str | os.PathLike[str]) -> str:
    """A file URI for an absolute path (percent-encoded as servers expect)."""
    return "file://" + quote(os.fspath(path), safe="/:@!$&'()*+,;=-._~")


def uri_to_path(uri: str) -> Path:
    """The local path of a file URI (non-file URIs give their path part)."""
    parsed = urlparse(uri)
    return Path(unquote(parsed.path))


class NotRegularFile(OSError):
    """The path names something other than a regular file (a FIFO, a socket, a device, a
    folder): it is never opened for reading, since reading a FIFO blocks until a writer comes."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path.name} is {kind}, not a regular file")
        self.path = path
        self.kind = kind


# The largest file given to a language server: a 200 MB file took basedpyright past its 4 GB
# heap (it crashed) and the client past 1 GB (the text, its JSON, the framed copy)
MAX_DOCUMENT_BYTES = 32 << 20


class DocumentTooLarge(OSError):
    """The file is larger than a language server is given (MAX_DOCUMENT_BYTES); never read."""

    def __init__(self, path: Path, size: int) -> None:
        self.reason = f"{size:,} bytes, over the {MAX_DOCUMENT_BYTES:,} a language server is given"
        super().__init__(f"{path.name} is {self.reason}")
        self.path = path
        self.size = size


def file_kind(mode: int) -> str:
    """What a stat mode names, in words ("a FIFO", "a folder", ...)."""
    kinds = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISLNK, "a symlink"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def read_regular(path: Path) -> bytes:
    """The bytes of `path`, a regular file: checked before it is opened and again on the open
    descriptor (opened non-blocking, so a FIFO put there in between cannot block the read).
    NotRegularFile for anything else; OSError (FileNotFoundError) when it cannot be read."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, file_kind(mode))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, file_kind(mode))
        return handle.read()


def disk_stamp(path: Path) -> tuple[int, int] | None:
    """(mtime_ns, size) of `path`, or None when it is gone."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


@dataclass
class Document:
    """An open document: the text and version the server has, and the disk stamp it came from."""

    path: Path
    uri: str
    language_id: str
    version: int
    text: str
    stamp: tuple[int, int] | None

    def is_stale(self) -> bool:
        """True when the file on disk may differ from what the server was sent."""
        return disk_stamp(self.path) != self.stamp

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line ending, or "" past the end."""
        lines = split_lines(self.text)
        return lines[number] if 0 <= number < len(lines) else ""
