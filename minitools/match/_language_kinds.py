"""The kind ids the matcher compares with, from a language's catalog row (docs/tools.md, "How a
pattern matches"): its statement terminator (written in the pattern it may stand for a line
break in the target, and found in the target for a line break the pattern wrote), its
continuing kinds (a metavariable captures their whole run) and its keyword kinds (skipped
like an unnamed token)."""

from __future__ import annotations

from functools import lru_cache

from minitools.match._catalog import language_row
from minitools.match._grammars import load_language

__all__ = ["LanguageKinds", "kinds_for"]


class LanguageKinds:
    """Kind ids for one language's grammar: `terminators` (unnamed tokens), `continuations`
    and `keywords` (named kinds); all empty for most languages."""

    __slots__ = ("terminators", "continuations", "keywords")

    def __init__(self, terminators: frozenset[int], continuations: frozenset[int], keywords: frozenset[int] = frozenset()) -> None:
        self.terminators = terminators
        self.continuations = continuations
        self.keywords = keywords


@lru_cache(maxsize=64)
def kinds_for(language: str) -> LanguageKinds:
    row = language_row(language)
    lang = load_language(language)
    term: set[int] = set()
    token = row.terminator
    if token is not None:
        kid = lang.id_for_node_kind(token, False)
        if kid:
            term.add(kid)
    cont: set[int] = set()
    for kind in row.continuations:
        kid = lang.id_for_node_kind(kind, True)
        if kid:
            cont.add(kid)
    keywords = {lang.id_for_node_kind(kind, True) for kind in row.keywords}
    return LanguageKinds(frozenset(term), frozenset(cont), frozenset(k for k in keywords if k))
