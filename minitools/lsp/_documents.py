"""What the server was last sent of each file, so that a file changed on disk by anything
(another tool, a shell command, the user) is re-synced before the next query."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

__all__ = ["Document", "path_to_uri", "uri_to_path", "disk_stamp", "split_lines"]

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
