"""Where on its line a `symbol` points (docs/tools.md, "Positions"): the `lsp` tools and `debug`'s
breakpoints take a 1-based line plus text of that line, never a column. Below both families.

- The occurrence: a symbol found once as a whole word (word boundaries by the language's
  identifier rules) is that one, even when it also occurs inside a longer name (`sq` in
  ``sq = make_square(2.0)``); several whole-word occurrences are refused, listed with a
  substring that picks each; with none, a substring found once is used, several are refused.
- The identifier: the last one the symbol writes (`self._spec` → `_spec`, `gz.fd` → `fd`,
  `make_square(` → `make_square`), so a qualified name never silently means its receiver.
- When that identifier occurs more than once on the line, `Resolved.note` says which one was used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from minitools.toolspec import ToolError

__all__ = ["Ambiguous", "Resolved", "address_properties", "resolve_symbol", "identifier_class"]

# identifier characters per language (the language's own rules; `$` is a letter in JS/TS and Dart)
_DOLLAR = {"javascript", "typescript", "dart"}
_LISTED = 10  # occurrences listed in a refusal


def address_properties(file: str, line: str, symbol: str) -> dict[str, Any]:
    """The JSON Schema properties that address a symbol as lsp does (a file, a 1-based line, text
    of that line naming it), each with its tool's description."""
    return {
        "file": {"type": "string", "description": file},
        "line": {"type": "integer", "minimum": 1, "description": line},
        "symbol": {"type": "string", "minLength": 1, "description": symbol},
    }


def identifier_class(language: str | None) -> re.Pattern[str]:
    """One identifier character of `language`."""
    return re.compile(r"[\w$]") if language in _DOLLAR else re.compile(r"\w")


@dataclass(frozen=True)
class Resolved:
    """The position a symbol resolved to on its line (code-point columns, 0-based)."""

    column: int  # first character of the identifier pointed at
    name: str  # that whole identifier (the symbol itself when it writes none)
    start: int  # where the symbol's occurrence starts ...
    end: int  # ... and ends on the line
    occurrence: int  # which whole-word occurrence of `name` on the line (1-based) ...
    occurrences: int  # ... of how many

    def note(self, line: int) -> str:
        """Which occurrence was used, when `name` repeats on the line ("" otherwise)."""
        if self.occurrences < 2:
            return ""
        return (f'"{self.name}" occurs {self.occurrences} times on line {line}; used the {_ordinal(self.occurrence)} '
                f"(column {self.column + 1}).")


def resolve_symbol(body: str, symbol: str, language: str | None, rel: str, line: int) -> Resolved:
    """Resolve `symbol` on the line `body` (line `line` of `rel`); ToolError, quoting the line,
    when it is absent or ambiguous."""
    ident = identifier_class(language)
    starts = _occurrences(body, symbol)
    if not starts:
        raise ToolError(f'symbol "{symbol}" is not on line {line} of {rel}; the line is:\n{line}: {_clip(body)}\n'
                        "Give text of that line (e.g. the identifier), or the right line number.")
    whole = [s for s in starts if _is_whole(body, s, s + len(symbol), ident)]
    if len(whole) == 1 or (not whole and len(starts) == 1):
        start = whole[0] if whole else starts[0]
    else:
        listed = whole or starts
        kind = "as a whole word " if whole else ""
        shown = "; ".join(_describe(body, s, symbol, ident) for s in listed[:_LISTED])
        if len(listed) > _LISTED:
            shown += f"; and {len(listed) - _LISTED} more"
        raise Ambiguous(f'symbol "{symbol}" is ambiguous on line {line} of {rel}: it occurs {kind}{len(listed)} times '
                        f"({shown}). Give the quoted text for the one you mean. The line is:\n{line}: {_clip(body)}",
                        [_resolved(body, s, symbol, ident) for s in listed] if len(listed) <= _COMPARED else [])
    return _resolved(body, start, symbol, ident)


