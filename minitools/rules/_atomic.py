"""Atomic rules: they look at the node itself (`pattern`, `kind`, `regex`, `nthChild`,
`range`). The rule tree and its conventions: `_rule`."""

from __future__ import annotations

import re

import tree_sitter

from minitools.match import MetaVarEnv, Pattern, PNode, Regex, language_row, match_at_strictness, match_in_env
from minitools.rules import _hidden as nav
from minitools.rules._rule import ANYTHING, Kinds, Needs, Rule, Traced, Word

__all__ = ["PatternRule", "KindRule", "RegexRule", "NthChildRule", "RangeRule", "required_literal"]


_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


class PatternRule(Rule):
    __slots__ = ("pattern", "_kinds", "strictness", "probe")

    def __init__(self, pattern: Pattern, kinds: Kinds, strictness: str = "smart") -> None:
        self.pattern = pattern
        self._kinds = kinds
        self.strictness = strictness
        # every token is matched as written in smart and cst strictness (match_in_env's probe)
        self.probe = pattern.literals[0] if pattern.literals and strictness in ("smart", "cst") else None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if self.strictness == "smart":
            return match_in_env(self.pattern, node, env)
        return match_at_strictness(self.pattern, node, env, self.strictness)

    def kinds(self) -> Kinds:
        return self._kinds

    def pure(self) -> bool:
        return not self.pattern.metavar_names and not any(a.metavar_names for a in self.pattern.alternatives)

    def tokens(self) -> Needs:
        literals = frozenset(self.pattern.literals)
        if self.strictness == "signature":
            return ANYTHING  # a named leaf matches whatever its text
        if self.strictness not in ("smart", "cst"):
            # `ast` and `relaxed` may pass over the pattern's unnamed tokens: only the texts of
            # its named leaves, written in every reading, are sure to be in a matching file
            for tree in (self.pattern, *self.pattern.alternatives):
                literals &= _named_leaves(tree.nodes)
        # a token the pattern writes as a leaf of code (not text inside a string or comment)
        whole = language_row(self.pattern.language).whole_words
        return (frozenset((t, whole and t not in self.pattern.loose and _IDENTIFIER.fullmatch(t) is not None)
                          for t in literals),)

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
    __slots__ = ("name", "ids", "word")

    def __init__(self, name: str, ids: frozenset[int], word: Word | None = None) -> None:
        self.name = name
        self.ids = ids
        self.word = word  # the keyword every node of the kind writes (the catalog's `kind_words`)

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        return env if node.kind_id in self.ids else None

    def kinds(self) -> Kinds:
        return self.ids

    def tokens(self) -> Needs:
        return (frozenset({self.word}),) if self.word else ANYTHING


class RegexRule(Rule):
    """The node's text holds a match of the expression (anywhere in it), found in time linear
    in the text (`_regex`)."""

    __slots__ = ("regex", "_search", "_needs")

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self._search = Regex(regex).search
        self._needs: Needs | None = None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        text = (node.text or b"").decode("utf-8", errors="replace")
        return env if self._search(text) else None

    def tokens(self) -> Needs:
        if self._needs is None:  # (the expression is read again to find its word)
            word = required_literal(self.regex)
            self._needs = (frozenset({(word.encode("utf-8"), False)}),) if len(word) >= 3 else ANYTHING
        return self._needs


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

    def inner(self) -> list[Rule]:
        return [self.of_rule] if self.of_rule is not None else []

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        if not node.is_named:
            return None
        if self.step == 0:
            return env if self._at_position(node) else None
        if self._generation != nav.SCOPE.generation:
            self._generation = nav.SCOPE.generation
            self._places.clear()
        place = self._places.get(node.id)
        if place is None:
            parent = nav.SCOPE.up(node)
            if parent is None:
                return None
            siblings = nav.SCOPE.named_kids(parent)
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
        if nav.SCOPE.up(node) is None or (of_rule is not None and of_rule.match(node, {}) is None):
            return False
        step = nav.SCOPE.next_named_sibling if self.reverse else nav.SCOPE.prev_named_sibling
        place = 1
        n = step(node)
        while n is not None:
            if of_rule is None or of_rule.match(n, {}) is not None:
                place += 1
                if place > self.offset:
                    return False
            n = step(n)
        return place == self.offset

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        # what `ofRule` binds and labels at the node itself is kept (not at its siblings)
        if self.of_rule is None or self.match(node, env) is None:
            return Rule.trace(self, node, env)
        got = self.of_rule.trace(node, env)
        return None if got is None else (got[0], got[1], node)

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
