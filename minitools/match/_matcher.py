"""Matching a compiled pattern against a parsed tree (REFERENCE.md, "Structural matching").

Rules: nodes compare by kind; leaves by exact text; comments and unmatched unnamed tokens in
the target are skipped; every token the pattern writes must match; extra trailing children
of the target are ignored; `$$$` is lazy but backtracks (it takes as few siblings as the rest
of the pattern allows); a repeated metavariable must capture an equal token sequence. A
failed attempt leaves no bindings behind: environments are copied at each binding.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import zip_longest

import tree_sitter

from minitools.match._pattern import ANY, MULTI, SINGLE, Pattern, PNode

__all__ = ["EmptySeq", "MetaVarEnv", "match_at", "iter_matches"]

# name -> a node (single) or a list of nodes (sequence)
MetaVarEnv = dict[str, "tree_sitter.Node | list[tree_sitter.Node]"]


def _leaves(nodes: list[tree_sitter.Node]) -> Iterator[bytes]:
    """The leaf texts under `nodes`, comments left out (what "equal" means for captures),
    lazily: a comparison stops at the first difference."""
    stack = list(reversed(nodes))
    while stack:
        n = stack.pop()
        if n.child_count == 0:
            if not (n.is_extra and "comment" in n.type):
                yield n.text or b""
        elif not (n.is_extra and "comment" in n.type):
            stack.extend(reversed(n.children))


def _same(a: tree_sitter.Node | list[tree_sitter.Node], b: tree_sitter.Node | list[tree_sitter.Node]) -> bool:
    la = a if isinstance(a, list) else [a]
    lb = b if isinstance(b, list) else [b]
    if len(la) == len(lb) == 1 and la[0].text == lb[0].text and la[0].kind_id == lb[0].kind_id:
        return True  # one node each, of one kind and one text: one token sequence
    missing = object()
    for x, y in zip_longest(_leaves(la), _leaves(lb), fillvalue=missing):
        if x != y:
            return False
    return True


def _bind(env: MetaVarEnv, name: str | None, value: tree_sitter.Node | list[tree_sitter.Node]) -> MetaVarEnv | None:
    if name is None:
        return env
    bound = env.get(name)
    if bound is not None:
        return env if _same(bound, value) else None
    new = dict(env)
    new[name] = value
    return new


class EmptySeq(list):  # type: ignore[type-arg]
    """An empty `$$$` capture that remembers where it sits: (byte, (row, column))."""

    def __init__(self, at: int, point: tuple[int, int]) -> None:
        super().__init__()
        self.at = at
        self.point = point


def _slice(ts: list[tree_sitter.Node], j: int, k: int) -> list[tree_sitter.Node]:
    if k > j:
        return ts[j:k]
    if j < len(ts):
        return EmptySeq(ts[j].start_byte, tuple(ts[j].start_point))  # type: ignore[arg-type]
    last = ts[-1]
    return EmptySeq(last.end_byte, tuple(last.end_point))  # type: ignore[arg-type]


def _children(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    return [c for c in node.children if not c.is_extra]


def match_node(p: PNode, t: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
    """`env` extended by matching pattern node `p` at target node `t`, or None."""
    meta = p.meta
    if meta:
        if meta == SINGLE and not t.is_named:
            return None
        if meta == MULTI:
            return _bind(env, p.name, [t])
        return _bind(env, p.name, t)
    if t.kind_id != p.kind_id:
        return None
    if not p.children:
        return env if t.text == p.btext else None
    return match_seq(p.children, 0, _children(t), 0, env)


def match_seq(
    ps: tuple[PNode, ...], i: int, ts: list[tree_sitter.Node], j: int, env: MetaVarEnv
) -> MetaVarEnv | None:
    """Match pattern siblings ps[i:] against target siblings ts[j:] (trailing targets ignored)."""
    np, nt = len(ps), len(ts)
    while i < np:
        p = ps[i]
        if p.meta == MULTI:
            if i == np - 1:
                # a trailing sequence takes the rest: nothing after it could constrain it
                return _bind(env, p.name, _slice(ts, j, nt)) if ts else _bind(env, p.name, [])
            # lazy with backtracking: as few siblings as the rest of the pattern allows
            for k in range(j, nt + 1):
                bound = _bind(env, p.name, _slice(ts, j, k) if ts else [])
                if bound is not None:
                    r = match_seq(ps, i + 1, ts, k, bound)
                    if r is not None:
                        return r
            return None
        if j >= nt:
            return None
        t = ts[j]
        r = match_node(p, t, env)
        if r is not None:
            env, i, j = r, i + 1, j + 1
            continue
        if not t.is_named:
            j += 1  # an unmatched unnamed token of the target is not significant
            continue
        return None
    return env


def match_at(pattern: Pattern, node: tree_sitter.Node) -> MetaVarEnv | None:
    """Match a single-node pattern at `node`."""
    return match_node(pattern.nodes[0], node, {})


def match_run(pattern: Pattern, siblings: list[tree_sitter.Node], start: int) -> tuple[MetaVarEnv, int] | None:
    """Match a sibling-run pattern at siblings[start:]; returns the env and the index after the run."""
    ps = pattern.nodes
    env: MetaVarEnv | None = {}
    j = start
    for p in ps:
        if j >= len(siblings) or env is None:
            return None
        if p.meta == MULTI:
            return None  # sequences at the top of a run are not supported
        env = match_node(p, siblings[j], env)
        j += 1
    if env is None:
        return None
    return env, j


def iter_matches(
    pattern: Pattern, candidates: list[tree_sitter.Node]
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node, MetaVarEnv]]:
    """(first node, last node, env) for every match among `candidates`: nodes of the pattern's
    root kind (for a sibling-run pattern, of its first node's kind), in the order given."""
    if not pattern.is_sequence:
        p = pattern.nodes[0]
        for node in candidates:
            env = match_node(p, node, {})
            if env is not None:
                yield node, node, env
        return
    for node in candidates:
        parent = node.parent
        if parent is None:
            continue
        kids = _children(parent)
        idx = next((i for i, k in enumerate(kids) if k.start_byte == node.start_byte and k.end_byte == node.end_byte and k.kind_id == node.kind_id), None)
        if idx is None:
            continue
        r = match_run(pattern, kids, idx)
        if r is not None:
            env, after = r
            yield node, kids[after - 1], env
