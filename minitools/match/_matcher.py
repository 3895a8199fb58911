"""Matching a compiled pattern against a parsed tree (docs/tools.md, "How a pattern matches").

Every node the pattern writes must match, in order; a target may differ only in formatting:
- comments (and other extras: Python's line continuations) are skipped wherever they sit;
- an unnamed token of the target that the pattern does not write (a `static` among the
  modifiers, a trailing `,`) is skipped only where the pattern expects another literal
  token; where it expects a metavariable or a sub-construct the token is a difference
  (`() => true` does not match `async () => true`, `var $A $B` not `var x = g()`);
- a statement terminator that a line break can stand for (`;` in Go and Python) may be
  present on one side and a line break on the other;
- extra trailing children of the target are ignored (`if ($C) { $$$ }` matches an if/else).
`$$$` is lazy but backtracks (it takes as few siblings as the rest of the pattern allows),
needs no `,` or `;` after it when empty, and never stops just before a comment or a token
the rest of the pattern would step over, so a capture keeps the comments before, among and
after its items and a trailing separator (`f($$$A)` on `f(x,)` takes `x,`). A single metavariable captures a node, or in Dart a node with
the `selector` siblings that continue it (`t.id`, `jsonEncode(x)`). A repeated metavariable
must capture an equal token sequence. A failed attempt leaves no bindings behind:
environments are copied at each binding.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import zip_longest

import tree_sitter

from minitools.match._budget import MATCH_STEPS, WATCHED, OutOfBudget
from minitools.match._language_kinds import LanguageKinds, kinds_for
from minitools.match._pattern import MULTI, SINGLE, Pattern, PNode

__all__ = ["EmptySeq", "Chain", "MetaVarEnv", "match_at", "match_in_env", "iter_matches", "tick"]

# list separators an empty `$$$` needs none of after it (not `:`: `lambda $$$A: $B`)
_SEPARATORS = frozenset({b",", b";"})

# name -> a node (single) or a list of nodes (sequence, or a single metavariable's Chain)
MetaVarEnv = dict[str, "tree_sitter.Node | list[tree_sitter.Node]"]


def _leaves(nodes: list[tree_sitter.Node]) -> Iterator[bytes]:
    """The leaf texts under `nodes`, comments left out (what "equal" means for captures),
    lazily: a comparison stops at the first difference."""
    stack = list(reversed(nodes))
    while stack:
        n = stack.pop()
        if n.is_extra:
            continue
        if n.child_count == 0:
            yield n.text or b""
        else:
            stack.extend(reversed(n.children))


def _same(a: tree_sitter.Node | list[tree_sitter.Node], b: tree_sitter.Node | list[tree_sitter.Node]) -> bool:
    la = a if isinstance(a, list) else [a]
    lb = b if isinstance(b, list) else [b]
    if len(la) == len(lb) == 1 and la[0].text == lb[0].text and la[0].kind_id == lb[0].kind_id:
        return True  # one node each, of one kind and one text: one token sequence
    missing = object()
    for x, y in zip_longest(_leaves(la), _leaves(lb), fillvalue=missing):  # noqa: SIM110 -- the hot path: no generator per call
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


class EmptySeq(list):
    """An empty `$$$` capture that remembers where it sits: (byte, (row, column))."""

    def __init__(self, at: int, point: tuple[int, int]) -> None:
        super().__init__()
        self.at = at
        self.point = point


class Chain(list):
    """What a single metavariable captured when that is a node and its continuing siblings:
    reported as one capture, the source from the first node to the last."""


def _slice(ts: list[tree_sitter.Node], j: int, k: int) -> list[tree_sitter.Node]:
    if k > j:
        return ts[j:k]
    if not ts:
        return []
    if j < len(ts):
        return EmptySeq(ts[j].start_byte, tuple(ts[j].start_point))  # type: ignore[arg-type]
    last = ts[-1]
    return EmptySeq(last.end_byte, tuple(last.end_point))  # type: ignore[arg-type]


def match_node(p: PNode, t: tree_sitter.Node, env: MetaVarEnv, rules: LanguageKinds) -> MetaVarEnv | None:
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
        if t.text == p.btext or p.is_alias:
            return env  # an aliased token is its kind, however written (Ruby's `'x'` and `"x"`)
        # a directive's token: `# include` is `#include`
        return env if p.btext[:1] == b"#" and b"".join((t.text or b"").split()) == p.btext else None
    r = match_seq(p.children, 0, t.children, 0, env, rules)
    return None if r is None else r[0]


def match_seq(
    ps: tuple[PNode, ...], i: int, ts: list[tree_sitter.Node], j: int, env: MetaVarEnv, rules: LanguageKinds,
    failed: set[tuple[int, int]] | None = None,
) -> tuple[MetaVarEnv, int] | None:
    """Match pattern siblings ps[i:] against target siblings ts[j:] (trailing targets
    ignored); returns the environment and the index after the last target consumed.
    `failed`: the (i, j) the rest was tried at and failed, after a `$$$` whose `memo` says
    the answer there cannot depend on what was bound before: each is tried once, so a run of
    `$$$` costs the product of the places, not of the ways to split the siblings."""
    np, nt = len(ps), len(ts)
    while i < np:
        p = ps[i]
        if p.meta == MULTI:
            if i == np - 1:
                # a trailing sequence takes the rest: nothing after it could constrain it
                bound = _bind(env, p.name, _slice(ts, j, nt))
                return None if bound is None else (bound, nt)
            # lazy with backtracking: as few siblings as the rest of the pattern allows,
            # never ending just before a comment or a token the rest would step over (the
            # capture keeps them: `f($$$A)` on `f(x,)` takes `x,`)
            nxt = ps[i + 1]
            token = not nxt.meta and not nxt.children
            if p.memo and failed is None:
                failed = set()
            memo = failed if p.memo else None
            # a terminator after it a line break can stand for (Bash `$$$B; fi` on `rm x\nfi`):
            # the sequence may also end before the token that follows the terminator
            after = ps[i + 2] if token and nxt.kind_id in rules.terminators and i + 2 < np else None
            for k in range(j, nt + 1):
                tick()
                if k < nt:
                    t = ts[k]
                    if t.is_extra:
                        continue
                    if token and not t.is_named and (t.kind_id != nxt.kind_id or t.text != nxt.btext):
                        if after is None or after.meta or after.children or t.kind_id != after.kind_id or t.text != after.btext:
                            continue
                        bound = _bind(env, p.name, _slice(ts, j, k))
                        r = None if bound is None else _rest(ps, i + 2, ts, k, bound, rules, failed, memo)
                        if r is not None:
                            return r
                        continue
                bound = _bind(env, p.name, _slice(ts, j, k))
                if bound is not None:
                    r = _rest(ps, i + 1, ts, k, bound, rules, failed, memo)
                    if r is None and i + 2 < np and all(ts[x].is_extra for x in range(j, k)):
                        sep = ps[i + 1]
                        if not sep.meta and not sep.children and sep.btext in _SEPARATORS:
                            # an empty sequence (or one of comments only) needs no separator:
                            # `foo($$$A, b)` matches `foo(b)`
                            r = _rest(ps, i + 2, ts, k, bound, rules, failed, memo)
                    if r is not None:
                        return r
            return None
        while j < nt and ts[j].is_extra:
            j += 1  # comments are formatting
        if j >= nt:
            if not p.meta and p.kind_id in rules.terminators:
                i += 1  # the pattern's `;` stands for the line break that ends the target
                continue
            return None
        t = ts[j]
        if p.meta and rules.continuations:
            if t.kind_id in rules.continuations:
                return None  # a continuation is no expression of its own
            if j + 1 < nt and ts[j + 1].kind_id in rules.continuations:
                return _match_run_capture(ps, i, ts, j, env, rules)
        got = match_node(p, t, env, rules)
        if got is not None:
            env, i, j = got, i + 1, j + 1
            continue
        if not p.meta and not p.children:
            if not t.is_named or t.kind_id in rules.keywords:
                j += 1  # a token the pattern does not write, where it expects a token
                continue
            if p.kind_id in rules.terminators:
                i += 1  # the pattern's `;`, where the target breaks the line instead
                continue
        if t.kind_id in rules.terminators:
            j += 1  # the target's `;`, where the pattern breaks the line instead
            continue
        return None
    return env, j


def tick() -> None:
    """One step of a `$$$`'s backtracking: every MATCH_STEPS, OutOfBudget when the watched
    budget (`_budget.watched`) has run out."""
    WATCHED.steps += 1
    if not WATCHED.steps % MATCH_STEPS:
        budget = WATCHED.budget
        if budget is not None and budget.spent():
            raise OutOfBudget(budget.stopped)


def _rest(
    ps: tuple[PNode, ...], i: int, ts: list[tree_sitter.Node], j: int, env: MetaVarEnv, rules: LanguageKinds,
    failed: set[tuple[int, int]] | None, memo: set[tuple[int, int]] | None,
) -> tuple[MetaVarEnv, int] | None:
    """`match_seq` of the rest after a `$$$`, not tried again where it failed before when
    `memo` (the failures the `$$$` may rely on) is given."""
    if memo is None:
        return match_seq(ps, i, ts, j, env, rules, failed)
    if (i, j) in memo:
        return None
    r = match_seq(ps, i, ts, j, env, rules, failed)
    if r is None:
        memo.add((i, j))
    return r


def _match_run_capture(
    ps: tuple[PNode, ...], i: int, ts: list[tree_sitter.Node], j: int, env: MetaVarEnv, rules: LanguageKinds
) -> tuple[MetaVarEnv, int] | None:
    """A single metavariable at ts[j] followed by continuing siblings: the longest run the
    rest of the pattern allows (a postfix chain is one expression)."""
    p = ps[i]
    end = j + 1
    if p.meta == SINGLE and not ts[j].is_named:
        end = j  # a single metavariable starts at a named node, or nowhere
    while j < end < len(ts) and ts[end].kind_id in rules.continuations:
        end += 1
    for stop in range(end, j, -1):
        if stop == j + 1:
            bound = match_node(p, ts[j], env, rules)
        else:
            bound = _bind(env, p.name, Chain(ts[j:stop]))
        if bound is not None:
            r = match_seq(ps, i + 1, ts, stop, bound, rules)
            if r is not None:
                return r
    return None


def match_at(pattern: Pattern, node: tree_sitter.Node) -> MetaVarEnv | None:
    """Match a single-node pattern at `node`."""
    return match_node(pattern.nodes[0], node, {}, kinds_for(pattern.language))


def iter_matches(
    pattern: Pattern, candidates: Iterable[tree_sitter.Node]
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node, MetaVarEnv]]:
    """(first node, last node, env) for every match among `candidates`: nodes of the pattern's
    root kind (for a sibling-run pattern, of its first node's kind), in the order given.
    A sibling-run pattern matches a run of siblings anywhere: at the top of a file or in
    any block."""
    rules = kinds_for(pattern.language)
    if not pattern.is_sequence:
        p = pattern.nodes[0]
        for node in candidates:
            env = match_node(p, node, {}, rules)
            if env is not None:
                yield node, node, env
        return
    ps = pattern.nodes
    siblings: dict[int, tuple[list[tree_sitter.Node], dict[tuple[int, int, int], int]]] = {}
    for node in candidates:
        parent = node.parent
        if parent is None or node.is_extra:
            continue  # (a run starts at its first node, not at a comment before it)
        known = siblings.get(parent.id)
        if known is None:
            kids = parent.children
            # the parent's own closing tokens (a block's `}`) are not part of any run; a parent
            # that opens with no token (a file) has none: its last `;` ends a statement
            opens = next((k for k in kids if not k.is_extra), None)
            while opens is not None and not opens.is_named and kids and not kids[-1].is_named and not kids[-1].is_extra:
                kids = kids[:-1]
            known = siblings[parent.id] = (kids, {(k.start_byte, k.end_byte, k.kind_id): n for n, k in enumerate(kids)})
        kids, where = known
        idx = where.get((node.start_byte, node.end_byte, node.kind_id))
        if idx is None:
            continue
        r = match_seq(ps, 0, kids, idx, {}, rules)
        if r is not None:
            env, after = r
            last = after - 1
            while last > idx and kids[last].is_extra:
                last -= 1
            yield node, kids[last], env


def match_in_env(pattern: Pattern, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
    """`env` extended by matching `pattern` (its own tree, else one of its alternatives') at
    `node`, or None: how a rule's `pattern` sees a node, with the metavariables the rule
    has bound so far. Sibling-run trees are not tried (a rule matches one node)."""
    literals = pattern.literals
    if literals and node.end_byte - node.start_byte <= PROBE_BYTES and literals[0] not in (node.text or b""):
        return None  # a match writes every token the pattern writes (the longest, the rarest, is asked)
    rules = kinds_for(pattern.language)
    if not pattern.alternatives:
        return None if len(pattern.nodes) > 1 else match_node(pattern.nodes[0], node, env, rules)
    for p in (pattern, *pattern.alternatives):
        if not p.is_sequence:
            got = match_node(p.nodes[0], node, env, rules)
            if got is not None:
                return got
    return None


# A node up to this size is first asked for the pattern's rarest token (its text is copied to
# ask); a larger one is matched at once, so no node costs more than this to rule out.
PROBE_BYTES = 512
