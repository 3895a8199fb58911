"""The nodes of given kinds under a node, found by one tree-sitter query (run in C) rather than
a walk in Python: where the matcher tries a pattern's first node, and where a rule scan starts."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter

from minitools.match._grammars import load_language

__all__ = ["ERROR_KIND", "kinds_query", "captured"]

ERROR_KIND = 0xFFFF  # tree-sitter's kind id of an ERROR node


@lru_cache(maxsize=512)
def kinds_query(language: str, kinds: frozenset[int]) -> tree_sitter.Query | None:
    """One query capturing (as `c`) every node of `kinds`; None when the query language cannot
    name one of them (a supertype's alias): walk the tree instead."""
    lang = load_language(language)
    parts = []
    for kid in sorted(kinds):
        if kid == ERROR_KIND:
            parts.append("(ERROR)")
            continue
        name = lang.node_kind_for_id(kid)
        if name is None:
            continue
        if lang.node_kind_is_named(kid):
            parts.append(f"({name})")
        else:
            parts.append('"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"')
    text = "[" + " ".join(dict.fromkeys(parts)) + "] @c" if len(parts) != 1 else f"{parts[0]} @c"
    try:
        return tree_sitter.Query(lang, text)
    except Exception:  # noqa: BLE001 - a kind the query language cannot name
        return None


def captured(query: tree_sitter.Query, root: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The nodes `query` captures under `root`, in pre-order (outer first at equal starts)."""
    nodes = tree_sitter.QueryCursor(query).captures(root).get("c", [])
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return nodes
