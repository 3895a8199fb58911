"""How `minitools ast-grep` prints matches: one line per match, lines with context the way the
`ast-grep` CLI prints them (-A/-B/-C), file names only, or JSON (a list, pretty or one object a
line); colour by `--color` and `NO_COLOR`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from minitools.match import Capture, NodeMatch

__all__ = ["Style", "use_color", "render", "Printer", "json_line"]

MATCH_COLOR = "\x1b[1;31m"  # bold red, as ast-grep marks a match
PATH_COLOR = "\x1b[3;36m"  # italic cyan, as ast-grep prints a file name alone
RESET = "\x1b[0m"


class Style(NamedTuple):
    json: str | None  # None, "compact" (bare --json), "pretty" or "stream"
    files_only: bool
    before: int | None  # None: no context asked for (one line per match)
    after: int | None
    color: bool


def use_color(when: str) -> bool:
    """--color: always (or ansi), never, or auto: a terminal, TERM not dumb, NO_COLOR unset."""
    if when in ("always", "ansi"):
        return True
    if when == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def _load_quote(text: str) -> str:
    """json.dumps' quoting with ensure_ascii=False, json loaded on the first call (output that
    is not JSON needs none of it: a millisecond of every search's start)."""
    global _quote
    from json.encoder import encode_basestring

    _quote = encode_basestring
    return encode_basestring(text)


_quote: Callable[[str], str] = _load_quote


def _span_json(text: str, start: tuple[int, int], end: tuple[int, int], start_byte: int, end_byte: int) -> str:
    return (f'"start": {{"line": {start[0]}, "column": {start[1]}}}, "end": {{"line": {end[0]}, "column": {end[1]}}}, '
            f'"start_byte": {start_byte}, "end_byte": {end_byte}, "text": {_quote(text)}')


def _capture_json(c: Capture) -> str:
    start, end = c.start, c.end
    return (f'{{"text": {_quote(c.text)}, "start": {{"line": {start[0]}, "column": {start[1]}}}, '
            f'"end": {{"line": {end[0]}, "column": {end[1]}}}, "start_byte": {c.start_byte}, "end_byte": {c.end_byte}}}')


def json_line(m: NodeMatch) -> str:
    """`json.dumps(m.to_json(), ensure_ascii=False)`, the same text, written out directly: the
    CLI prints every match (100,000s of them), and a dict per match and per capture handed to
    the generic encoder cost twice as much."""
    path = "null" if m.path is None else _quote(m.path)
    metavars = ", ".join(f"{_quote(k)}: {_capture_json(v)}" for k, v in m.metavars.items())
    multi = ", ".join(f"{_quote(k)}: [{', '.join(map(_capture_json, v))}]" for k, v in m.multi.items())
    return (f'{{"file": {path}, "language": {_quote(m.language)}, {_span_json(m.text, m.start, m.end, m.start_byte, m.end_byte)}, '
            f'"metavars": {{{metavars}}}, "multi": {{{multi}}}}}')


def render(matches: Sequence[NodeMatch], style: Style, root: str) -> str:
    """The text to print for `matches` (files in search order, matches in pre-order)."""
    if style.json == "stream":
        return "".join(json_line(m) + "\n" for m in matches)
    if style.json is not None:
        import json

        indent = 2 if style.json == "pretty" else None
        return json.dumps([m.to_json() for m in matches], ensure_ascii=False, indent=indent) + "\n"
    if style.files_only:
        names = list(dict.fromkeys(str(m.path) for m in matches))
        return "".join((f"{PATH_COLOR}{n}{RESET}" if style.color else n) + "\n" for n in names)
    if style.before is None and style.after is None:
        out = []
        for m in matches:
            first = m.head(1)[0][0]  # the first line only: a long match is not decoded whole
            if style.color and first:
                first = f"{MATCH_COLOR}{first}{RESET}"
            out.append(f"{m.path}:{m.start[0]}:{m.start[1]}: {first}\n")
        return "".join(out)
    return _with_context(matches, style, root)


