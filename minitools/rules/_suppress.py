"""Suppression comments: `ast-grep-ignore` in a comment silences findings, as the `ast-grep` CLI
reads it (docs/tools.md, "Rules"; the cases below are what ast-grep 0.51.1 does, measured):

- the comment's text, after its markers (`#`, `//`, `/*`, `--`) and blanks, starts with
  `ast-grep-ignore` (case counts; `# note ast-grep-ignore` is no suppression);
- followed by `:` and rule ids separated by commas, it silences those rules (each part's first
  word: `rule-a rule-b` names `rule-a`); followed by anything else, or nothing, every rule;
- a comment alone on its line silences the findings that start on the next line; a comment
  after code on its line, the findings that start or end on that line;
- a scan reports each suppression comment that silenced nothing, in a file of a language its
  rules cover, as a hint `unused-suppression` whose fix removes the comment.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

import tree_sitter

__all__ = ["Suppression", "Suppressions", "suppressions", "silencer", "UNUSED_ID", "UNUSED_MESSAGE"]

MARK = b"ast-grep-ignore"
_DIRECTIVE = re.compile(r"[^\w\s]*\s*ast-grep-ignore(\s*:\s*(?P<ids>.*))?", re.S)
_ID = re.compile(r"[^\s,]+")


class Suppression(NamedTuple):
    comment: tree_sitter.Node
    line: int  # 0-based: the line after a comment alone on its line, else the comment's own
    trailing: bool  # after code on its line: a finding that starts or ends there, else one that starts there
    rules: frozenset[str] | None  # None: every rule


class Suppressions(NamedTuple):
    rows: tuple[Suppression, ...]
    line_starts: tuple[int, ...]  # byte offset of each line's start, for a byte's line


def suppressions(root: tree_sitter.Node, source: bytes) -> Suppressions | None:
    """The file's suppression comments, or None where it has none (the common case costs a
    substring search)."""
    if MARK not in source:
        return None
    rows: list[Suppression] = []
    line_starts: tuple[int, ...] | None = None
    seen: set[int] = set()
    at = source.find(MARK)
    while at != -1:
        node = root.descendant_for_byte_range(at, at + len(MARK))
        at = source.find(MARK, at + len(MARK))
        if node is None or "comment" not in node.type or node.start_byte in seen:
            continue
        seen.add(node.start_byte)
        m = _DIRECTIVE.match((node.text or b"").decode("utf-8", "replace"))
        if m is None:
            continue
        ids = m.group("ids")
        rules = None if m.group(1) is None else frozenset(
            word.group(0) for part in (ids or "").split(",") if (word := _ID.search(part)) is not None
        )
        if line_starts is None:
            line_starts = _line_starts(source)
        line = bisect.bisect_right(line_starts, node.start_byte) - 1
        trailing = source[line_starts[line] : node.start_byte].strip() != b""
        end_line = bisect.bisect_right(line_starts, max(node.end_byte - 1, node.start_byte)) - 1
        rows.append(Suppression(node, line if trailing else end_line + 1, trailing, rules))
    if not rows or line_starts is None:
        return None
    return Suppressions(tuple(rows), line_starts)


def _line_starts(source: bytes) -> tuple[int, ...]:
    starts = [0]
    at = source.find(b"\n")
    while at != -1:
        starts.append(at + 1)
        at = source.find(b"\n", at + 1)
    return tuple(starts)


def silencer(found: Suppressions, rule_id: str, start_byte: int, end_byte: int) -> int | None:
    """The index of the first row that silences a finding of `rule_id` over [start_byte,
    end_byte), or None."""
    starts = found.line_starts
    first = bisect.bisect_right(starts, start_byte) - 1
    last = bisect.bisect_right(starts, max(end_byte - 1, start_byte)) - 1
    for k, row in enumerate(found.rows):
        if row.rules is not None and rule_id not in row.rules:
            continue
        if row.line == first or (row.trailing and row.line == last):
            return k
    return None


UNUSED_ID = "unused-suppression"
UNUSED_MESSAGE = "Unused 'ast-grep-ignore' directive."
