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
from collections.abc import Callable, Iterator

import tree_sitter

from minitools.match import MetaVarEnv, Pattern, PNode, match_at_strictness, match_in_env
from minitools.rules import _hidden as nav
from minitools.rules._candidates import candidates

__all__ = [
    "Rule", "PatternRule", "KindRule", "RegexRule", "NthChildRule", "RangeRule",
    "Relation", "Inside", "new_file", "Has", "Precedes", "Follows", "All", "Any", "Not", "Matches",
]

# kind ids a rule can match at; None: any kind
Kinds = frozenset[int] | None


# Per-file memos: a rule that neither binds nor reads metavariables (a "pure" one) gives one
# answer per node, so relational rules that search far (`stopBy: end`) keep their answers for
# the file and the work stays linear in its size. `new_file()` starts a new generation.
_GENERATION = [0]


def new_file() -> None:
    """Forget every rule's per-node answers: the next nodes belong to another tree."""
    _GENERATION[0] += 1


class Rule:
    """One node of a rule tree."""

    __slots__ = ()

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        raise NotImplementedError

    def kinds(self) -> Kinds:
        """The kind ids of the nodes this rule can match; None when it may match any."""
        return None

    def pure(self) -> bool:
        """Whether the rule neither binds nor reads metavariables: its answer at a node is
        the same whatever the environment."""
        return True

    def necessary(self) -> Rule | None:
        """A pure rule every node this rule matches also matches (None: none known): a cheap,
        memoised test that rules nodes out before the full one runs."""
        return self if self.pure() else None

    def tokens(self) -> frozenset[bytes]:
        """Tokens a file must contain for this rule to match anywhere in it (the patterns'
        own words): a file lacking one is not parsed for the rule."""
        return frozenset()

    def parent_kinds(self) -> Kinds:
        """The kinds the parent of every node this rule matches has (None: any): a scan
        passes over a candidate whose parent is of another kind before trying the rule."""
        return None


class PatternRule(Rule):
    __slots__ = ("pattern", "_kinds", "strictness")

    def __init__(self, pattern: Pattern, kinds: Kinds, strictness: str = "smart") -> None:
        self.pattern = pattern
        self._kinds = kinds
        self.strictness = strictness

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.strictness == "smart":
            return match_in_env(self.pattern, node, env)
        return match_at_strictness(self.pattern, node, env, self.strictness)

    def kinds(self) -> Kinds:
        return self._kinds

    def pure(self) -> bool:
        return not self.pattern.metavar_names and not any(a.metavar_names for a in self.pattern.alternatives)

    def tokens(self) -> frozenset[bytes]:
        literals = frozenset(self.pattern.literals)
        if self.strictness in ("smart", "cst"):
            return literals
        if self.strictness == "signature":
            return frozenset()  # a named leaf matches whatever its text
        # `ast` and `relaxed` may pass over the pattern's unnamed tokens: only the texts of its
        # named leaves, written in every reading, are sure to be in a matching file
        for tree in (self.pattern, *self.pattern.alternatives):
            literals &= _named_leaves(tree.nodes)
        return literals

    def necessary(self) -> Rule | None:
        # matching with nothing bound is necessary for matching with anything bound, and its
        # answer does not depend on the environment
        return self if self.pure() else _Shape(self)


def _named_leaves(nodes: tuple[PNode, ...]) -> frozenset[bytes]:
    out: set[bytes] = set()
    stack = list(nodes)
    while stack:
        p = stack.pop()
        if p.children:
            stack.extend(p.children)
        elif not p.meta and p.named:
            out.add(p.btext.strip())
    return frozenset(out)


class _Shape(Rule):
    """A pattern's shape: whether it matches with no metavariable bound (the test a bound
    pattern must pass first), binding nothing."""

    __slots__ = ("rule",)

    def __init__(self, rule: PatternRule) -> None:
        self.rule = rule

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        return env if self.rule.match(node, {}) is not None else None

    def kinds(self) -> Kinds:
        return self.rule.kinds()


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

    def tokens(self) -> frozenset[bytes]:
        word = required_literal(self.regex)
        return frozenset({word.encode("utf-8")}) if len(word) >= 3 else frozenset()


def required_literal(regex: re.Pattern[str]) -> str:
    """The longest run of plain characters every match of `regex` contains (`^(Cookie)$`
    gives `Cookie`), or "" when there is none (or the case does not matter)."""
    if regex.flags & re.IGNORECASE:
        return ""
    from re import _parser  # type: ignore[attr-defined]  # the standard library's own reader

    try:
        parsed = _parser.parse(regex.pattern, regex.flags)
    except Exception:  # noqa: BLE001 - what re compiled, its reader reads; nothing is lost otherwise
        return ""
    best, run = "", ""
    items = list(parsed)
    while items:
        op, arg = items.pop(0)
        if op is _parser.LITERAL:
            run += chr(arg)
            continue
        if op is _parser.SUBPATTERN and len(arg[-1]) and not (arg[1] or arg[2]):
            items[:0] = list(arg[-1])  # a plain group: its items in line
            continue
        if op is _parser.AT:
            continue  # an anchor breaks no run
        best, run = max(best, run, key=len), ""
    return max(best, run, key=len)