class Printer:
    """`render`, a batch at a time, as a search hands the matches over: what was found is
    written out and let go, so printing every match takes the memory of a batch (a JSON list
    is opened before the first batch and closed by `close`; with context lines, whose groups
    span a file, of a file's matches)."""

    def __init__(self, style: Style, root: str, write: Callable[[str], object]) -> None:
        self.style = style
        self.root = root
        self.write = write
        self.matched = False
        self._names: set[str] = set()
        self._context = style.json is None and not style.files_only and (style.before is not None or style.after is not None)
        self._file: tuple[str, list[NodeMatch]] | None = None  # with context: the file's matches so far

    def file(self, path: str, matches: Sequence[NodeMatch]) -> None:
        """Print `matches`, the next batch of `path`'s (a file's batches come together)."""
        if not matches:
            return
        style = self.style
        if self._context:
            if self._file is not None and self._file[0] != path:
                self.write(render(self._file[1], style, self.root))
                self._file = None
            if self._file is None:
                self._file = (path, [])
            self._file[1].extend(matches)
            self.matched = True
            return
        if style.json in ("compact", "pretty"):
            import json

            indent = 2 if style.json == "pretty" else None
            items = [json.dumps(m.to_json(), ensure_ascii=False, indent=indent) if indent else json_line(m) for m in matches]
            if indent:  # the list's own indentation, as json.dumps gives an indented list
                items = ["\n".join("  " + line for line in item.split("\n")) for item in items]
            sep = ",\n" if indent else ", "
            self.write(("[\n" if indent else "[") if not self.matched else sep)
            self.write(sep.join(items))
        elif style.files_only:
            if path not in self._names:  # one line per file, whatever it holds
                self._names.add(path)
                self.write(render(matches, style, self.root))
        else:
            self.write(render(matches, style, self.root))
        self.matched = True

    def close(self) -> None:
        if self._file is not None:
            self.write(render(self._file[1], self.style, self.root))
            self._file = None
        if self.style.json in ("compact", "pretty"):
            self.write(("\n]\n" if self.style.json == "pretty" else "]\n") if self.matched else "[]\n")


def _with_context(matches: Sequence[NodeMatch], style: Style, root: str) -> str:
    """ast-grep's layout, as its CLI prints it: the lines of each match and its context as
    `path:line:text`. A match inside the one before is left out; a match whose context starts
    no later than the previous group's first match's last line plus the after-context joins
    that group; `--` separates groups. Context counts newlines from the match's ends, so a
    last context line that is empty is not shown (ast-grep 0.51.1 does the same)."""
    before, after = style.before or 0, style.after or 0
    out: list[str] = []
    by_file: dict[str, list[NodeMatch]] = {}
    for m in matches:
        by_file.setdefault(str(m.path), []).append(m)
    for path, found in by_file.items():
        try:
            with open(os.path.join(root, path), "rb") as fh:
                source = fh.read()
        except OSError:
            continue
        groups: list[tuple[int, str]] = []  # (first line number, text)
        first = found[0]
        lead, trail, start = _context(source, first, before, after)
        number, last_line = start + 1, first.end[0]
        end, tail = first.end_byte, trail
        text = [_text(source, lead, first.start_byte), _matched(first, style.color)]
        for m in found[1:]:
            if m.start_byte < end:
                continue  # inside the previous match
            lead, trail, start = _context(source, m, before, after)
            if start <= last_line + after:
                text += [_text(source, end, m.start_byte), _matched(m, style.color)]
            else:
                text.append(_text(source, end, tail))
                groups.append((number, "".join(text)))
                number, last_line = start + 1, m.end[0]
                text = [_text(source, lead, m.start_byte), _matched(m, style.color)]
            end, tail = m.end_byte, trail
        text.append(_text(source, end, tail))
        groups.append((number, "".join(text)))
        for i, (number, body) in enumerate(groups):
            if i and before + after > 0:
                out.append("--\n")
            out += [f"{path}:{number + k}:{line}\n" for k, line in enumerate(_lines(body))]
    return "".join(out)


def _context(source: bytes, m: NodeMatch, before: int, after: int) -> tuple[int, int, int]:
    """(first byte of the leading context, end byte of the trailing one, 0-based first line):
    back to just after the before+1-th newline above the match, on to the after+1-th below."""
    lead, seen, at = 0, 0, m.start_byte
    while seen <= before:
        nl = source.rfind(b"\n", 0, at)
        if nl < 0:
            lead = 0
            break
        seen, at, lead = seen + 1, nl, nl + 1
    trail, count, at = len(source), 0, min(m.end_byte, len(source))
    while count <= after:
        nl = source.find(b"\n", at)
        if nl < 0:
            trail = len(source)
            break
        count, at, trail = count + 1, nl + 1, nl
    return lead, trail, m.start[0] - 1 - min(seen, before)


def _text(source: bytes, start: int, end: int) -> str:
    return source[start:end].decode("utf-8", errors="replace") if end > start else ""


def _matched(m: NodeMatch, color: bool) -> str:
    if not color:
        return m.text
    return "\n".join(f"{MATCH_COLOR}{piece}{RESET}" for piece in m.text.split("\n"))


def _lines(text: str) -> list[str]:
    """Lines as Rust's `str::lines` gives them: no last empty line after a final newline."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
