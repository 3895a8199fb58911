"""Matching at a strictness other than the default `smart` (docs/tools.md, "Pattern strictness"):
a rule's `pattern: {context, strictness}` says which nodes may differ between the pattern and
the code.

| level | pattern nodes that may go unmatched | code nodes that may go unmatched |
|---|---|---|
| `cst` | none | none |
| `smart` | none | unnamed tokens, and any node after the pattern's last (the default matcher, `_matcher`) |
| `ast` | unnamed tokens | unnamed tokens |
| `relaxed` | unnamed tokens | unnamed tokens and comments |
| `signature` | as `relaxed`, and a named leaf matches any leaf of its kind, whatever its text |

An unnamed token of the pattern meeting another unnamed token of the code passes both
(`ast`: `print($A,)` matches `print(1)`); a node with children must meet a node of its kind.
Under `relaxed` and `signature` a metavariable passes over comments, so `$A` never captures
one. `$$$` takes as few siblings as the rest allows, backtracking when the rest fails, and
the token after it may be missing (`foo($$$A, b)` matches `foo(b)`). Comments a pattern writes
are formatting, as at every level: they are not matched.
"""

from __future__ import annotations

import tree_sitter

from minitools.match._matcher import MetaVarEnv, _bind, _slice, match_in_env, tick
from minitools.match._pattern import Pattern
from minitools.match._pnode import ANY, MULTI, SINGLE, PNode

__all__ = ["STRICTNESS", "match_at_strictness"]

STRICTNESS = ("cst", "smart", "ast", "relaxed", "signature")

_MATCHED, _SKIP_PATTERN, _SKIP_CODE, _SKIP_BOTH, _NO = range(5)


class _Level:
    """What one strictness level lets go unmatched."""

    __slots__ = ("skips_tokens", "skips_code_tokens", "skips_comments", "texts")

    def __init__(self, name: str) -> None:
        self.skips_tokens = name in ("ast", "relaxed", "signature")  # the pattern's unnamed tokens
        self.skips_code_tokens = name != "cst"
        self.skips_comments = name in ("relaxed", "signature")
        self.texts = name != "signature"  # named leaves compare their text

    def code_skipped(self, t: tree_sitter.Node) -> bool:
        if not t.is_named:
            return self.skips_code_tokens
        return self.skips_comments and _comment(t)

    def pattern_skipped(self, p: PNode) -> bool:
        """Whether `p` may go unmatched when the code runs out (a `$$$` matches nothing)."""
        if p.meta == MULTI:
            return True
        if not self.skips_tokens:
            return False
        return p.meta == ANY or (not p.meta and not p.children and not p.named)


def _comment(t: tree_sitter.Node) -> bool:
    return t.is_named and "comment" in t.type


_LEVELS = {name: _Level(name) for name in STRICTNESS if name != "smart"}


def match_at_strictness(pattern: Pattern, node: tree_sitter.Node, env: MetaVarEnv, strictness: str) -> MetaVarEnv | None:
    """`match_in_env` at `strictness`: `env` extended by matching `pattern` (its own tree, else
    one of its alternatives') at `node`, or None."""
    level = _LEVELS.get(strictness)
    if level is None:
        return match_in_env(pattern, node, env)
    for q in (pattern, *pattern.alternatives):
        if not q.is_sequence:
            outcome, got = _one(q.nodes[0], node, env, level)
            if outcome == _MATCHED:
                return got
    return None


def _one(p: PNode, t: tree_sitter.Node, env: MetaVarEnv, level: _Level) -> tuple[int, MetaVarEnv | None]:
    if p.meta:
        if level.skips_comments and _comment(t):
            return _SKIP_CODE, None
        if p.meta == SINGLE and not t.is_named:
            return _NO, None
        got = _bind(env, p.name, [t] if p.meta == MULTI else t)
        return (_NO if got is None else _MATCHED), got
    if p.children:
        if t.kind_id == p.kind_id:
            got = _seq(p.children, 0, t.children, 0, env, level)
            return (_NO if got is None else _MATCHED), got
        return (_SKIP_CODE if level.skips_comments and _comment(t) else _NO), None
    if t.kind_id == p.kind_id and (not p.named or not level.texts or t.text == p.btext):
        return _MATCHED, env
    skip_pattern = level.skips_tokens and not p.named
    skip_code = level.code_skipped(t)
    if skip_pattern:
        return (_SKIP_BOTH if skip_code else _SKIP_PATTERN), None
    return (_SKIP_CODE if skip_code else _NO), None


def _seq(ps: tuple[PNode, ...], i: int, ts: list[tree_sitter.Node], j: int, env: MetaVarEnv, level: _Level,
         failed: set[tuple[int, int]] | None = None) -> MetaVarEnv | None:
    """ps[i:] against ts[j:]; `failed` as in `_matcher.match_seq`: where the rest after a
    `$$$` failed, when that cannot depend on what was bound before."""
    np, nt = len(ps), len(ts)
    while True:
        if i == np:
            # after the pattern's last node, only what the level lets go unmatched
            return env if all(level.code_skipped(t) for t in ts[j:]) else None
        p = ps[i]
        if p.meta == MULTI:
            if i == np - 1:
                return _bind(env, p.name, _slice(ts, j, nt))
            after = ps[i + 1]
            # the token after a `$$$` (a `,`) may be missing: `foo($$$A, b)` matches `foo(b)`
            token = not after.meta and not after.children and not after.named
            if p.memo and failed is None:
                failed = set()
            memo = failed if p.memo else None
            for k in range(j, nt + 1):  # as few as the rest allows
                tick()
                bound = _bind(env, p.name, _slice(ts, j, k))
                if bound is not None:
                    for rest in (i + 1, i + 2) if token else (i + 1,):
                        if memo is not None and (rest, k) in memo:
                            continue
                        got = _seq(ps, rest, ts, k, bound, level, failed)
                        if got is not None:
                            return got
                        if memo is not None:
                            memo.add((rest, k))
            return None
        if j == nt:
            for q in ps[i:]:
                if not level.pattern_skipped(q):
                    return None
                if q.meta == MULTI:
                    bound = _bind(env, q.name, _slice(ts, j, j))
                    if bound is None:
                        return None
                    env = bound
            return env
        outcome, got = _one(p, ts[j], env, level)
        if outcome == _MATCHED:
            env, i, j = got, i + 1, j + 1  # type: ignore[assignment]
        elif outcome == _SKIP_PATTERN:
            i += 1
        elif outcome == _SKIP_CODE:
            j += 1
        elif outcome == _SKIP_BOTH:
            i, j = i + 1, j + 1
        else:
            return None
