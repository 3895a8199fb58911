"""The nodes of given kinds under a node, found by one tree-sitter query (in C) rather than
a walk in Python: where a scan starts, and how far-reaching `has` rules find what to try."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter

from minitools.match import load_language
from minitools.rules._hidden import Hidden, hidden_ids, with_hidden

__all__ = ["candidates"]


@lru_cache(maxsize=256)
def _query(language: str, kinds: frozenset[int]) -> tree_sitter.Query | None:
    lang = load_language(language)
    parts = []
    for kid in sorted(kinds):
        if kid == 0xFFFF:
            parts.append("(ERROR)")
            continue
        name = lang.node_kind_for_id(kid)
        if name is None:
            continue
        if lang.node_kind_is_named(kid):
            parts.append(f"({name})")
        else:
            parts.append('"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"')
    try:
        return tree_sitter.Query(lang, "[" + " ".join(dict.fromkeys(parts)) + "] @c")
    except Exception:  # noqa: BLE001 - a kind the query language cannot name: walk the tree instead
        return None


def candidates(root: tree_sitter.Node, language: str, kinds: frozenset[int]) -> list[tree_sitter.Node]:
    """The nodes under `root` whose kind is one of `kinds`, in pre-order; the stand-ins of a
    kind the grammar hides (`_hidden`) among them."""
    hidden = kinds & hidden_ids(language)
    inner = root.inner if isinstance(root, Hidden) else root  # (a stand-in's node is under it)
    if hidden:
        return with_hidden(candidates(inner, language, kinds - hidden) if kinds - hidden else [], root, hidden)
    root = inner
    query = _query(language, kinds)
    if query is not None:
        nodes = tree_sitter.QueryCursor(query).captures(root).get("c", [])
        nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
        return nodes
    out = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.kind_id in kinds:
            out.append(n)
        stack.extend(reversed(n.children))
    return out
