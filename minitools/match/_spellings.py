"""The spellings of a fragment the ladder reads: as written, with the statement end a `$$$`
before `}` lacks, with a metavariable in a slot written as the slot wants it, and a construct's
head with the rest of the construct written after it (the row's `statement_end`, `slots`,
`heads`)."""

from __future__ import annotations

import re

from minitools.match._catalog import language_row

__all__ = ["spellings"]


def _quoted(fragment: str, language: str, char: str) -> tuple[bytes, dict[int, tuple[int, int]]] | None:
    """The fragment with each metavariable in one of the row's `slots` written as that slot
    wants it (`from $M` as `from "$M"`, not the `import $A` of `import $A from $M`): (bytes,
    {offset of each written opening: (its length, the closing's length)}), or None where there
    is none."""
    slots = language_row(language).slots
    if not slots:
        return None
    c = re.escape(char)
    metavar = rf"{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?|{c}[A-Z_][A-Z0-9_]*"
    places = sorted(
        (m.start(2), m.end(2), opening, closing)
        for before, after, opening, closing in slots
        for m in re.finditer(rf"({before})({metavar})(?={after})", fragment)
    )
    out, written, last = b"", {}, 0
    for start, end, opening, closing in places:
        if start < last:
            continue  # two slots at one metavariable: the first
        out += fragment[last:start].encode("utf-8")
        written[len(out)] = (len(opening.encode("utf-8")), len(closing.encode("utf-8")))
        out += (opening + fragment[start:end] + closing).encode("utf-8")
        last = end
    if not written:
        return None
    return out + fragment[last:].encode("utf-8"), written


def spellings(fragment: str, language: str, char: str) -> list[tuple[bytes, tuple[int, ...], dict[int, tuple[int, int]]]]:
    """The fragment as written, and, where the language ends a statement with a token a
    `$$$` before `}` lacks (Dart reads `{ $$$ }` as a set literal), with that token written
    after each such `$$$`; with a metavariable in a slot written as the slot wants it (`slots`);
    and a construct's head alone (`heads`) with the rest of the construct written after it, each
    of those spellings too: (bytes, offsets of the tokens written, the slots' openings written,
    as `_quoted` gives them)."""
    row = language_row(language)
    bases = [fragment, *(fragment + rest.replace("$", char) for head, rest in row.heads if re.fullmatch(head, fragment))]
    out: list[tuple[bytes, tuple[int, ...], dict[int, tuple[int, int]]]] = []
    for base in bases:
        out.append((base.encode("utf-8"), (), {}))
        ended = _ended(base, row.statement_end, char)
        if ended is not None:
            out.append((ended[0], ended[1], {}))
        quoted = _quoted(base, language, char)
        if quoted is not None:
            out.append((quoted[0], (), quoted[1]))
    return out


def _ended(fragment: str, end: str | None, char: str) -> tuple[bytes, tuple[int, ...]] | None:
    """The fragment with `end` (the row's `statement_end`) written after each `$$$` before a
    `}`, and the offsets written; None where there is none."""
    if end is None:
        return None
    c = re.escape(char)
    out, added, last = b"", [], 0
    for m in re.finditer(rf"{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?(?=\s*\}})", fragment):
        out += fragment[last : m.end()].encode("utf-8")
        added.append(len(out))
        out += end.encode("utf-8")
        last = m.end()
    if not added:
        return None
    return out + fragment[last:].encode("utf-8"), tuple(added)
