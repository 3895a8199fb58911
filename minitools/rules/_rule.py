"""The rule tree: each rule says whether a node matches, extending the metavariables bound so
far (docs/tools.md, "Rules"; semantics as ast-grep documents them, checked against its CLI).

Atomic rules look at the node itself (`pattern`, `kind`, `regex`, `nthChild`, `range`);
relational rules at the nodes around it (`inside` its ancestors, `has` its descendants,
`precedes` the siblings after it, `follows` those before it), as far as `stopBy` says:
`neighbor` (the parent, the children, the next or previous sibling), `end`, or a rule whose
node ends the search once checked; composite rules combine (`all` in order, `any` the first
that matches, `not`, `matches` a utility rule). Environments are never changed in place: a
binding makes a new one, so a failed branch leaves nothing behind.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter

from minitools.match import MetaVarEnv, Pattern, match_in_env

__all__ = [
    "Rule", "PatternRule", "KindRule", "RegexRule", "NthChildRule", "RangeRule",
    "Relation", "Inside", "Has", "Precedes", "Follows", "All", "Any", "Not", "Matches",
]

# kind ids a rule can match at; None: any kind
Kinds = frozenset[int] | None


class Rule:
    """One node of a rule tree."""

    __slots__ = ()

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        raise NotImplementedError

    def kinds(self) -> Kinds:
        """The kind ids of the nodes this rule can match; None when it may match any."""
        return None


class PatternRule(Rule):
    __slots__ = ("pattern", "_kinds")

    def __init__(self, pattern: Pattern, kinds: Kinds) -> None:
        self.pattern = pattern
        self._kinds = kinds

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        return match_in_env(self.pattern, node, env)

    def kinds(self) -> Kinds:
        return self._kinds


class KindRule(Rule):
    __slots__ = ("name", "ids")

    def __init__(self, name: str, ids: frozenset[int]) -> None:
        self.name = name
        self.ids = ids

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        return env if node.kind_id in self.ids else None

    def kinds(self) -> Kinds:
        return self.ids


class RegexRule(Rule):
    """The node's text holds a match of the expression (anywhere in it)."""

    __slots__ = ("regex",)

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        text = (node.text or b"").decode("utf-8", errors="replace")
        return env if self.regex.search(text) else None


class NthChildRule(Rule):
    """The node's 1-based place among its parent's named children (those matching `of_rule`
    when given; counted from the end when `reverse`) is `step * n + offset` for some n ≥ 0."""

    __slots__ = ("step", "offset", "reverse", "of_rule")

    def __init__(self, step: int, offset: int, reverse: bool, of_rule: Rule | None) -> None:
        self.step = step
        self.offset = offset
        self.reverse = reverse
        self.of_rule = of_rule

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        parent = node.parent
        if parent is None or not node.is_named:
            return None
        siblings = parent.named_children
        if self.of_rule is not None:
            of_rule = self.of_rule
            siblings = [s for s in siblings if of_rule.match(s, {}) is not None]
        index = next((k for k, s in enumerate(siblings) if s.id == node.id), None)
        if index is None:
            return None
        place = len(siblings) - index if self.reverse else index + 1
        return env if self._fits(place) else None

    def _fits(self, place: int) -> bool:
        if self.step == 0:
            return place == self.offset
        n, rest = divmod(place - self.offset, self.step)
        return rest == 0 and n >= 0


class RangeRule(Rule):
    """The node spans exactly these (line, column) points, 0-based, columns in bytes."""

    __slots__ = ("start", "end")

    def __init__(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        self.start = start
        self.end = end

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if tuple(node.start_point) == self.start and tuple(node.end_point) == self.end:
            return env
        return None


class Relation(Rule):
    """A relational rule: `rule` for the surrounding node, `stop_by` ("neighbor", "end" or a
    rule whose node is the last one looked at) and `field` (where the target must sit)."""

    __slots__ = ("rule", "stop_by", "field")

    def __init__(self, rule: Rule, stop_by: str | Rule, field: str | None) -> None:
        self.rule = rule
        self.stop_by = stop_by
        self.field = field

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        rule, stop = self.rule, self.stop_by
        for other in self.around(node):
            got = rule.match(other, env)
            if got is not None:
                return got
            if isinstance(stop, Rule) and stop.match(other, {}) is not None:
                return None
        return None

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        raise NotImplementedError


def _in_field(parent: tree_sitter.Node, child: tree_sitter.Node, field: str) -> bool:
    return any(c.id == child.id for c in parent.children_by_field_name(field))


class Inside(Relation):
    __slots__ = ()

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        child, parent = node, node.parent
        field = self.field
        while parent is not None:
            if field is None or _in_field(parent, child, field):
                yield parent
            elif isinstance(self.stop_by, Rule) and self.stop_by.match(parent, {}) is not None:
                return  # the stop node ends the search even where the field does not fit
            if self.stop_by == "neighbor":
                return
            child, parent = parent, parent.parent


class Has(Relation):
    __slots__ = ()

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        first = node.children_by_field_name(self.field) if self.field else node.children
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
            stack.extend(reversed(n.children))

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        # the stop rule only prunes the descent (in `around`): siblings are still searched
        rule = self.rule
        for other in self.around(node):
            got = rule.match(other, env)
            if got is not None:
                return got
        return None


class Precedes(Relation):
    __slots__ = ()

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        n = node.next_sibling
        while n is not None:
            yield n
            if self.stop_by == "neighbor":
                return
            n = n.next_sibling


class Follows(Relation):
    __slots__ = ()

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        n = node.prev_sibling
        while n is not None:
            yield n
            if self.stop_by == "neighbor":
                return
            n = n.prev_sibling


class All(Rule):
    __slots__ = ("rules",)

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        for rule in self.rules:
            got = rule.match(node, env)
            if got is None:
                return None
            env = got
        return env

    def kinds(self) -> Kinds:
        out: Kinds = None
        for rule in self.rules:
            k = rule.kinds()
            if k is not None:
                out = k if out is None else out & k
        return out


class Any(Rule):
    __slots__ = ("rules",)

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        for rule in self.rules:
            got = rule.match(node, env)
            if got is not None:
                return got
        return None

    def kinds(self) -> Kinds:
        out: set[int] = set()
        for rule in self.rules:
            k = rule.kinds()
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


class Matches(Rule):
    """A utility rule, by id; `target` is filled in once every utility is read, so utilities
    may refer to each other in any order (a cycle is refused when they are read)."""

    __slots__ = ("name", "target")

    def __init__(self, name: str) -> None:
        self.name = name
        self.target: Rule | None = None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        assert self.target is not None, f"utility {self.name} was never resolved"
        return self.target.match(node, env)

    def kinds(self) -> Kinds:
        return None if self.target is None else self.target.kinds()
