"""Relational rules: they look at the nodes around the node (`inside` its ancestors, `has` its
descendants, `precedes` the siblings after it, `follows` those before it), as far as `stopBy`
says. The rule tree and its conventions: `_rule`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter

from minitools.match import MetaVarEnv
from minitools.rules import _hidden as nav
from minitools.rules._candidates import candidates
from minitools.rules._rule import Kinds, Needs, Rule, Traced

__all__ = ["Relation", "Inside", "Has", "Precedes", "Follows"]


class Relation(Rule):
    """A relational rule: `rule` for the surrounding node, `stop_by` ("neighbor", "end" or a
    rule whose node is the last one looked at) and `field` (where the target must sit)."""

    __slots__ = ("rule", "stop_by", "field", "language", "_pure", "_memo", "_ok", "_generation", "_pre", "_pre_known",
                 "_inner_kinds")

    def __init__(self, rule: Rule, stop_by: str | Rule, field: str | None, language: str) -> None:
        self.rule = rule
        self.stop_by = stop_by
        self.field = field
        self.language = language
        self._pure: bool | None = None
        self._memo: dict[int, bool] = {}  # node id -> this rule's answer there
        self._ok: dict[int, bool] = {}  # node id -> the inner rule's answer there
        self._generation = -1
        self._pre: Relation | None = None
        self._pre_known = False  # whether _pre was worked out
        self._inner_kinds: tuple[Kinds] | None = None  # the inner rule's kinds, once worked out

    def necessary(self) -> Rule | None:
        if self.pure():
            return self
        inner = self.rule.necessary()
        if inner is None:
            return None
        return type(self)(inner, self.stop_by, self.field, self.language)

    def tokens(self) -> Needs:
        return self.rule.tokens()  # the surrounding node is in the file too

    def ruled_out(self, node: tree_sitter.Node) -> bool:
        """Whether the pure part of this rule already fails at `node` (only for a rule that
        is not pure itself: a pure one memoises its own answers)."""
        if not self._pre_known:
            pre = self.necessary()
            self._pre = pre if isinstance(pre, Relation) and pre is not self else None
            self._pre_known = True
        pre = self._pre
        return pre is not None and pre.match(node, {}) is None

    def cost(self) -> int:
        return (3 if self.stop_by != "neighbor" else 1) + self.rule.cost()

    def inner(self) -> list[Rule]:
        return [self.rule, self.stop_by] if isinstance(self.stop_by, Rule) else [self.rule]

    def pure(self) -> bool:
        if self._pure is None:
            self._pure = True  # a utility that refers back to itself is not re-entered
            self._pure = self.rule.pure()
        return self._pure

    def _memos(self) -> tuple[dict[int, bool], dict[int, bool]]:
        if self._generation != nav.SCOPE.generation:
            self._generation = nav.SCOPE.generation
            self._memo.clear()
            self._ok.clear()
        return self._memo, self._ok

    def _inner_ok(self, node: tree_sitter.Node, ok: dict[int, bool]) -> bool:
        got = ok.get(node.id)
        if got is None:
            got = ok[node.id] = self.rule.match(node, {}) is not None
        return got

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if not self.pure() and self.ruled_out(node):
            return None
        rule, stop = self.rule, self.stop_by
        kinds = self.inner_kinds()
        for other in self.around(node):
            if kinds is not None and other.kind_id not in kinds and not isinstance(stop, Rule):
                continue
            got = rule.match(other, env)
            if got is not None:
                return got
            if isinstance(stop, Rule) and stop.match(other, {}) is not None:
                return None
        return None

    def inner_kinds(self) -> Kinds:
        """The kinds the inner rule can match, worked out once (when matching: utilities
        are resolved by then)."""
        if self._inner_kinds is None:
            self._inner_kinds = (self.rule.kinds(),)
        return self._inner_kinds[0]

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        stop = self.stop_by if isinstance(self.stop_by, Rule) and not isinstance(self, Has) else None
        for other in self.around(node):
            got = self.rule.trace(other, env)
            if got is not None:
                return got[0], [*got[1], got[2]], got[2]
            if stop is not None and stop.match(other, {}) is not None:
                return None
        return None

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        raise NotImplementedError

    def _chain_end(self, node: tree_sitter.Node, step: Callable[[tree_sitter.Node], tree_sitter.Node | None]) -> bool:
        """Whether a node along `step` (the parent, the next or the previous sibling) matches,
        for a pure rule with `stopBy: end`: each node's answer is its neighbour's match or its
        neighbour's answer, kept for the file, so a file costs one step per node."""
        memo, ok = self._memos()
        path = []
        cur: tree_sitter.Node | None = node
        while cur is not None and cur.id not in memo:
            path.append(cur)
            cur = step(cur)
        beyond = memo[cur.id] if cur is not None else False
        for k in range(len(path) - 1, -1, -1):
            near = path[k + 1] if k + 1 < len(path) else cur
            beyond = near is not None and (self._inner_ok(near, ok) or beyond)
            memo[path[k].id] = beyond
        return memo[node.id]


