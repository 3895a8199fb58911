"""Reading a rule object (the value of a rule file's `rule` key, a utility's body) into the
rule tree: every key is checked before anything runs, and an error names the key by its path
(`rule.any[1].has.stopBy`) and says what was expected (docs/tools.md, "Rules"). Utilities are
resolved once all are read; a rule object's parts are ordered cheapest first."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from minitools.match import ERROR_KIND, STRICTNESS, PatternError, compile_pattern, language_row, python_regex
from minitools.rules._atomic import KindRule, NthChildRule, PatternRule, RangeRule, RegexRule
from minitools.rules._composite import All, Matches, Not
from minitools.rules._composite import Any as AnyRule
from minitools.rules._errors import RuleError
from minitools.rules._hidden import hidden_kind
from minitools.rules._languages import kind_ids, language_id
from minitools.rules._relational import Follows, Has, Inside, Precedes, Relation
from minitools.rules._rule import Rule

__all__ = ["ATOMIC_KEYS", "COMPOSITE_KEYS", "MAX_RULE_DEPTH", "RELATIONAL_KEYS", "RULE_KEYS", "RuleReader", "expect",
           "read_language", "read_local_utils", "read_rule", "shown"]

# a rule object's keys: what the node is, what is around it, and how rules combine
ATOMIC_KEYS = ("pattern", "kind", "regex", "nthChild", "range")
RELATIONAL_KEYS = ("inside", "has", "precedes", "follows")
COMPOSITE_KEYS = ("all", "any", "not", "matches")
RULE_KEYS = (*ATOMIC_KEYS, *RELATIONAL_KEYS, *COMPOSITE_KEYS)
_RELATION_KEYS = ("stopBy", "field")
MAX_RULE_DEPTH = 60  # keys on the path to a rule object (reading and matching recurse)
MAX_CHAIN_DEPTH = 2 * MAX_RULE_DEPTH  # rule levels through utilities naming utilities (matching recurses)


def expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RuleError(f"{where}: expected {what}, got {shown(value)}")
    return value


def shown(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return "an object with keys " + ", ".join(str(k) for k in value) if value else "an empty object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "nothing" if value is None else repr(value)


class RuleReader:
    """Reads one language's rule objects; `utils` are the local then global utilities by id."""

    def __init__(self, language: str, utils: dict[str, Rule] | None = None) -> None:
        self.language = language
        self.utils: dict[str, Rule] = dict(utils or {})
        self.pending: list[tuple[Matches, str]] = []

    def rule(self, obj: Any, where: str) -> Rule:
        if where.count(".") > MAX_RULE_DEPTH:
            raise RuleError(f"{where[:80]}…: rules nest deeper than {MAX_RULE_DEPTH} levels; "
                            "flatten them with all/any or utils")
        obj = expect(obj, Mapping, where, "a rule object (keys: " + ", ".join(RULE_KEYS) + ")")
        unknown = [k for k in obj if k not in RULE_KEYS]
        if unknown:
            raise RuleError(f'{where}: unknown key "{unknown[0]}"; a rule object takes ' + ", ".join(RULE_KEYS))
        if not obj:
            raise RuleError(f"{where}: an empty rule object; give at least one of " + ", ".join(RULE_KEYS))
        # the node's own kind first (cheapest), then the atomic, relational and composite keys
        parts = [read(self, obj[key], f"{where}.{key}") for key, read in _READERS.items() if key in obj]
        return parts[0] if len(parts) == 1 else All(parts, reorder=_cheap_first)

    def all(self, value: Any, where: str) -> Rule:
        items = expect(value, list, where, "a list of rule objects")
        return All([self.rule(r, f"{where}[{k}]") for k, r in enumerate(items)])

    def any(self, value: Any, where: str) -> Rule:
        items = expect(value, list, where, "a list of rule objects")
        return AnyRule([self.rule(r, f"{where}[{k}]") for k, r in enumerate(items)])

    def not_(self, value: Any, where: str) -> Rule:
        return Not(self.rule(value, where))

    def matches(self, value: Any, where: str) -> Rule:
        ref = Matches(expect(value, str, where, "the id of a utility rule"))
        self.pending.append((ref, where))
        return ref

    def kind(self, value: Any, where: str) -> Rule:
        name = expect(value, str, where, "a node kind name")
        if name == "ERROR":
            return KindRule(name, frozenset({ERROR_KIND}))
        hidden = hidden_kind(self.language, name)
        if hidden is not None:  # a kind the grammar hides: its stand-ins (`_hidden`)
            return KindRule(name, frozenset({hidden}))
        ids = kind_ids(self.language, name)
        if ids is None:
            raise RuleError(
                f'{where}: "{name}" is not a node kind of {self.language}; '
                "see the kinds with `minitools ast-grep --debug-query` on a sample"
            )
        row = language_row(self.language)
        word = dict(row.kind_words).get(name)
        return KindRule(name, ids, None if word is None else (word.encode("utf-8"), row.whole_words))

    def pattern(self, value: Any, where: str) -> Rule:
        if isinstance(value, Mapping):
            return self.contextual(value, where)
        source = expect(value, str, where, "a pattern string, or an object with context and selector")
        try:
            compiled = compile_pattern(source, self.language)
        except PatternError as exc:
            raise RuleError(f"{where}: {exc}") from None
        return PatternRule(compiled, _pattern_kinds(compiled, where))

    def contextual(self, value: Mapping[str, Any], where: str) -> Rule:
        unknown = [k for k in value if k not in ("context", "selector", "strictness")]
        if unknown:
            raise RuleError(f'{where}: unknown key "{unknown[0]}"; a pattern object takes context, selector, strictness')
        strictness = value.get("strictness", "smart")
        if strictness not in STRICTNESS:
            raise RuleError(
                f'{where}.strictness: expected one of {", ".join(STRICTNESS)}, got {shown(strictness)}'
            )
        context = expect(value.get("context"), str, f"{where}.context", "the code the pattern sits in")
        try:
            compiled = compile_pattern(context, self.language)
        except PatternError as exc:
            raise RuleError(f"{where}.context: {exc}") from None
        selector = value.get("selector")
        if selector is None:
            return PatternRule(compiled, _pattern_kinds(compiled, where), strictness)
        selector = expect(selector, str, f"{where}.selector", "a node kind in the context")
        from minitools.rules._selector import select

        picked = select(compiled, selector)
        if picked is None:
            raise RuleError(
                f'{where}.selector: the context "{context}" has no node of kind "{selector}"; '
                "pick a kind the context's tree holds (see `minitools ast-grep --debug-query`)"
            )
        return PatternRule(picked, _pattern_kinds(picked, where), strictness)

    def regex(self, value: Any, where: str) -> Rule:
        text = expect(value, str, where, "a regular expression")
        try:
            compiled = re.compile(python_regex(text))
        except re.error as exc:
            raise RuleError(f'{where}: "{text}" is not a regular expression: {exc}') from None
        try:
            return RegexRule(compiled)
        except re.error as exc:  # what the linear search refuses (match/_regex.py)
            raise RuleError(f'{where}: "{text}" is refused: {exc}') from None

    def nth_child(self, value: Any, where: str) -> Rule:
        reverse = False
        of_rule = None
        position = value
        if isinstance(value, Mapping):
            unknown = [k for k in value if k not in ("position", "reverse", "ofRule")]
            if unknown:
                raise RuleError(f'{where}: unknown key "{unknown[0]}"; nthChild takes position, reverse, ofRule')
            position = value.get("position")
            reverse = bool(expect(value.get("reverse", False), bool, f"{where}.reverse", "true or false"))
            if "ofRule" in value:
                of_rule = self.rule(value["ofRule"], f"{where}.ofRule")
            where = f"{where}.position"
        if isinstance(position, int) and not isinstance(position, bool):
            if position < 1:
                raise RuleError(f"{where}: positions count from 1, got {position}")
            return NthChildRule(0, position, reverse, of_rule)
        formula = expect(position, str, where, 'a position (1, 2, ...) or a formula such as "2n+1"')
        step, offset = _formula(formula, where)
        return NthChildRule(step, offset, reverse, of_rule)

    def range(self, value: Any, where: str) -> Rule:
        value = expect(value, Mapping, where, "an object with start and end")

        def point(key: str) -> tuple[int, int]:
            p = expect(value.get(key), Mapping, f"{where}.{key}", "an object with line and column")
            line = expect(p.get("line"), int, f"{where}.{key}.line", "a 0-based line number")
            column = expect(p.get("column"), int, f"{where}.{key}.column", "a 0-based column")
            return line, column

        return RangeRule(point("start"), point("end"))

    def relation(self, cls: type[Relation], value: Any, where: str) -> Rule:
        value = expect(value, Mapping, where, "a rule object, with stopBy and field if needed")
        # other keys are left out, as ast-grep does here (its relation reads the rule keys
        # it knows and ignores the rest)
        inner = {k: v for k, v in value.items() if k in RULE_KEYS}
        rule = self.rule(inner, where)
        stop_value = value.get("stopBy", "neighbor")
        stop: str | Rule
        if stop_value in ("neighbor", "end"):
            stop = stop_value
        elif isinstance(stop_value, Mapping):
            stop = self.rule(stop_value, f"{where}.stopBy")
        else:
            raise RuleError(f'{where}.stopBy: expected "neighbor", "end" or a rule object, got {shown(stop_value)}')
        field = value.get("field")
        if field is not None:
            field = expect(field, str, f"{where}.field", "a field name")
            if cls in (Precedes, Follows):
                raise RuleError(f"{where}.field: only inside and has take a field")
            if self._field_id(field) is None:
                raise RuleError(f'{where}.field: "{field}" is not a field name of {self.language}')
        return cls(rule, stop, field, self.language)

    def _field_id(self, name: str) -> int | None:
        from minitools.match import load_language

        return load_language(self.language).field_id_for_name(name)

    def standalone(self, obj: Any, where: str) -> Rule:
        """A rule object read apart from the rule (a fix's expandStart), with these utilities."""
        return read_rule(obj, self.language, where, self.utils)

    def resolve(self, where_utils: str = "utils") -> None:
        """Point every `matches` at its utility, refusing unknown ids and cycles."""
        for ref, where in self.pending:
            target = self.utils.get(ref.name)
            if target is None:
                known = ", ".join(sorted(self.utils)) or "none"
                raise RuleError(f'{where}: no utility rule "{ref.name}" (known: {known})')
            ref.target = target
        self.pending.clear()
        _check_cycles(self.utils)


