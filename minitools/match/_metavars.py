"""How a pattern spells a metavariable (`$A`, `$$A`, `$$$`, `$$$A`, `$_`) with its language's
metavariable character, and how a node's text gets the `$` spellings back."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["METAVAR_IN_SOURCE", "metavar_regexes", "metavar_at_edge", "restorer"]


# a metavariable as a pattern spells it (`$A`, `$$A`, `$$$`, `$$$A`, `$_`)
METAVAR_IN_SOURCE = re.compile(r"\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$\$?[A-Z_][A-Z0-9_]*")


def metavar_regexes(char: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    c = re.escape(char)
    return (
        re.compile(rf"{c}{c}{c}([A-Z_][A-Z0-9_]*)?"),
        re.compile(rf"{c}{c}([A-Z_][A-Z0-9_]*)"),
        re.compile(rf"{c}([A-Z_][A-Z0-9_]*)"),
    )


def metavar_at_edge(char: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Regexes for a metavariable ending a text (before a gap) and starting one (after it)."""
    c = re.escape(char)
    one = rf"(?:{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?|{c}{c}?[A-Z_][A-Z0-9_]*)"
    return re.compile(one + r"\s*\Z"), re.compile(r"\s*" + one + r"(?![A-Za-z0-9_])")


def restorer(char: str, source: str) -> Callable[[str], str]:
    """How a pattern node's text gets its metavariables back as `$` spellings. Where the
    substitute can also be written literally (CSS and Nix write `$A` as `_A`, and `my_class` has
    a `_` of its own) only the spellings the source's own metavariables became are restored,
    each a whole word; elsewhere every substitute character is one."""
    if char == "$":
        return lambda text: text
    if char != "_":
        return lambda text: text.replace(char, "$")
    spelled = {m.replace("$", char): m for m in METAVAR_IN_SOURCE.findall(source)}
    if not spelled:
        return lambda text: text
    words = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(spelled, key=len, reverse=True))) + r")(?![\w-])")
    return lambda text: words.sub(lambda m: spelled[m.group(0)], text)
