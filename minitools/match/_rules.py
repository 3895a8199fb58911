"""Per-language matching rules, as data (docs/tools.md, "How a pattern matches").

- TERMINATORS: the token that ends a statement where a line break ends one just as well
  (Go, Python): written in the pattern it may stand for a line break in the target, and
  found in the target it may stand for a line break the pattern wrote. Either way it is
  formatting, never a difference.
- CONTINUATIONS: node kinds that continue the node before them as its siblings rather than
  as its parents (Dart writes `a.b(c)` as `identifier` `selector` `selector`): a single
  metavariable there captures the whole run, the way it captures a postfix chain elsewhere;
  so are a Dart type's arguments and `?` (`Iterable<E>` is `type_identifier` `type_arguments`).
- KEYWORDS: named leaf kinds that are a keyword the grammar gives a name to (Dart's `const`):
  skipped like an unnamed token where the pattern expects another token (`[]` matches `const []`).
"""

from __future__ import annotations

from functools import lru_cache

from minitools.match._grammars import load_language

__all__ = ["TERMINATORS", "CONTINUATIONS", "KEYWORDS", "LanguageRules", "rules_for"]

TERMINATORS: dict[str, str] = {"go": ";", "python": ";"}
CONTINUATIONS: dict[str, tuple[str, ...]] = {"dart": ("selector", "type_arguments", "nullable_type")}
KEYWORDS: dict[str, tuple[str, ...]] = {"dart": ("const_builtin", "final_builtin")}


class LanguageRules:
    """Kind ids for one language's grammar: `terminators` (unnamed tokens), `continuations`
    and `keywords` (named kinds); all empty for most languages."""

    __slots__ = ("terminators", "continuations", "keywords")

    def __init__(self, terminators: frozenset[int], continuations: frozenset[int], keywords: frozenset[int] = frozenset()) -> None:
        self.terminators = terminators
        self.continuations = continuations
        self.keywords = keywords


@lru_cache(maxsize=64)
def rules_for(language: str) -> LanguageRules:
    lang = load_language(language)
    term: set[int] = set()
    token = TERMINATORS.get(language)
    if token is not None:
        kid = lang.id_for_node_kind(token, False)
        if kid:
            term.add(kid)
    cont: set[int] = set()
    for kind in CONTINUATIONS.get(language, ()):
        kid = lang.id_for_node_kind(kind, True)
        if kid:
            cont.add(kid)
    keywords = {lang.id_for_node_kind(kind, True) for kind in KEYWORDS.get(language, ())}
    return LanguageRules(frozenset(term), frozenset(cont), frozenset(k for k in keywords if k))