# each key of a rule object and its reader, in the order a rule object tries them (RULE_KEYS)
_READERS: dict[str, Callable[[RuleReader, Any, str], Rule]] = {
    "kind": RuleReader.kind, "pattern": RuleReader.pattern, "regex": RuleReader.regex,
    "nthChild": RuleReader.nth_child, "range": RuleReader.range,
    "inside": lambda r, v, w: r.relation(Inside, v, w), "has": lambda r, v, w: r.relation(Has, v, w),
    "precedes": lambda r, v, w: r.relation(Precedes, v, w), "follows": lambda r, v, w: r.relation(Follows, v, w),
    "all": RuleReader.all, "any": RuleReader.any, "not": RuleReader.not_, "matches": RuleReader.matches,
}
assert set(_READERS) == set(RULE_KEYS), "every rule key has its reader"


def _cheap_first(parts: list[Rule]) -> list[Rule]:
    """The parts of a rule object in the order to try them, cheapest first. A part that
    binds or reads metavariables keeps its place among those that do (ast-grep's order: the
    node's own keys, then the relational ones, then the composite ones); a pure part (one
    that does neither) may go anywhere, since it cannot change what the others bind. So the
    two lists are merged by cost, each keeping its own order."""
    if len(parts) < 2 or not any(p.pure() for p in parts):
        return parts
    bound = [p for p in parts if not p.pure()]
    free = sorted((p for p in parts if p.pure()), key=Rule.cost)
    out: list[Rule] = []
    while bound and free:
        out.append(free.pop(0) if free[0].cost() <= bound[0].cost() else bound.pop(0))
    return out + bound + free


