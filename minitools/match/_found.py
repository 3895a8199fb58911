"""What a search finds: `NodeMatch` and its `Capture`s, and the `SearchResult` of a search.

A match a search builds holds its file's bytes by reference (one `SourceText` per file) and
byte extents; its text, its captures' texts and its (line, column) positions are computed
when read, so building a match costs the same whatever its size, and nested matches share
one copy of the source instead of each copying its text (docs/tools.md, "How a pattern is read").
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["SourceText", "Capture", "NodeMatch", "SearchResult"]

Point = tuple[int, int]


# UTF-8 continuation bytes: a line's code points are its bytes less these (valid UTF-8)
_CONTINUATION = bytes(range(0x80, 0xC0))
_STEP = 4096  # bytes between the column checkpoints kept for a long line


def _width(chunk: bytes) -> int:
    return len(chunk.translate(None, _CONTINUATION))


class SourceText:
    """One file's bytes, shared by its matches, with the column arithmetic they need.

    A column is counted in code points from the line's start: for ASCII text the byte column;
    otherwise the code points up to the byte, counted from a checkpoint kept every 4 KiB of a
    long line, so a position costs at most 4 KiB of counting however long the line is (a
    dense one-line file would otherwise cost each match its whole line)."""

    __slots__ = ("data", "_ascii", "_marks")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._ascii = data.isascii()
        self._marks: dict[int, list[int]] = {}  # row -> its columns at every _STEP bytes

    def position(self, byte: int, point: Point) -> Point:
        """(line, column), 1-based, of `byte`, which tree-sitter puts at (row, byte column)."""
        row, col = point
        if self._ascii:
            return row + 1, col + 1
        start = byte - col
        if col < _STEP:
            return row + 1, _width(self.data[start:byte]) + 1
        k = col // _STEP
        marks = self._marks.get(row, [0])
        if len(marks) <= k:
            marks = list(marks)  # extended aside and swapped in whole: readers in other threads see either
            while len(marks) <= k:
                j = len(marks)
                marks.append(marks[-1] + _width(self.data[start + (j - 1) * _STEP : start + j * _STEP]))
            self._marks[row] = marks
        return row + 1, marks[k] + _width(self.data[start + k * _STEP : byte]) + 1

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", errors="replace")

    def head(self, start: int, end: int, max_lines: int, width: int | None = None) -> tuple[list[str], int]:
        """The first `max_lines` lines of [start, end), each cut to `width` characters (and
        "…") when given, and how many lines follow them: only what is shown is decoded (a
        match of a whole file, or of one long line, costs what is shown)."""
        data = self.data
        lines: list[str] = []
        pos = start
        while len(lines) < max_lines and pos < end:
            nl = data.find(b"\n", pos, end)
            stop = end if nl == -1 else nl
            if width is None or stop - pos <= width:
                lines.extend(data[pos:stop].decode("utf-8", errors="replace").splitlines() or [""])
            else:
                # 4 bytes a character at most: enough bytes for `width` characters
                shown = data[pos : min(stop, pos + 4 * width)].decode("utf-8", errors="replace")
                lines.append(shown[:width] + "…" if len(shown) > width or stop > pos + 4 * width else shown)
            pos = stop + 1 if nl != -1 else end
        rest = data[pos:end] if pos < end else b""
        more = rest.count(b"\n") + (0 if not rest or rest.endswith(b"\n") else 1)
        if len(lines) > max_lines:  # other line breaks than \n (a lone \r) split it further
            more += len(lines) - max_lines
            lines = lines[:max_lines]
        return lines or [""], more

    def excerpt(self, start: int, end: int, width: int) -> str:
        """[start, end) as text, cut to `width` characters and "…"; decodes no more than that."""
        shown = self.data[start : min(end, start + 4 * width)].decode("utf-8", errors="replace")
        return shown[:width] + "…" if len(shown) > width or end > start + 4 * width else shown

    def __getstate__(self) -> bytes:
        return self.data

    def __setstate__(self, data: bytes) -> None:
        self.__init__(data)  # type: ignore[misc]


class _Span:
    """Bytes [start_byte, end_byte) of a file: its text and 1-based (line, column) positions,
    held as given (`_text`, `_start`, `_end`), or computed when read from `_source`, the
    file's bytes (then `_start`/`_end` are tree-sitter's (row, byte column) points)."""

    __slots__ = ("_text", "_source", "start_byte", "end_byte", "_start", "_end")

    _text: str | None
    _source: SourceText | None
    start_byte: int
    end_byte: int
    _start: Point
    _end: Point

    @property
    def text(self) -> str:
        if self._source is None:
            return self._text or ""
        return self._source.text(self.start_byte, self.end_byte)

    @property
    def start(self) -> Point:
        return self._start if self._source is None else self._source.position(self.start_byte, self._start)

    @property
    def end(self) -> Point:
        return self._end if self._source is None else self._source.position(self.end_byte, self._end)


class Capture(_Span):
    """What one metavariable captured: byte extents, its text and 1-based (line, column)
    positions, columns in code points. `Capture(text, ...)` holds them as given; a search
    builds its captures with `Capture.at`, which computes them when read."""

    __slots__ = ("open_line",)

    def __init__(self, text: str, start_byte: int, end_byte: int, start: Point, end: Point, open_line: bool = False) -> None:
        self._text: str | None = text
        self._source: SourceText | None = None
        self.start_byte = start_byte
        self.end_byte = end_byte
        self._start = start  # with a source: tree-sitter's (row, byte column), else (line, column)
        self._end = end
        # the capture ends in a comment that runs to the end of its line: a rewrite must start
        # what follows it on a new line, or the comment would swallow it
        self.open_line = open_line

    @classmethod
    def at(cls, source: SourceText, start_byte: int, end_byte: int, start_point: Point, end_point: Point,
           open_line: bool = False) -> Capture:
        """The capture of [start_byte, end_byte) of `source`, tree-sitter points at its ends."""
        c = cls(None, start_byte, end_byte, start_point, end_point, open_line)  # type: ignore[arg-type]
        c._source = source
        return c

    def excerpt(self, width: int) -> str:
        """The text cut to `width` characters (and "…"), decoding no more than that."""
        if self._source is None:
            text = self.text
            return text[:width] + "…" if len(text) > width else text
        return self._source.excerpt(self.start_byte, self.end_byte, width)

    def __reduce__(self) -> tuple[object, ...]:
        # a plain tuple of fields: a forked child hands over thousands of these
        return (_capture, (self._text, self._source, self.start_byte, self.end_byte, self._start, self._end, self.open_line))

    def _key(self) -> tuple[object, ...]:
        return (self.start_byte, self.end_byte, self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Capture) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Capture({self.excerpt(60)!r}, {self.start_byte}, {self.end_byte})"

    def to_json(self) -> dict[str, object]:
        start, end = self.start, self.end
        return {
            "text": self.text,
            "start": {"line": start[0], "column": start[1]},
            "end": {"line": end[0], "column": end[1]},
            "start_byte": self.start_byte,
            "end_byte": self.end_byte,
        }


class NodeMatch(_Span):
    """One match: the file (display path), byte extents, its text and 1-based (line, column)
    positions, captures by name (`metavars`; a `$$$` capture also as its nodes in `multi`).
    A search builds its matches with `NodeMatch.at`: the text and positions are computed
    when read, from the file's bytes, which all its matches share."""

    __slots__ = ("path", "language", "metavars", "multi")

    def __init__(self, path: str | None, language: str, start_byte: int, end_byte: int, start: Point, end: Point,
                 text: str, metavars: dict[str, Capture], multi: dict[str, list[Capture]]) -> None:
        self.path = path
        self.language = language
        self._source: SourceText | None = None
        self._text: str | None = text
        self.start_byte = start_byte
        self.end_byte = end_byte
        self._start = start  # with a source: tree-sitter's (row, byte column), else (line, column)
        self._end = end
        self.metavars = metavars
        self.multi = multi

    @classmethod
    def at(cls, path: str | None, language: str, source: SourceText, start_byte: int, end_byte: int,
           start_point: Point, end_point: Point, metavars: dict[str, Capture], multi: dict[str, list[Capture]]) -> NodeMatch:
        """The match of [start_byte, end_byte) of `source`, tree-sitter points at its ends."""
        m = cls(path, language, start_byte, end_byte, start_point, end_point, None, metavars, multi)  # type: ignore[arg-type]
        m._source = source
        return m

    def __reduce__(self) -> tuple[object, ...]:
        return (_node_match, (self.path, self.language, self._source, self._text, self.start_byte, self.end_byte,
                              self._start, self._end, self.metavars, self.multi))

    def _replace(self, **changes: object) -> NodeMatch:
        """A copy with some fields changed (as a NamedTuple's `_replace`)."""
        m = NodeMatch.__new__(NodeMatch)
        for name in (*_Span.__slots__, *NodeMatch.__slots__):
            setattr(m, name, getattr(self, name))
        for name, value in changes.items():
            if name not in ("path", "language", "metavars", "multi"):
                raise TypeError(f"NodeMatch._replace cannot change {name!r}")
            setattr(m, name, value)
        return m

    def head(self, max_lines: int, width: int | None = None) -> tuple[list[str], int]:
        """The match's first `max_lines` lines (each cut to `width` characters when given) and
        how many more it has, decoding only what is shown."""
        source = self._source if self._source is not None else SourceText(self.text.encode("utf-8"))
        start = self.start_byte if self._source is not None else 0
        end = self.end_byte if self._source is not None else len(source.data)
        return source.head(start, end, max_lines, width)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NodeMatch) and (self.path, self.language, self.start_byte, self.end_byte,
                                                 self.metavars, self.multi) == (
            other.path, other.language, other.start_byte, other.end_byte, other.metavars, other.multi)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"NodeMatch({self.path!r}, {self.start_byte}-{self.end_byte}, {self.head(1, 60)[0][0]!r})"

    def to_json(self) -> dict[str, object]:
        """The CLI's and the tool's JSON shape (docs/architecture.md, "The contract")."""
        start, end = self.start, self.end
        return {
            "file": self.path,
            "language": self.language,
            "start": {"line": start[0], "column": start[1]},
            "end": {"line": end[0], "column": end[1]},
            "start_byte": self.start_byte,
            "end_byte": self.end_byte,
            "text": self.text,
            "metavars": {k: v.to_json() for k, v in self.metavars.items()},
            "multi": {k: [c.to_json() for c in v] for k, v in self.multi.items()},
        }


def _capture(text: str | None, source: SourceText | None, start_byte: int, end_byte: int, start: Point, end: Point,
             open_line: bool) -> Capture:
    c = Capture.__new__(Capture)
    c._text, c._source, c.start_byte, c.end_byte, c._start, c._end, c.open_line = (
        text, source, start_byte, end_byte, start, end, open_line)
    return c


def _node_match(path: str | None, language: str, source: SourceText | None, text: str | None, start_byte: int,
                end_byte: int, start: Point, end: Point, metavars: dict[str, Capture], multi: dict[str, list[Capture]]) -> NodeMatch:
    m = NodeMatch.__new__(NodeMatch)
    m.path, m.language, m._source, m._text, m.start_byte, m.end_byte, m._start, m._end, m.metavars, m.multi = (
        path, language, source, text, start_byte, end_byte, start, end, metavars, multi)
    return m


class SearchResult(NamedTuple):
    matches: list[NodeMatch]
    total: int  # every match found; with `exact` False, a lower bound (counting stopped)
    files_searched: int
    files_matched: int
    skipped: dict[str, int]
    truncated: bool = False
    exact: bool = True  # False: `total` is "at least", the count was cut short by a bound
    stopped: str | None = None  # why the search ended early (a budget ran out), or None
