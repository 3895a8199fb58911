"""Source maps (version 3), the part a debugger needs: which generated line and column a line
of an original file (a `.ts` file) became, and which original line a generated position
comes from.

`mappings` is one group per generated line, separated by `;`; a group is segments separated by
`,`; a segment is 1, 4 or 5 base64 VLQ numbers: generated column, source index, original line,
original column (and a name index), each relative to the same field of the segment before
(the generated column only within its line). A map is read from a file beside the script or
from a `data:` URL; anything malformed makes `parse` raise ValueError, and a map over
`MAX_MAP` bytes is not read.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import urllib.parse
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["SourceMap", "parse", "load_for", "MAX_MAP"]

MAX_MAP = 32 * 2**20
_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _vlq(segment: str) -> list[int]:
    values, value, shift = [], 0, 0
    for ch in segment:
        digit = _B64.get(ch)
        if digit is None:
            raise ValueError(f"source map: {ch!r} is not a base64 digit")
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            if shift > 60:
                raise ValueError("source map: a VLQ number is too long")
            continue
        values.append(-(value >> 1) if value & 1 else value >> 1)
        value, shift = 0, 0
    if shift:
        raise ValueError("source map: a VLQ number is cut short")
    return values


@dataclass
class SourceMap:
    """One script's map: `sources` as absolute paths, segments per generated line."""

    sources: list[str]
    # generated line (0-based) → [(generated column, source index, original line, original column)], by column
    lines: list[list[tuple[int, int, int, int]]] = field(default_factory=list)

    def original(self, line: int, column: int) -> tuple[str, int] | None:
        """The (source path, 0-based line) generated position (`line`, `column`) comes from."""
        if not 0 <= line < len(self.lines) or not self.lines[line]:
            return None
        segments = self.lines[line]
        at = bisect_right([s[0] for s in segments], column) - 1
        seg = segments[max(at, 0)]
        return self.sources[seg[1]], seg[2]

    def generated(self, source: str, line: int, look_ahead: int = 20) -> tuple[int, int] | None:
        """The first generated (line, column) of original `line` of `source` (0-based), or of the
        next line that has code within `look_ahead` lines (a blank line or a comment has none)."""
        try:
            index = self.sources.index(source)
        except ValueError:
            return None
        for wanted in range(line, line + look_ahead + 1):
            hits = [(gl, seg[0]) for gl, segs in enumerate(self.lines) for seg in segs if seg[1] == index and seg[2] == wanted]
            if hits:
                return min(hits)
        return None


def parse(text: str, base: Path) -> SourceMap:
    """The map in `text`; its sources resolved against `base` (the map's directory) and its
    `sourceRoot`. ValueError for anything that is not a version 3 map."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("source map: not JSON") from None
    if not isinstance(raw, dict) or raw.get("version") != 3 or not isinstance(raw.get("mappings"), str):
        raise ValueError("source map: not a version 3 map with mappings")
    root = raw.get("sourceRoot") or ""
    sources = [os.path.normpath(base / str(root) / str(s)) for s in raw.get("sources") or []]
    smap = SourceMap(sources)
    src = src_line = src_col = 0
    for group in raw["mappings"].split(";"):
        column, segments = 0, []
        for piece in filter(None, group.split(",")):
            fields = _vlq(piece)
            column += fields[0]
            if len(fields) >= 4:
                src, src_line, src_col = src + fields[1], src_line + fields[2], src_col + fields[3]
                if not 0 <= src < len(sources):
                    raise ValueError(f"source map: source index {src} out of range")
                segments.append((column, src, src_line, src_col))
        segments.sort()
        smap.lines.append(segments)
    return smap


def load_for(script_url: str, map_url: str) -> SourceMap | None:
    """The map a script names (`sourceMappingURL`: a `data:` URL or a path relative to the
    script's `file://` URL), or None when it cannot be read (too big, missing, malformed)."""
    script = Path(urllib.parse.unquote(urllib.parse.urlparse(script_url).path)) if script_url.startswith("file:") else Path(script_url)
    if map_url.startswith("data:"):
        header, _, payload = map_url.partition(",")
        if len(payload) > MAX_MAP:
            return None
        try:
            text = base64.b64decode(payload).decode("utf-8") if header.endswith(";base64") else urllib.parse.unquote(payload)
        except (binascii.Error, UnicodeDecodeError):
            return None
        base = script.parent
    else:
        where = Path(urllib.parse.unquote(urllib.parse.urlparse(map_url).path)) if map_url.startswith("file:") else script.parent / map_url
        try:
            if where.stat().st_size > MAX_MAP:
                return None
            text = where.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        base = where.parent
    try:
        return parse(text, base)
    except ValueError:
        return None