def _check_cycles(utils: dict[str, Rule]) -> None:
    """Refuse utilities that refer to each other in a cycle (each would match forever), or
    in a chain deeper than MAX_CHAIN_DEPTH rule levels (matching recurses through it). The
    walk keeps its own stack: a chain of hundreds of utilities is input too."""
    bodies: dict[str, Rule | None] = {}
    graph: dict[str, list[str]] = {}
    for name, rule in utils.items():
        body = rule.target if isinstance(rule, Matches) and rule.name == name else rule
        bodies[name] = body
        graph[name] = [r.name for r in _refs(body) if r.name in utils] if body is not None else []
    depth: dict[str, int] = {}  # done: the rule levels below the utility, through the ones it names
    for first in graph:
        if first in depth:
            continue
        path = [first]
        todo = [iter(graph[first])]
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                name = path.pop()
                todo.pop()
                depth[name] = _levels(bodies[name], depth)
                if depth[name] > MAX_CHAIN_DEPTH:
                    chain = " -> ".join([name, *_deepest_chain(name, graph, depth)])
                    raise RuleError(f"utils: the utility rules {chain[:200]}{'…' if len(chain) > 200 else ''} nest "
                                    f"deeper than {MAX_CHAIN_DEPTH} rule levels through matches; shorten the chain")
            elif nxt in path:
                cycle = (*path[path.index(nxt):], nxt)
                raise RuleError(f"utils: the utility rules {' -> '.join(cycle)} refer to each other in a cycle")
            elif nxt not in depth:
                path.append(nxt)
                todo.append(iter(graph[nxt]))