def _parent(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return nav.SCOPE.up(node)


def _next(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return nav.SCOPE.next_sibling(node)


def _previous(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return nav.SCOPE.prev_sibling(node)


class Inside(Relation):
    __slots__ = ()

    def parent_kinds(self) -> Kinds:
        return self.inner_kinds() if self.stop_by == "neighbor" and self.field is None else None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.field is None:
            if self.stop_by == "neighbor":  # the parent alone, without the general walk
                parent = nav.SCOPE.up(node)
                kinds = self.inner_kinds()
                if parent is None or (kinds is not None and parent.kind_id not in kinds):
                    return None
                if not self.pure() and self.ruled_out(node):
                    return None
                return self.rule.match(parent, env)
            if self.stop_by == "end" and self.pure():
                return env if self._chain_end(node, _parent) else None
        return Relation.match(self, node, env)

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        child, parent = node, nav.SCOPE.up(node)
        field = self.field
        while parent is not None:
            if field is None or nav.in_field(parent, child, field):
                yield parent
            elif isinstance(self.stop_by, Rule) and self.stop_by.match(parent, {}) is not None:
                return  # the stop node ends the search even where the field does not fit
            if self.stop_by == "neighbor":
                return
            child, parent = parent, nav.SCOPE.up(parent)


# a `has` first asks a node up to this size for its inner rule's probe (the node's text is copied)
HAS_PROBE_BYTES = 1 << 20


class Has(Relation):
    __slots__ = ()

    def _has_kinds(self, node: tree_sitter.Node, env: MetaVarEnv, kinds: frozenset[int]) -> MetaVarEnv | None:
        """`stopBy: end` when the inner rule names its kinds: the descendants of those kinds,
        found by one query, tried in pre-order (a pure rule's answer is kept for the file)."""
        pure = self.pure()
        if pure:
            memo = self._memos()[0]
            known = memo.get(node.id)
            if known is not None:
                return env if known else None
        elif self.ruled_out(node):
            return None
        rule = self.rule
        found: MetaVarEnv | None = None
        for other in candidates(node, self.language, kinds):
            if other.id == node.id:
                continue
            found = rule.match(other, env)
            if found is not None:
                break
        if pure:
            memo[node.id] = found is not None
        return found

    def _has_end(self, node: tree_sitter.Node) -> bool:
        """Whether a descendant matches: each node's answer is whether a child matches or
        has the answer, kept for the file, so a file costs one step per node."""
        memo, ok = self._memos()
        got = memo.get(node.id)
        if got is not None:
            return got
        stack: list[tuple[tree_sitter.Node, list[tree_sitter.Node] | None]] = [(node, None)]
        while stack:
            n, kids = stack.pop()
            if kids is None:
                if n.id in memo:
                    continue
                kids = nav.SCOPE.kids(n)
                stack.append((n, kids))
                stack.extend((c, None) for c in kids if c.id not in memo)
                continue
            memo[n.id] = any(memo[c.id] or self._inner_ok(c, ok) for c in kids)
        return memo[node.id]

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        first = nav.SCOPE.field_kids(node, self.field) if self.field else nav.SCOPE.kids(node)
        if self.stop_by == "neighbor":
            yield from first
            return
        stop = self.stop_by if isinstance(self.stop_by, Rule) else None
        stack = list(reversed(first))
        while stack:
            n = stack.pop()
            yield n
            if stop is not None and stop.match(n, {}) is not None:
                continue  # the stop node was looked at; nothing below it is
            stack.extend(reversed(nav.SCOPE.kids(n)))

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        # every node the inner rule matches holds its probe (a pattern's rarest token), and lies
        # inside this one: a node whose text lacks it has no such descendant (no query, no walk)
        probe = self.rule.probe
        if probe is not None and node.end_byte - node.start_byte <= HAS_PROBE_BYTES and probe not in (node.text or b""):
            return None
        if self.stop_by == "end" and self.field is None:
            kinds = self.inner_kinds()
            if kinds is not None:
                return self._has_kinds(node, env, kinds)
            if self.pure():
                return env if self._has_end(node) else None
        rule = self.rule
        if self.stop_by == "neighbor":  # the children (of the field), those of the inner rule's kinds
            kinds = self.inner_kinds()
            for other in nav.SCOPE.field_kids(node, self.field) if self.field else nav.SCOPE.kids(node):
                if kinds is None or other.kind_id in kinds:
                    got = rule.match(other, env)
                    if got is not None:
                        return got
            return None
        # the stop rule only prunes the descent (in `around`): siblings are still searched
        for other in self.around(node):
            got = rule.match(other, env)
            if got is not None:
                return got
        return None


class _Siblings(Relation):
    """`precedes` and `follows`: the siblings one way along (`step`), tokens included."""

    __slots__ = ()
    step: Callable[[tree_sitter.Node], tree_sitter.Node | None]

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.stop_by == "end" and self.pure():
            return env if self._chain_end(node, type(self).step) else None
        return Relation.match(self, node, env)

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        step = type(self).step
        n = step(node)
        while n is not None:
            yield n
            if self.stop_by == "neighbor":
                return
            n = step(n)


class Precedes(_Siblings):
    __slots__ = ()
    step = staticmethod(_next)


class Follows(_Siblings):
    __slots__ = ()
    step = staticmethod(_previous)
