"""The states a regular expression is searched by in time linear in the text (`_regex.py`,
`Regex`): `re`'s own reading of the expression (its parser) compiled to a set of states, each
taken at most once per character, watched by the search budget. What the states do not do
(back-references, look-around, atomic groups: what Rust's regexes lack) is named in Rust's words
(`lacking`); an expression whose states would pass MAX_STATES is not compiled. `_regex_sub.py`
steps the same states with the groups' positions for `Regex.sub`.
"""

from __future__ import annotations

from collections.abc import Callable
from re import _constants as C  # type: ignore[attr-defined]  # re's own reader and its names
from typing import Any

from minitools.match._matcher import tick

__all__ = ["SHORT_TEXT", "MAX_STATES", "Program", "Test", "lacking", "shape", "compile_states", "run_states"]

SHORT_TEXT = 4096  # characters `re` may take on with a few single repetitions
LARGE_REPEAT = 16  # a counted repetition up to this many is bounded enough for `re`
MAX_STATES = 20_000  # a counted repetition unrolled past this stays on `re`

# A SPLIT goes to `out` first: the way a backtracking search tries first (`sub` needs the
# same priorities; a yes-or-no search does not care). SAVE records the position in a slot.
_CHAR, _SPLIT, _JUMP, _ASSERT, _MATCH, _SAVE = range(6)
Test = Callable[[str], bool]


class _Unsupported(Exception):
    """What the states do not do (back-references, look-around, a huge counted repetition)."""


# what Rust's regex (and so ast-grep) says of what it lacks, by the reader's names
_LACKS = {
    C.GROUPREF: "backreferences are not supported",
    C.GROUPREF_EXISTS: "backreferences are not supported",
    C.ASSERT: "look-around, including look-ahead and look-behind, is not supported",
    C.ASSERT_NOT: "look-around, including look-ahead and look-behind, is not supported",
    C.ATOMIC_GROUP: "atomic groups (?>...) are not supported",
}


def lacking(items: Any) -> str | None:
    """What the expression uses that Rust's regexes lack, in their words; None when nothing."""
    for op, av in items:
        if op in _LACKS:
            return _LACKS[op]
        if op is C.SUBPATTERN:
            inner = av[3]
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            inner = av[2]
        elif op is C.BRANCH:
            inner = [item for alternative in av[1] for item in alternative]
        else:
            continue
        found = lacking(inner)
        if found:
            return found
    return None


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _category(cat: Any, ascii_only: bool) -> Test:
    if cat in (C.CATEGORY_DIGIT, C.CATEGORY_NOT_DIGIT):
        test: Test = (lambda ch: "0" <= ch <= "9") if ascii_only else str.isdecimal
    elif cat in (C.CATEGORY_SPACE, C.CATEGORY_NOT_SPACE):
        test = (lambda ch: ch in " \t\n\r\f\v") if ascii_only else str.isspace
    elif cat in (C.CATEGORY_WORD, C.CATEGORY_NOT_WORD):
        test = (lambda ch: ch.isascii() and _word(ch)) if ascii_only else _word
    else:
        raise _Unsupported(str(cat))
    if cat in (C.CATEGORY_NOT_DIGIT, C.CATEGORY_NOT_SPACE, C.CATEGORY_NOT_WORD):
        return lambda ch: not test(ch)
    return test


def _folds(ch: str) -> set[str]:
    return {ch, ch.lower(), ch.upper()}


