"""Columns: LSP counts in the negotiated encoding (UTF-16 code units by default, or UTF-8
bytes, or UTF-32 code points); Python strings count code points. The client converts both
ways itself (docs/reference.md, "Language servers": code-point columns sent as UTF-16 made pyright return null and
clangd pick another symbol after ``héllo😀``).
"""

from __future__ import annotations

__all__ = ["to_lsp_column", "from_lsp_column", "offset_of"]


def to_lsp_column(line: str, column: int, encoding: str) -> int:
    """Code-point `column` of `line` as a column in `encoding`."""
    prefix = line[:column]
    if encoding == "utf-16":
        return len(prefix.encode("utf-16-le")) // 2
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    return len(prefix)


def from_lsp_column(line: str, column: int, encoding: str) -> int:
    """A column in `encoding` as a code-point column of `line` (clamped to the line's end)."""
    if encoding == "utf-32":
        return min(column, len(line))
    units = 0
    for index, char in enumerate(line):
        if units >= column:
            return index
        point = ord(char)
        if encoding == "utf-16":
            units += 2 if point > 0xFFFF else 1
        else:
            units += 1 if point < 0x80 else 2 if point < 0x800 else 3 if point < 0x10000 else 4
    return len(line)


def offset_of(lines: list[str], line: int, column: int, encoding: str) -> int:
    """Code-point offset in the text made of `lines` (each with its line ending) of an LSP position."""
    if line >= len(lines):
        return sum(len(x) for x in lines)
    text = lines[line]
    body = text.rstrip("\r\n")
    return sum(len(x) for x in lines[:line]) + from_lsp_column(body, column, encoding)
