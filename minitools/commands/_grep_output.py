"""How `minitools ast-grep` prints matches: one line per match, lines with context the way the
`ast-grep` CLI prints them (-A/-B/-C), file names only, or JSON (a list, pretty or one object a
line); colour by `--color` and `NO_COLOR`."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from minitools.match import NodeMatch

__all__ = ["Style", "use_color", "render"]

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


def render(matches: Sequence[NodeMatch], style: Style, root: Path) -> str:
    """The text to print for `matches` (files in search order, matches in pre-order)."""
    if style.json == "stream":
        return "".join(json.dumps(m.to_json(), ensure_ascii=False) + "\n" for m in matches)
    if style.json is not None:
        indent = 2 if style.json == "pretty" else None
        return json.dumps([m.to_json() for m in matches], ensure_ascii=False, indent=indent) + "\n"
    if style.files_only:
        names = list(dict.fromkeys(str(m.path) for m in matches))
        return "".join((f"{PATH_COLOR}{n}{RESET}" if style.color else n) + "\n" for n in names)
    if style.before is None and style.after is None:
        out = []
        for m in matches:
            first = m.text.splitlines()[0] if m.text else ""
            if style.color and first:
                first = f"{MATCH_COLOR}{first}{RESET}"
            out.append(f"{m.path}:{m.start[0]}:{m.start[1]}: {first}\n")
        return "".join(out)
    return _with_context(matches, style, root)


def _with_context(matches: Sequence[NodeMatch], style: Style, root: Path) -> str:
    """ast-grep's layout: every line of each match and its context as `path:line:text`;
    groups that overlap or touch merge, and `--` separates the groups of one file."""
    before, after = style.before or 0, style.after or 0
    out: list[str] = []
    by_file: dict[str, list[NodeMatch]] = {}
    for m in matches:
        by_file.setdefault(str(m.path), []).append(m)
    for path, found in by_file.items():
        try:
            lines = (root / path).read_bytes().decode("utf-8", errors="replace").splitlines()
        except OSError:
            continue
        # per line: the matched code-point spans on it
        spans: dict[int, list[tuple[int, int]]] = {}
        groups: list[list[int]] = []
        for m in found:
            (l0, c0), (l1, c1) = m.start, m.end
            for line in range(l0, l1 + 1):
                text_len = len(lines[line - 1]) if line <= len(lines) else 0
                start = c0 - 1 if line == l0 else 0
                end = c1 - 1 if line == l1 else text_len
                spans.setdefault(line, []).append((start, end))
            first, last = max(1, l0 - before), min(len(lines), l1 + after)
            if groups and first <= groups[-1][1] + 1:
                groups[-1][1] = max(groups[-1][1], last)
            else:
                groups.append([first, last])
        for i, (first, last) in enumerate(groups):
            if i:
                out.append("--\n")
            for line in range(first, last + 1):
                text = lines[line - 1]
                if style.color and line in spans:
                    text = _paint(text, spans[line])
                out.append(f"{path}:{line}:{text}\n")
    return "".join(out)


def _paint(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the union of `spans` (code-point ranges) coloured."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, at = [], 0
    for start, end in merged:
        out += [text[at:start], MATCH_COLOR, text[start:end], RESET]
        at = end
    out.append(text[at:])
    return "".join(out)