class Program:
    """The expression as states: CHAR (a test, then `out`), SPLIT (both ways), JUMP, ASSERT
    (a position test), MATCH; with `captures`, SAVE (a group's end: the position, in a slot)."""

    def __init__(self, captures: bool = False) -> None:
        self.kind: list[int] = []
        self.arg: list[Any] = []
        self.out: list[int] = []
        self.alt: list[int] = []
        self.captures = captures  # SAVE states at the groups' ends (for `sub`)

    def add(self, kind: int, arg: Any = None) -> int:
        # a group's ends add at most two states for each of the others (`sub`'s states)
        if len(self.kind) >= (3 * MAX_STATES if self.captures else MAX_STATES):
            raise _Unsupported("too many states")
        self.kind.append(kind)
        self.arg.append(arg)
        self.out.append(-1)
        self.alt.append(-1)
        return len(self.kind) - 1

    # A fragment is (first state, [(state, "out" | "alt")] left to point at what follows).
    def seq(self, items: Any, flags: int) -> tuple[int, list[tuple[int, str]]]:
        start = self.add(_JUMP)
        ends = [(start, "out")]
        for op, av in items:
            first, outs = self.item(op, av, flags)
            self.patch(ends, first)
            ends = outs
        return start, ends

    def patch(self, ends: list[tuple[int, str]], to: int) -> None:
        for state, which in ends:
            (self.out if which == "out" else self.alt)[state] = to

    def char(self, test: Test) -> tuple[int, list[tuple[int, str]]]:
        s = self.add(_CHAR, test)
        return s, [(s, "out")]

    def item(self, op: Any, av: Any, flags: int) -> tuple[int, list[tuple[int, str]]]:
        fold = bool(flags & C.SRE_FLAG_IGNORECASE)
        if op is C.LITERAL or op is C.NOT_LITERAL:
            chars = _folds(chr(av)) if fold else {chr(av)}
            if op is C.LITERAL:
                return self.char(chars.__contains__)
            return self.char(lambda ch: ch not in chars)
        if op is C.ANY:
            return self.char((lambda ch: True) if flags & C.SRE_FLAG_DOTALL else (lambda ch: ch != "\n"))
        if op is C.IN:
            return self.char(self.charset(av, flags))
        if op is C.AT:
            s = self.add(_ASSERT, (av, flags))
            return s, [(s, "out")]
        if op is C.SUBPATTERN:
            group, add, remove, body = av
            if group is None or not self.captures:
                return self.seq(body, (flags | add) & ~remove)
            first = self.add(_SAVE, 2 * group)
            inner, outs = self.seq(body, (flags | add) & ~remove)
            self.out[first] = inner
            last = self.add(_SAVE, 2 * group + 1)
            self.patch(outs, last)
            return first, [(last, "out")]
        if op is C.BRANCH:
            start = self.add(_JUMP)
            ends: list[tuple[int, str]] = []
            prev = None
            for alternative in av[1]:
                first, outs = self.seq(alternative, flags)
                split = self.add(_SPLIT)
                self.out[split] = first
                if prev is None:
                    self.out[start] = split
                else:
                    self.alt[prev] = split
                prev = split
                ends += outs
            assert prev is not None
            self.kind[prev] = _JUMP  # the last alternative needs no choice
            return start, ends
        if op is C.POSSESSIVE_REPEAT:  # `a++`, `a*+`: Rust reads a repetition repeated
            return self.item(C.MAX_REPEAT, (1, C.MAXREPEAT, [(C.MAX_REPEAT, av)]), flags)
        if op is C.MAX_REPEAT or op is C.MIN_REPEAT:
            low, high, body = av
            # greedy: one more round first; lazy (MIN_REPEAT): leaving first
            more, leave = ("out", "alt") if op is C.MAX_REPEAT else ("alt", "out")
            start = self.add(_JUMP)
            ends = [(start, "out")]
            for _ in range(low):
                first, outs = self.seq(body, flags)
                self.patch(ends, first)
                ends = outs
            if high is C.MAXREPEAT:
                loop = self.add(_SPLIT)
                self.patch(ends, loop)
                first, outs = self.seq(body, flags)
                self.patch([(loop, more)], first)
                self.patch(outs, loop)
                return start, [(loop, leave)]
            optional: list[tuple[int, str]] = []
            for _ in range(high - low):
                split = self.add(_SPLIT)
                self.patch(ends, split)
                first, outs = self.seq(body, flags)
                self.patch([(split, more)], first)
                optional.append((split, leave))
                ends = outs
            return start, ends + optional
        raise _Unsupported(str(op))  # back-references, look-around, atomic groups

    def charset(self, items: Any, flags: int) -> Test:
        fold = bool(flags & C.SRE_FLAG_IGNORECASE)
        ascii_only = bool(flags & C.SRE_FLAG_ASCII)
        negate = False
        chars: set[str] = set()
        ranges: list[tuple[int, int]] = []
        tests: list[Test] = []
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                chars |= _folds(chr(av)) if fold else {chr(av)}
            elif op is C.RANGE:
                ranges.append(av)
            elif op is C.CATEGORY:
                tests.append(_category(av, ascii_only))
            else:
                raise _Unsupported(str(op))

        def within(ch: str) -> bool:
            if ch in chars or any(t(ch) for t in tests):
                return True
            codes = {ord(c) for c in _folds(ch)} if fold else {ord(ch)}
            return any(lo <= code <= hi for lo, hi in ranges for code in codes)

        return (lambda ch: not within(ch)) if negate else within


