"""The language names rule files use (ast-grep's, in any case, and their short forms:
`match.language_named`) mapped to the grammars of the language pack, and the node kinds each
grammar names."""

from __future__ import annotations

from functools import lru_cache

from minitools.match import available_languages, language_named, load_language

__all__ = ["language_id", "kind_ids"]



@lru_cache(maxsize=1)
def _available() -> frozenset[str]:
    return frozenset(available_languages())


def language_id(name: str) -> str | None:
    """The pack's grammar for a rule's `language`, or None when there is none."""
    key = language_named(name)
    return key if key in _available() else None


@lru_cache(maxsize=64)
def _named_kinds(language: str) -> dict[str, frozenset[int]]:
    lang = load_language(language)
    out: dict[str, set[int]] = {}
    for kid in range(lang.node_kind_count):
        name = lang.node_kind_for_id(kid)
        if name is not None and lang.node_kind_is_named(kid) and lang.node_kind_is_visible(kid):
            out.setdefault(name, set()).add(kid)
    # a supertype (a hidden kind such as `expression`) names the kinds it stands for
    for sup in lang.supertypes:
        name = lang.node_kind_for_id(sup)
        if name is None or name in out:
            continue
        ids: set[int] = set()
        stack = [sup]
        while stack:
            kid = stack.pop()
            for sub in lang.subtypes(kid):
                if lang.node_kind_is_supertype(sub):
                    if sub not in ids:
                        stack.append(sub)
                elif lang.node_kind_is_visible(sub):
                    ids.add(sub)
        out[name.lstrip("_") if name.lstrip("_") not in out else name] = ids
    return {name: frozenset(ids) for name, ids in out.items()}


def kind_ids(language: str, kind: str) -> frozenset[int] | None:
    """Every kind id the grammar names `kind` (aliases give one name several ids; a supertype
    names its subtypes), or None."""
    return _named_kinds(language).get(kind)