def _levels(rule: Rule | None, depth: dict[str, int]) -> int:
    """The rule levels in `rule`, a utility it names counting as its own levels plus one."""
    deepest = 0
    stack = [(rule, 1)] if rule is not None else []
    while stack:
        r, level = stack.pop()
        if isinstance(r, Matches):
            level += depth.get(r.name, 0)
        deepest = max(deepest, level)
        stack.extend((inner, level + 1) for inner in r.inner())
    return deepest


def _deepest_chain(name: str, graph: dict[str, list[str]], depth: dict[str, int]) -> list[str]:
    """The utilities below `name` along its deepest chain, for the message."""
    chain: list[str] = []
    while graph.get(name) and len(chain) < 40:
        name = max(graph[name], key=lambda n: depth.get(n, 0))
        chain.append(name)
    return chain


def _refs(rule: Rule) -> list[Matches]:
    out: list[Matches] = []
    stack: list[Rule] = [rule]
    while stack:
        r = stack.pop()
        if isinstance(r, Matches):
            out.append(r)
        stack.extend(r.inner())
    return out


def _pattern_kinds(pattern: Any, where: str) -> frozenset[int] | None:
    kinds: set[int] = set()
    singles = [p for p in (pattern, *pattern.alternatives) if not p.is_sequence]
    if not singles:
        raise RuleError(
            f'{where}: "{pattern.source}" is several nodes in a row; a rule matches one node: '
            "wrap them in their parent (a block, a statement) or use has/precedes (a search by pattern alone, "
            "without a rule, matches such a run: in dart a call is its name and the selectors after it)"
        )
    for p in singles:
        root = p.nodes[0]
        if root.meta:
            return None
        kinds.add(root.kind_id)
    return frozenset(kinds)


def _formula(text: str, where: str) -> tuple[int, int]:
    compact = text.replace(" ", "")
    m = re.fullmatch(r"([+-]?\d*)n(?:([+-]\d+))?|([+-]?\d+)", compact)
    if not m:
        raise RuleError(f'{where}: "{text}" is not a position formula; write An+B, such as "2n+1", or a number')
    if m.group(3) is not None:
        return 0, int(m.group(3))
    step_text = m.group(1)
    step = -1 if step_text == "-" else 1 if step_text in ("", "+") else int(step_text)
    return step, int(m.group(2) or 0)


def read_language(value: Any, where: str) -> str:
    name = expect(value, str, where, "a language name such as python or typescript")
    lang = language_id(name)
    if lang is None:
        raise RuleError(f'{where}: "{name}" is not a language here; see `minitools grammars list`')
    return lang


def read_local_utils(reader: RuleReader, value: Any, where: str) -> None:
    if value is None:
        return
    value = expect(value, Mapping, where, "an object of utility rules by id")
    for name in value:
        reader.utils[str(name)] = Matches(str(name))  # placeholders, so utilities may refer to each other
    for name, body in value.items():
        placeholder = reader.utils[str(name)]
        assert isinstance(placeholder, Matches)
        placeholder.target = reader.rule(body, f"{where}.{name}")


def read_rule(obj: Any, language: str, where: str = "rule", utils: dict[str, Rule] | None = None) -> Rule:
    """One rule object in `language`, every `matches` resolved."""
    reader = RuleReader(language, utils)
    rule = reader.rule(obj, where)
    reader.resolve()
    return rule