def _holds(at: Any, flags: int, text: str, p: int) -> bool:
    n = len(text)
    if at is C.AT_BEGINNING:
        return p == 0 or (bool(flags & C.SRE_FLAG_MULTILINE) and text[p - 1] == "\n")
    if at is C.AT_BEGINNING_STRING:
        return p == 0
    if at is C.AT_END:
        if flags & C.SRE_FLAG_MULTILINE:
            return p == n or text[p] == "\n"
        return p == n or (p == n - 1 and text[p] == "\n")
    if at is C.AT_END_STRING:
        return p == n
    if at in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
        if n == 0:
            return False  # re's: neither holds in an empty text
        word: Test = (lambda ch: ch.isascii() and _word(ch)) if flags & C.SRE_FLAG_ASCII else _word
        before = p > 0 and word(text[p - 1])
        after = p < n and word(text[p])
        return (before != after) == (at is C.AT_BOUNDARY)
    raise _Unsupported(str(at))


def _varies(items: Any) -> bool:
    """Whether the expression holds a repetition or a choice (through its groups)."""
    for op, av in items:
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT, C.BRANCH):
            return True
        if op is C.SUBPATTERN and _varies(av[3]):
            return True
    return False


def shape(items: Any) -> tuple[int, bool]:
    """(how many repetitions without bound (or with a large one) the expression holds, whether
    a repetition holds another repetition or a choice: where backtracking can take exponential
    time; several in a row take the text's length to the power of their number)."""
    unbounded, nested = 0, False
    for op, av in items:
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            _low, high, body = av
            inner_unbounded, inner_nested = shape(body)
            unbounded += inner_unbounded + (high > LARGE_REPEAT)
            # a possessive `a++` is Rust's `(?:a+)+`, which only the states read so
            nested = nested or inner_nested or (high > 1 and _varies(body)) or op is C.POSSESSIVE_REPEAT
        elif op is C.SUBPATTERN:
            u, n = shape(av[3])
            unbounded, nested = unbounded + u, nested or n
        elif op is C.BRANCH:
            for alternative in av[1]:
                u, n = shape(alternative)
                unbounded, nested = max(unbounded, u), nested or n
    return unbounded, nested


def compile_states(parsed: Any, captures: bool = False) -> tuple[Program | None, int]:
    """The states of a parsed expression and the first one; (None, -1) for what they do not
    do. With `captures`, the whole match is group 0, its ends in slots 0 and 1."""
    try:
        program = Program(captures)
        start, ends = program.seq(list(parsed), parsed.state.flags)
        if captures:
            first = program.add(_SAVE, 0)
            program.out[first] = start
            start = first
            last = program.add(_SAVE, 1)
            program.patch(ends, last)
            ends = [(last, "out")]
        program.patch(ends, program.add(_MATCH))
    except _Unsupported:
        return None, -1
    return program, start


def run_states(program: Program, start: int, text: str) -> bool:
    kind, arg, out, alt = program.kind, program.arg, program.out, program.alt
    n = len(text)

    def close(states: list[int], p: int) -> list[int] | None:
        """The CHAR states reachable from `states` at position `p` without reading; None
        when MATCH is."""
        seen: set[int] = set()
        stack = list(states)
        chars: list[int] = []
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            k = kind[s]
            if k == _CHAR:
                chars.append(s)
            elif k == _MATCH:
                return None
            elif k == _JUMP:
                stack.append(out[s])
            elif k == _SPLIT:
                stack.append(alt[s])
                stack.append(out[s])
            elif _holds(arg[s][0], arg[s][1], text, p):
                stack.append(out[s])
        return chars

    current = close([start], 0)
    if current is None:
        return True
    for p in range(n):
        tick()
        ch = text[p]
        following = [out[s] for s in current if arg[s](ch)]
        following.append(start)  # a match may begin at the next position too
        current = close(following, p + 1)
        if current is None:
            return True
    return False