class NthChildRule(Rule):
    """The node's 1-based place among its parent's named children (those matching `of_rule`
    when given; counted from the end when `reverse`) is `step * n + offset` for some n ≥ 0."""

    __slots__ = ("step", "offset", "reverse", "of_rule", "_generation", "_places")

    def __init__(self, step: int, offset: int, reverse: bool, of_rule: Rule | None) -> None:
        self.step = step
        self.offset = offset
        self.reverse = reverse
        self.of_rule = of_rule
        self._generation = -1
        # per file: node id -> its place among the counted siblings (0: not counted), found for
        # all of a parent's children at once, so a long list costs its length, not its square
        self._places: dict[int, int] = {}

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if not node.is_named:
            return None
        if self.step == 0:
            return env if self._at_position(node) else None
        if self._generation != _GENERATION[0]:
            self._generation = _GENERATION[0]
            self._places.clear()
        place = self._places.get(node.id)
        if place is None:
            parent = nav.WALK.up(node)
            if parent is None:
                return None
            siblings = nav.WALK.named_kids(parent)
            if self.of_rule is not None:
                of_rule = self.of_rule
                siblings = [s for s in siblings if of_rule.match(s, {}) is not None]
            count = len(siblings)
            for k, s in enumerate(siblings):
                self._places[s.id] = count - k if self.reverse else k + 1
            place = self._places.setdefault(node.id, 0)
        return env if place and self._fits(place) else None

    def _at_position(self, node: tree_sitter.Node) -> bool:
        """Whether the node is at place `offset` exactly: the counted siblings before it (after
        it, `reverse`) are walked, and the walk stops once there are too many."""
        of_rule = self.of_rule
        if nav.WALK.up(node) is None or (of_rule is not None and of_rule.match(node, {}) is None):
            return False
        step = nav.WALK.next_named_sibling if self.reverse else nav.WALK.prev_named_sibling
        place = 1
        n = step(node)
        while n is not None:
            if of_rule is None or of_rule.match(n, {}) is not None:
                place += 1
                if place > self.offset:
                    return False
            n = step(n)
        return place == self.offset

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

    def tokens(self) -> frozenset[bytes]:
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

    def pure(self) -> bool:
        if self._pure is None:
            self._pure = True  # a utility that refers back to itself is not re-entered
            self._pure = self.rule.pure()
        return self._pure

    def _memos(self) -> tuple[dict[int, bool], dict[int, bool]]:
        if self._generation != _GENERATION[0]:
            self._generation = _GENERATION[0]
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
    return nav.WALK.up(node)


def _next(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return nav.WALK.next_sibling(node)


def _previous(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return nav.WALK.prev_sibling(node)


class Inside(Relation):
    __slots__ = ()

    def parent_kinds(self) -> Kinds:
        return self.inner_kinds() if self.stop_by == "neighbor" and self.field is None else None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.field is None:
            if self.stop_by == "neighbor":  # the parent alone, without the general walk
                parent = nav.WALK.up(node)
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
        child, parent = node, nav.WALK.up(node)
        field = self.field
        while parent is not None:
            if field is None or nav.in_field(parent, child, field):
                yield parent
            elif isinstance(self.stop_by, Rule) and self.stop_by.match(parent, {}) is not None:
                return  # the stop node ends the search even where the field does not fit
            if self.stop_by == "neighbor":
                return
            child, parent = parent, nav.WALK.up(parent)


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
                kids = nav.WALK.kids(n)
                stack.append((n, kids))
                stack.extend((c, None) for c in kids if c.id not in memo)
                continue
            memo[n.id] = any(memo[c.id] or self._inner_ok(c, ok) for c in kids)
        return memo[node.id]

    def around(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        first = nav.WALK.field_kids(node, self.field) if self.field else nav.WALK.kids(node)
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
            stack.extend(reversed(nav.WALK.kids(n)))

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.stop_by == "end" and self.field is None:
            kinds = self.inner_kinds()
            if kinds is not None:
                return self._has_kinds(node, env, kinds)
            if self.pure():
                return env if self._has_end(node) else None
        rule = self.rule
        if self.stop_by == "neighbor":  # the children (of the field), those of the inner rule's kinds
            kinds = self.inner_kinds()
            for other in nav.WALK.field_kids(node, self.field) if self.field else nav.WALK.kids(node):
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


class All(Rule):
    """Every rule, in order. `reorder` (for a rule object's keys) sets the order once every
    utility is resolved, on first use."""

    __slots__ = ("rules", "reorder")

    def __init__(self, rules: list[Rule], reorder: Callable[[list[Rule]], list[Rule]] | None = None) -> None:
        self.rules = rules
        self.reorder = reorder

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.reorder is not None:
            self.rules, self.reorder = self.reorder(self.rules), None
        for rule in self.rules:
            got = rule.match(node, env)
            if got is None:
                return None
            env = got
        return env

    def pure(self) -> bool:
        return all(r.pure() for r in self.rules)

    def tokens(self) -> frozenset[bytes]:
        return frozenset().union(*(r.tokens() for r in self.rules))

    def necessary(self) -> Rule | None:
        if self.pure():
            return self
        parts = [n for n in (r.necessary() for r in self.rules) if n is not None]
        return None if not parts else parts[0] if len(parts) == 1 else All(parts)

    def kinds(self) -> Kinds:
        out: Kinds = None
        for rule in self.rules:
            k = rule.kinds()
            if k is not None:
                out = k if out is None else out & k
        return out

    def parent_kinds(self) -> Kinds:
        out: Kinds = None
        for rule in self.rules:
            k = rule.parent_kinds()
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

    def pure(self) -> bool:
        return all(r.pure() for r in self.rules)

    def tokens(self) -> frozenset[bytes]:
        sets = [r.tokens() for r in self.rules]
        return frozenset.intersection(*sets) if sets else frozenset()

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

    def tokens(self) -> frozenset[bytes]:
        return frozenset() if self.target is None else self.target.tokens()

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        assert self.target is not None, f"utility {self.name} was never resolved"
        return self.target.match(node, env)

    def kinds(self) -> Kinds:
        return None if self.target is None else self.target.kinds()
