"""Regular expressions searched in time linear in the text: a rule's `regex` (docs/tools.md,
"Rules") and the globs of ignore files (a repository's `.gitignore` is input too).

ast-grep's regexes are Rust's, which run in linear time; Python's `re` backtracks, so a
regex such as `^(a+)+$` takes exponential time on a 31-character identifier, `.*a.*a.*a.*b`
time growing with the text's length to the power of its repetitions, and `.*foo.*bar`
quadratic time on a large node (a 1 MiB file: minutes), holding the interpreter all the while.
`Regex.search` uses `re` where that cannot happen (no unbounded repetition; or, on a short
text, at most `backtracking` of them and none inside a repetition or around a choice) and
otherwise runs the same expression as a set of states stepped once per character (each state
at most once per step), watched by the search budget. Both give `re.search`'s answer: the
states follow `re`'s own reading of the expression (its parser), with its meaning of
`^ $ \\b . \\d \\w \\s` and the case-insensitive flag. What Rust's regexes lack (back-references,
look-around, atomic groups) is refused, as ast-grep refuses it, in the words of Rust's regex:
on `re` such an expression could run for minutes holding the interpreter, out of reach of
the budget and of a cancel. So is an expression whose states would pass MAX_STATES (a large
counted repetition inside another) where `re` could backtrack on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import _parser  # type: ignore[attr-defined]  # re's own reader
from typing import Any

from minitools.match._regex_states import MAX_STATES, SHORT_TEXT, Program, compile_states, lacking, run_states, shape
from minitools.match._regex_sub import substitute

__all__ = ["Regex", "python_regex"]


class Regex:
    """A compiled regex: `search(text)` is `bool(re.search(...))`, in linear time.
    `backtracking`: how many unbounded repetitions (none inside another) `re` may take on
    with a text of at most SHORT_TEXT characters: 1 keeps it quadratic at worst; an ignore
    file's glob, matched against short paths, may have a few."""

    __slots__ = ("pattern", "_program", "_start", "_short_only", "_capturing")

    def __init__(self, pattern: re.Pattern[str], *, backtracking: int = 1) -> None:
        """re.error, quoting what to change, for an expression this cannot search in linear
        time: one with what Rust's regexes lack, or one whose states would be too many."""
        self.pattern = pattern
        parsed = _parser.parse(pattern.pattern, pattern.flags)
        missing = lacking(list(parsed))
        if missing:
            raise re.error(f"{missing} (Rust's regex, which ast-grep runs, has none); write the expression "
                           "without it")
        unbounded, nested = shape(list(parsed))
        self._short_only = not nested and unbounded <= backtracking  # `re` on a short text
        # no program: `re` always, being linear enough without repetitions
        self._program, self._start = (None, -1) if not unbounded and not nested else compile_states(parsed)
        if self._program is None and (unbounded or nested):
            raise re.error(f"it needs more than {MAX_STATES:,} states to search in linear time (a large counted "
                           "repetition such as {5000}, or a very long expression); write it smaller")
        self._capturing: tuple[Program | None, int] | None = None  # `sub`'s states, made on first use

    def on_re(self, text: str) -> bool:
        """Whether a search of `text` may go to `re` (it cannot take more than linear time
        there, or more than quadratic on a short text)."""
        return self._program is None or (self._short_only and len(text) <= SHORT_TEXT)

    def search(self, text: str) -> bool:
        if self.on_re(text):
            return self.pattern.search(text) is not None
        assert self._program is not None
        return run_states(self._program, self._start, text)

    def sub(self, replace: Callable[[Any], str], text: str) -> str:
        """`text` with each match replaced by `replace(match)`, the matches found as Rust's
        `replace_all` finds them (leftmost-first, as `re`; but an empty match where the one
        before ended is passed over: `a*` in `baaab` gives `-b-b-`, not `re.sub`'s `-b--b-`),
        in linear time for each match. `match.group(key)` is `re.Match.group`'s."""
        program, start = (None, -1) if self.on_re(text) else self.capturing()
        return substitute(self.pattern, program, start, replace, text)

    def capturing(self) -> tuple[Program | None, int]:
        """The states with the groups' positions and `re`'s priorities (None: only `re`)."""
        if self._capturing is None:
            self._capturing = compile_states(_parser.parse(self.pattern.pattern, self.pattern.flags), captures=True)
        return self._capturing

    def search_by_states(self, text: str) -> bool | None:
        """`search` by the states whatever the text (None: the expression stays on `re`)."""
        program, start = self._program, self._start
        if program is None:
            program, start = compile_states(_parser.parse(self.pattern.pattern, self.pattern.flags))
        return None if program is None else run_states(program, start, text)


_POSIX = {
    "[:alpha:]": "A-Za-z", "[:digit:]": "0-9", "[:alnum:]": "A-Za-z0-9", "[:space:]": r"\s",
    "[:upper:]": "A-Z", "[:lower:]": "a-z", "[:xdigit:]": "0-9A-Fa-f", "[:punct:]": r"!-/:-@\[-`{-~",
}


def python_regex(text: str) -> str:
    """A Rust regular expression as Python's `re` reads it: the few spellings that differ
    (`\\z`, POSIX classes, `(?<name>...)` groups; Rust has no look-around to confuse them with),
    and `$`, which in Rust ends the text where Python's also holds before a final newline."""
    out = _end_of_text(text.replace(r"\z", r"\Z"))
    for posix, spelled in _POSIX.items():
        out = out.replace(posix, spelled)
    return re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", out)


_MULTI_LINE = re.compile(r"\(\?[a-zA-Z]*m[a-zA-Z]*[:)]")  # a flag group that turns on `m`


def _end_of_text(text: str) -> str:
    """`text` with each `$` that is an anchor (not escaped, not in a class) spelled `\\Z`,
    unless the expression turns on multi-line mode, where `$` means the same in both."""
    if "$" not in text or _MULTI_LINE.search(text):
        return text
    out: list[str] = []
    i, n, in_class = 0, len(text), False
    while i < n:
        ch = text[i]
        if ch == "\\":
            out.append(text[i:i + 2])
            i += 2
            continue
        if in_class:
            if text.startswith("[:", i):  # a POSIX class inside a class: [[:alpha:]]
                end = text.find(":]", i + 2)
                if end != -1:
                    out.append(text[i:end + 2])
                    i = end + 2
                    continue
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            for lead in ("^", "]"):  # `[]a]` and `[^]a]`: a leading `]` is a member
                if text.startswith(lead, i):
                    out.append(lead)
                    i += 1
            continue
        elif ch == "$":
            out.append(r"\Z")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)
