"""Composite rules: `all` in order, `any` the first that matches, `not`, `matches` a utility
rule. The rule tree and its conventions: `_rule`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter

from minitools.match import PROBE_BYTES, MetaVarEnv
from minitools.rules._relational import Relation
from minitools.rules._rule import ANYTHING, Kinds, Needs, Rule, Traced, all_of, any_of

__all__ = ["All", "Any", "Not", "Matches"]


class _Several(Rule):
    """A rule over several rules (`all`, `any`): it costs what its dearest costs, and is pure
    when every one is."""

    __slots__ = ("rules", "_needs")
    rules: list[Rule]
    _needs: Needs | None
    _join: Callable[[list[Needs]], Needs]  # how the words each rule needs combine: all of them, or any

    def tokens(self) -> Needs:
        if self._needs is None:  # worked out once: a utility used in many places is one object
            self._needs = self._join([r.tokens() for r in self.rules])
        return self._needs

    def cost(self) -> int:
        return max((r.cost() for r in self.rules), default=0)

    def inner(self) -> list[Rule]:
        return list(self.rules)

    def pure(self) -> bool:
        return all(r.pure() for r in self.rules)


class All(_Several):
    """Every rule, in order. `reorder` (for a rule object's keys) sets the order once every
    utility is resolved, on first use."""

    __slots__ = ("reorder", "traced")
    _join = staticmethod(all_of)

    def __init__(self, rules: list[Rule], reorder: Callable[[list[Rule]], list[Rule]] | None = None) -> None:
        self.rules = rules
        self.reorder = reorder
        self._needs: Needs | None = None  # (a utility used in many places is worked out once)
        # the order ast-grep tries them in: a rule object's relational keys last (after its
        # own and composite keys), an `all` list as written
        self.traced = rules if reorder is None else [
            *(r for r in rules if not isinstance(r, Relation)), *(r for r in rules if isinstance(r, Relation))]

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.reorder is not None:
            self.rules, self.reorder = self.reorder(self.rules), None
        for rule in self.rules:
            got = rule.match(node, env)
            if got is None:
                return None
            env = got
        return env

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        labels: list[tree_sitter.Node] = []
        for rule in self.traced:
            got = rule.trace(node, env)
            if got is None:
                return None
            env = got[0]
            labels += got[1]
        return env, labels, node


    def necessary(self) -> Rule | None:
        if self.pure():
            return self
        parts = [n for n in (r.necessary() for r in self.rules) if n is not None]
        return None if not parts else parts[0] if len(parts) == 1 else All(parts)

    def kinds(self) -> Kinds:
        return _intersection(rule.kinds() for rule in self.rules)

    def parent_kinds(self) -> Kinds:
        return _intersection(rule.parent_kinds() for rule in self.rules)


def _intersection(each: Iterator[Kinds]) -> Kinds:
    """The kinds every set allows; None (any kind) when none of them says."""
    out: Kinds = None
    for k in each:
        if k is not None:
            out = k if out is None else out & k
    return out


class Any(_Several):
    __slots__ = ("_by_kind",)
    _join = staticmethod(any_of)

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        self._by_kind: dict[int, list[Rule]] | None = None
        self._needs: Needs | None = None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        # only the rules that can match a node of this kind, in order (an `any` of several
        # patterns tried every one on every candidate)
        by_kind = self._by_kind
        if by_kind is None:
            by_kind = self._by_kind = {}
        rules = by_kind.get(node.kind_id)
        if rules is None:
            rules = by_kind[node.kind_id] = [r for r in self.rules if (k := r.kinds()) is None or node.kind_id in k]
        text = None
        for rule in rules:
            probe = rule.probe
            if probe is not None:
                if text is None:  # asked once for all the rules (match_in_env's probe, bounded alike)
                    text = node.text or b"" if node.end_byte - node.start_byte <= PROBE_BYTES else b""
                if text and probe not in text:
                    continue
            got = rule.match(node, env)
            if got is not None:
                return got
        return None

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        for rule in self.rules:
            got = rule.trace(node, env)
            if got is not None:
                return got[0], got[1], node
        return None


    def necessary(self) -> Rule | None:
        if self.pure():
            return self
        parts = [r.necessary() for r in self.rules]
        return None if any(p is None for p in parts) else Any([p for p in parts if p is not None])

    def kinds(self) -> Kinds:
        return _union(rule.kinds() for rule in self.rules)

    def parent_kinds(self) -> Kinds:
        return _union(rule.parent_kinds() for rule in self.rules)


def _union(each: Iterator[Kinds]) -> Kinds:
    """The union of kind sets; None (any kind) when one of them is."""
    out: set[int] = set()
    for k in each:
        if k is None:
            return None
        out |= k
    return frozenset(out)


class Not(Rule):
    __slots__ = ("rule",)

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        return env if self.rule.match(node, env) is None else None

    def cost(self) -> int:
        return self.rule.cost()

    def inner(self) -> list[Rule]:
        return [self.rule]

    def pure(self) -> bool:
        return self.rule.pure()

    def necessary(self) -> Rule | None:
        return self if self.pure() else None


class Matches(Rule):
    """A utility rule, by id; `target` is filled in once every utility is read, so utilities
    may refer to each other in any order (a cycle is refused when they are read)."""

    __slots__ = ("name", "target", "_pure")

    def __init__(self, name: str) -> None:
        self.name = name
        self.target: Rule | None = None
        self._pure: bool | None = None

    def cost(self) -> int:
        return 2

    def pure(self) -> bool:
        if self.target is None:
            return False  # not resolved yet: nothing is known
        if self._pure is None:
            self._pure = True  # cycles are refused when read; this only stops re-entry
            self._pure = self.target.pure()
        return self._pure

    def necessary(self) -> Rule | None:
        if self.pure():
            return self
        return None if self.target is None else self.target.necessary()

    def parent_kinds(self) -> Kinds:
        return None if self.target is None else self.target.parent_kinds()

    def tokens(self) -> Needs:
        return ANYTHING if self.target is None else self.target.tokens()

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        assert self.target is not None, f"utility {self.name} was never resolved"
        return self.target.match(node, env)

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        assert self.target is not None, f"utility {self.name} was never resolved"
        return self.target.trace(node, env)

    def kinds(self) -> Kinds:
        return None if self.target is None else self.target.kinds()
