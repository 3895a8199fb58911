"""The nodes of given kinds under a node, found by one tree-sitter query (in C) rather than
a walk in Python: where a scan starts, and how far-reaching `has` rules find what to try."""

from __future__ import annotations

import tree_sitter

from minitools.match import captured, kinds_query
from minitools.rules._hidden import Hidden, hidden_ids, with_hidden

__all__ = ["candidates"]


def candidates(root: tree_sitter.Node, language: str, kinds: frozenset[int]) -> list[tree_sitter.Node]:
    """The nodes under `root` whose kind is one of `kinds`, in pre-order; the stand-ins of a
    kind the grammar hides (`_hidden`) among them."""
    hidden = kinds & hidden_ids(language)
    inner = root.inner if isinstance(root, Hidden) else root  # (a stand-in's node is under it)
    if hidden:
        return with_hidden(candidates(inner, language, kinds - hidden) if kinds - hidden else [], root, hidden)
    root = inner
    query = kinds_query(language, kinds)
    if query is not None:
        return captured(query, root)
    out = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.kind_id in kinds:
            out.append(n)
        stack.extend(reversed(n.children))
    return out