_COMPARED = 8  # occurrences a caller may compare (more: the refusal stands, and the work stays bounded)


class Ambiguous(ToolError):
    """`symbol` occurs several times on its line; `options` is where each occurrence resolves
    (the caller may answer when they all name the same thing), empty when there are too many."""

    def __init__(self, message: str, options: list[Resolved]) -> None:
        super().__init__(message)
        self.options = options


def _resolved(body: str, start: int, symbol: str, ident: re.Pattern[str]) -> Resolved:
    end = start + len(symbol)
    column = start + _target_offset(symbol, ident)
    a, b = _word_span(body, column, ident)
    name = body[a:b] if b > a else symbol
    same = [s for s in _occurrences(body, name) if _is_whole(body, s, s + len(name), ident)] if b > a else []
    index = next((i for i, s in enumerate(same) if s == a), 0)
    return Resolved(column, name, start, end, index + 1, max(len(same), 1))


def _target_offset(symbol: str, ident: re.Pattern[str]) -> int:
    """Offset in `symbol` of the last identifier it writes (runs starting with a digit are
    numbers); the first word character, else 0, when it writes none."""
    runs = [m for m in re.finditer(ident.pattern + "+", symbol) if not m.group()[0].isdigit()]
    if runs:
        return runs[-1].start()
    first = ident.search(symbol)
    return first.start() if first else 0


def _occurrences(body: str, text: str) -> list[int]:
    """Start of every occurrence of `text` in `body`, overlapping ones included."""
    found, i = [], body.find(text)
    while i >= 0:
        found.append(i)
        i = body.find(text, i + 1)
    return found


def _is_whole(body: str, start: int, end: int, ident: re.Pattern[str]) -> bool:
    """No identifier continues across either edge of body[start:end]."""
    left = start == 0 or not (ident.match(body[start - 1]) and ident.match(body[start]))
    right = end >= len(body) or not (ident.match(body[end - 1]) and ident.match(body[end]))
    return left and right


def _word_span(body: str, column: int, ident: re.Pattern[str]) -> tuple[int, int]:
    a = b = column
    while a > 0 and ident.match(body[a - 1]):
        a -= 1
    while b < len(body) and ident.match(body[b]):
        b += 1
    return a, b


def _describe(body: str, start: int, symbol: str, ident: re.Pattern[str]) -> str:
    """One listed occurrence: its column, the word it is in, and a substring that picks it."""
    column = start + _target_offset(symbol, ident)
    a, b = _word_span(body, column, ident)
    word = body[a:b] or symbol
    pick = _unique_text(body, start, start + len(symbol), column, ident)
    where = f'column {start + 1}' + (f' in "{word}"' if word != symbol else "")
    return where + (f': "{pick}"' if pick else ": no text of the line picks it alone")


def _unique_text(body: str, start: int, end: int, column: int, ident: re.Pattern[str]) -> str | None:
    """The shortest text around body[start:end] (up to 40 characters more) that occurs once on
    the line and resolves to the identifier at `column`; text without whitespace at its edges
    is preferred, by up to 8 characters more."""
    target = _word_span(body, column, ident)
    spaced: str | None = None
    for extra in range(41):
        if spaced is not None and extra > len(spaced) - (end - start) + 8:
            break
        for i in range(max(start - extra, 0), start + 1):
            j = i + (end - start) + extra
            if j > len(body) or j < end:
                continue
            text = body[i:j]
            first = body.find(text)
            if body.find(text, first + 1) >= 0 or _word_span(body, i + _target_offset(text, ident), ident) != target:
                continue
            if text == text.strip():
                return text
            spaced = spaced or text
    return spaced


def _clip(body: str, limit: int = 400) -> str:
    """A line as quoted in an error: a minified one is cut."""
    return body if len(body) <= limit else f"{body[:limit]}… ({len(body) - limit} more characters)"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
