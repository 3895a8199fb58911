"""`Regex.sub`: every match of a rule's `replace` transformation (docs/tools.md, "Rules")
replaced, as Rust's `replace_all` finds the matches, in linear time for each.

Where `Regex` would search by `re` the matches are `re`'s, found one after another from
where the last ended. Elsewhere the expression's states (with its groups' ends and `re`'s
priorities: a greedy repetition tries one more round first, a lazy one leaving first, a
choice its first alternative first) are stepped once per character, threads kept in order of
priority with the positions they saw: the first thread to finish is the leftmost-first match,
and the threads after it are dropped. That is a backtracking search's answer without its
backtracking (each state is taken at most once per position).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from minitools.match._matcher import tick
from minitools.match._regex_states import _ASSERT, _CHAR, _JUMP, _MATCH, _SAVE, _SPLIT, Program, _holds

__all__ = ["Found", "substitute"]

Slots = list["int | None"]


class Found:
    """A match found by the states: `group` and `span` as `re.Match` has them."""

    __slots__ = ("_text", "_slots", "_names")

    def __init__(self, text: str, slots: Slots, names: dict[str, int]) -> None:
        self._text = text
        self._slots = slots
        self._names = names

    def group(self, key: int | str = 0) -> str | None:
        index = self._names.get(key, -1) if isinstance(key, str) else key
        if not 0 <= index < len(self._slots) // 2:
            raise IndexError("no such group")
        start, end = self._slots[2 * index], self._slots[2 * index + 1]
        return None if start is None or end is None else self._text[start:end]

    def span(self) -> tuple[int, int]:
        start, end = self._slots[0], self._slots[1]
        assert start is not None and end is not None
        return start, end


def _follow(program: Program, into: list[tuple[int, Slots]], seen: set[int], state: int, slots: Slots,
            text: str, p: int) -> None:
    """Add to `into`, in order of priority, the CHAR and MATCH states reached from `state` at
    position `p` without reading (the positions saved on the way in their slots)."""
    kind, arg, out, alt = program.kind, program.arg, program.out, program.alt
    stack = [(state, slots)]
    while stack:
        s, slots = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        k = kind[s]
        if k in (_CHAR, _MATCH):
            into.append((s, slots))
        elif k == _JUMP:
            stack.append((out[s], slots))
        elif k == _SPLIT:
            stack.append((alt[s], slots))
            stack.append((out[s], slots))  # popped first: the preferred way
        elif k == _SAVE:
            saved = list(slots)
            saved[arg[s]] = p
            stack.append((out[s], saved))
        elif k == _ASSERT and _holds(arg[s][0], arg[s][1], text, p):
            stack.append((out[s], slots))


def find(program: Program, start: int, groups: int, text: str, pos: int) -> Slots | None:
    """The slots of the leftmost-first match at or after `pos` (slots 0 and 1 its ends, 2g
    and 2g+1 group g's), or None."""
    empty: Slots = [None] * (2 * groups + 2)
    current: list[tuple[int, Slots]] = []
    seen: set[int] = set()
    found: Slots | None = None
    n = len(text)
    for p in range(pos, n + 1):
        tick()
        if found is None:  # a match may start here, after all that started before
            _follow(program, current, seen, start, empty, text, p)
        following: list[tuple[int, Slots]] = []
        seen = set()
        for s, slots in current:
            if program.kind[s] == _MATCH:
                found = slots  # the threads after it are of lower priority
                break
            if p < n and program.arg[s](text[p]):
                _follow(program, following, seen, program.out[s], slots, text, p + 1)
        current = following
        if not current and found is not None:
            break
    return found


def substitute(pattern: re.Pattern[str], program: Program | None, start: int, replace: Callable[[Any], str],
               text: str) -> str:
    """`text` with each match of `pattern` replaced by `replace(match)` (Rust's `replace_all`),
    found by `program`'s states from `start` (None: by `re`, linear enough there)."""
    groups, names = pattern.groups, dict(pattern.groupindex)
    pieces: list[str] = []
    kept = pos = 0  # text[kept:] is not yet written out; the next search starts at pos
    last_end = -1
    n = len(text)
    while pos <= n:
        match: Any
        if program is None:
            match = pattern.search(text, pos)
        else:
            slots = find(program, start, groups, text, pos)
            match = None if slots is None else Found(text, slots, names)
        if match is None:
            break
        begin, end = match.span()
        if begin == end == last_end:
            pos = end + 1  # an empty match where the last one ended: passed over
            continue
        pieces.append(text[kept:begin])
        pieces.append(replace(match))
        kept = pos = last_end = end
    pieces.append(text[kept:])
    return "".join(pieces)
