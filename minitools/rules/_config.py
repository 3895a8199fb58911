"""Reading a rule's configuration (a rule file's content, or the `rule` argument) into a
checked RuleConfig: every key is checked before anything runs, and an error names the key by
its path (`rule.any[1].has.stopBy`) and says what was expected (docs/tools.md, "Rules")."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from minitools.match import Regex, glob_regex, not_unicode
from minitools.rules._atomic import PatternRule
from minitools.rules._composite import Matches
from minitools.rules._errors import RuleError
from minitools.rules._reader import RULE_KEYS, RuleReader, expect, read_language, read_local_utils, shown
from minitools.rules._rewriters import Rewriter
from minitools.rules._rule import Rule
from minitools.rules._transform import Fix, Transform, read_fix, read_transforms

__all__ = ["RuleError", "RuleConfig", "Label", "LABEL_STYLES", "read_config", "read_util", "UtilRule", "SEVERITIES"]

SEVERITIES = ("hint", "info", "warning", "error", "off")
_CONFIG_KEYS = (
    "id", "language", "rule", "constraints", "utils", "transform", "fix", "severity", "message",
    "note", "url", "metadata", "files", "ignores", "labels", "rewriters",
)
_REWRITER_KEYS = ("id", "rule", "constraints", "transform", "utils", "fix")
_METAVAR_NAME = re.compile(r"\$?([A-Z_][A-Z0-9_]*)\Z")


class UtilRule(NamedTuple):
    id: str
    language: str
    rule: Rule


LABEL_STYLES = ("primary", "secondary")


class Label(NamedTuple):
    """How a rule's `labels` show one metavariable's capture: its style and message."""

    style: str  # one of LABEL_STYLES
    message: str | None


class RuleConfig(NamedTuple):
    id: str
    language: str  # the pack's grammar id
    rule: Rule
    severity: str
    message: str
    note: str
    constraints: dict[str, Rule]
    transforms: list[Transform]
    fix: Fix | None
    files: list[str]
    ignores: list[str]
    url: str
    rewriters: Mapping[str, Rewriter] = MappingProxyType({})
    # the rule's `labels` by metavariable name; none: the match and the nodes its relational
    # parts found are the labels
    labels: Mapping[str, Label] = MappingProxyType({})

    @property
    def kinds(self) -> frozenset[int]:
        kinds = self.rule.kinds()
        assert kinds is not None  # checked when read
        return kinds


def read_util(obj: Any, where: str, global_utils: dict[str, Rule] | None = None) -> UtilRule:
    """A global utility rule (a file in a utilDir): id, language, rule, and its own utils."""
    obj = expect(obj, Mapping, where, "a utility rule with id, language and rule")
    unknown = [k for k in obj if k not in ("id", "language", "rule", "utils")]
    if unknown:
        raise RuleError(f'{where}: unknown key "{unknown[0]}"; a utility rule takes id, language, rule, utils')
    util_id = expect(obj.get("id"), str, f"{where}.id", "the utility's id")
    language = read_language(obj.get("language"), f"{where}.language")
    reader = RuleReader(language, global_utils)
    read_local_utils(reader, obj.get("utils"), f"{where}.utils")
    rule = reader.rule(obj.get("rule"), f"{where}.rule")
    return UtilRule(util_id, language, _Deferred(reader, rule))


class _Deferred(Rule):
    """A global utility read before the utilities it refers to: resolved on first use."""

    __slots__ = ("reader", "body")

    def __init__(self, reader: RuleReader, body: Rule) -> None:
        self.reader = reader
        self.body = body

    def match(self, node: Any, env: Any) -> Any:
        return self.body.match(node, env)

    def trace(self, node: Any, env: Any) -> Any:
        return self.body.trace(node, env)

    def kinds(self) -> frozenset[int] | None:
        return self.body.kinds()


def resolve_globals(utils: dict[str, UtilRule]) -> None:
    """Point the global utilities' `matches` at each other (same language only)."""
    for util in utils.values():
        deferred = util.rule
        assert isinstance(deferred, _Deferred)
        for name, other in utils.items():
            if other.language == util.language:
                deferred.reader.utils.setdefault(name, other.rule)
        deferred.reader.resolve()


def read_config(
    obj: Any,
    where: str = "rule",
    global_utils: dict[str, UtilRule] | None = None,
    language: str | None = None,
) -> RuleConfig:
    """A whole rule configuration (a rule file's content). `language` is used when the
    configuration names none (the `rule` argument of the tools)."""
    obj = expect(obj, Mapping, where, "a rule configuration (id, language, rule, ...)")
    _check_text(obj, where)
    unknown = [k for k in obj if k not in _CONFIG_KEYS]
    if unknown:
        if unknown[0] in RULE_KEYS:
            hint = f'; put "{unknown[0]}" under "rule:"'
        else:
            hint = "; a rule configuration takes " + ", ".join(_CONFIG_KEYS)
        raise RuleError(f'{where}: unknown key "{unknown[0]}"{hint}')
    rule_id = obj.get("id", "rule")
    rule_id = expect(rule_id, str, f"{where}.id", "the rule's id")
    if "language" in obj or language is None:
        lang = read_language(obj.get("language"), f"{where}.language")
    else:
        lang = language
    if "rule" not in obj:
        raise RuleError(f"{where}: no \"rule\" key; give the rule object, such as rule: {{pattern: \"print($A)\"}}")
    glob = {k: u.rule for k, u in (global_utils or {}).items() if u.language == lang}
    reader = RuleReader(lang, glob)
    read_local_utils(reader, obj.get("utils"), f"{where}.utils")
    rule = reader.rule(obj["rule"], f"{where}.rule")
    constraints = _read_constraints(reader, obj.get("constraints"), f"{where}.constraints")
    reader.resolve()
    if rule.kinds() is None:
        raise RuleError(
            f"{where}.rule: the rule does not say which node kinds it matches (only not, regex, "
            "nthChild, range or relational keys); add a kind or a pattern beside them"
        )
    severity = obj.get("severity", "hint")
    if severity not in SEVERITIES:
        raise RuleError(f"{where}.severity: expected one of {', '.join(SEVERITIES)}, got {shown(severity)}")
    transforms = read_transforms(obj.get("transform"), f"{where}.transform")
    _check_sources(transforms, _bound_names([rule, *constraints.values()]), f"{where}.transform")
    fix = read_fix(obj.get("fix"), f"{where}.fix", reader.standalone)
    rewriters = _read_rewriters(obj.get("rewriters"), f"{where}.rewriters", lang, reader.utils)
    _check_rewrites(transforms, rewriters, f"{where}.transform")
    labels = _read_labels(obj.get("labels"), f"{where}.labels", [rule, *constraints.values()], constraints)
    return RuleConfig(
        rule_id,
        lang,
        rule,
        severity,
        _text_field(obj, "message", where),
        _text_field(obj, "note", where),
        constraints,
        transforms,
        fix,
        _globs(obj.get("files"), f"{where}.files"),
        _globs(obj.get("ignores"), f"{where}.ignores"),
        _text_field(obj, "url", where),
        MappingProxyType(rewriters),
        MappingProxyType(labels),
    )


def _read_labels(value: Any, where: str, rules: list[Rule], constraints: Mapping[str, Rule]) -> dict[str, Label]:
    """A rule's `labels`: for metavariables the rule (or its constraints) binds, a style
    (primary or secondary) and an optional message."""
    if value is None:
        return {}
    value = expect(value, Mapping, where, "an object of labels by metavariable name")
    bound = _bound_names(rules) | set(constraints)
    out: dict[str, Label] = {}
    for name, body in value.items():
        here = f"{where}.{name}"
        m = _METAVAR_NAME.match(str(name))
        if not m:
            raise RuleError(f'{where}: "{name}" is not a metavariable name (such as A or $A)')
        if m.group(1) not in bound:
            known = ", ".join(sorted(bound)) or "none"
            raise RuleError(f"{here}: the rule binds no ${m.group(1)} (it binds: {known}); label a metavariable its patterns capture")
        body = expect(body, Mapping, here, "an object with style and message")
        unknown = [k for k in body if k not in ("style", "message")]
        if unknown:
            raise RuleError(f'{here}: unknown key "{unknown[0]}"; a label takes style, message')
        style = body.get("style")
        if style not in LABEL_STYLES:
            raise RuleError(f"{here}.style: expected primary or secondary, got {shown(style)}")
        message = body.get("message")
        if message is not None:
            expect(message, str, f"{here}.message", "text")
        out[m.group(1)] = Label(style, message)
    return out


def _bound_names(rules: list[Rule]) -> set[str]:
    """The metavariables the patterns in `rules` (and the utilities they use) capture."""
    names: set[str] = set()
    seen: set[int] = set()
    stack = list(rules)
    while stack:
        r = stack.pop()
        if id(r) in seen:
            continue
        seen.add(id(r))
        if isinstance(r, PatternRule):
            names.update(r.pattern.metavar_names)
            for alternative in r.pattern.alternatives:
                names.update(alternative.metavar_names)
        elif isinstance(r, Matches) and r.target is not None:
            stack.append(r.target)
        elif isinstance(r, _Deferred):
            stack.append(r.body)
        stack.extend(r.inner())
    return names


def _check_sources(transforms: list[Transform], bound: set[str], where: str) -> None:
    """Refuse a transformation whose source no pattern of the rule captures and no other
    transformation makes (ast-grep refuses such a rule too): it would always be empty."""
    made = {t.name for t in transforms}
    for t in transforms:
        if t.source not in bound and t.source not in made:
            known = ", ".join(f"${n}" for n in sorted(bound | made - {t.name})) or "none"
            raise RuleError(f"{where}.{t.name}: its source ${t.source} is not a metavariable of the rule "
                            f"(those are: {known}); read one the rule's patterns capture")


def _read_constraints(reader: RuleReader, value: Any, where: str) -> dict[str, Rule]:
    constraints: dict[str, Rule] = {}
    if value is None:
        return constraints
    value = expect(value, Mapping, where, "an object of rules by metavariable name")
    for name, body in value.items():
        m = _METAVAR_NAME.match(str(name))
        if not m:
            raise RuleError(f'{where}: "{name}" is not a metavariable name (such as A or $A)')
        constraints[m.group(1)] = reader.rule(body, f"{where}.{name}")
    return constraints


def _read_rewriters(value: Any, where: str, language: str, utils: dict[str, Rule]) -> dict[str, Rewriter]:
    """A rule's `rewriters`: each a rule with an id and a fix, and its own constraints,
    transform and utils; it may use the rule's utilities, and rewrite with its siblings."""
    if value is None:
        return {}
    items = expect(value, list, where, "a list of rewriters, each with id, rule and fix")
    out: dict[str, Rewriter] = {}
    for k, body in enumerate(items):
        here = f"{where}[{k}]"
        body = expect(body, Mapping, here, "a rewriter: an object with id, rule and fix")
        unknown = [key for key in body if key not in _REWRITER_KEYS]
        if unknown:
            raise RuleError(f'{here}: unknown key "{unknown[0]}"; a rewriter takes ' + ", ".join(_REWRITER_KEYS))
        rewriter_id = expect(body.get("id"), str, f"{here}.id", "the rewriter's id")
        if rewriter_id in out:
            raise RuleError(f'{here}.id: "{rewriter_id}" names two rewriters; give each its own id')
        for key in ("rule", "fix"):
            if key not in body:
                raise RuleError(f'{here}: no "{key}" key; a rewriter needs a rule and the fix it makes')
        reader = RuleReader(language, utils)
        read_local_utils(reader, body.get("utils"), f"{here}.utils")
        rule = reader.rule(body["rule"], f"{here}.rule")
        constraints = _read_constraints(reader, body.get("constraints"), f"{here}.constraints")
        reader.resolve()
        transforms = read_transforms(body.get("transform"), f"{here}.transform")
        _check_sources(transforms, _bound_names([rule, *constraints.values()]), f"{here}.transform")
        fix = read_fix(body["fix"], f"{here}.fix", reader.standalone)
        if fix is None:
            raise RuleError(f"{here}.fix: expected the replacement text (a template, or an object with template)")
        out[rewriter_id] = Rewriter(rewriter_id, rule, constraints, transforms, fix)
    for k, rewriter in enumerate(out.values()):
        _check_rewrites(rewriter.transforms, out, f"{where}[{k}].transform")
    return out


def _check_rewrites(transforms: list[Transform], rewriters: Mapping[str, Rewriter], where: str) -> None:
    """Every `rewrite` names rewriters the rule defines."""
    for t in transforms:
        if t.op != "rewrite":
            continue
        for name in t.args["rewriters"]:
            if name not in rewriters:
                known = ", ".join(rewriters) or "none: add a rewriters list beside rule"
                raise RuleError(f'{where}.{t.name}.rewrite.rewriters: no rewriter "{name}" (defined: {known})')


def _check_text(obj: Mapping[str, Any], where: str) -> None:
    """RuleError naming the first key or string of `obj` that no file could hold (a lone
    surrogate): a pattern, a fix or a transform's text would fail when written. Walked with a
    stack, since a rule may nest thousands of levels deep."""
    stack: list[tuple[str, Any]] = [(where, obj)]
    while stack:
        at, value = stack.pop()
        if isinstance(value, str):
            why = not_unicode(value)
            if why:
                raise RuleError(f"{at}: {json.dumps(value[:60])} {why}; write the character itself, or, inside a "
                                "string literal, its escape (\\ud800)")
        elif isinstance(value, Mapping):
            stack.extend((f"{at}.{key}", item) for key, item in value.items())
            stack.extend((at, key) for key in value if isinstance(key, str))
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{at}[{i}]", item) for i, item in enumerate(value))


def _text_field(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if value is None:
        return ""
    return str(expect(value, str, f"{where}.{key}", "text"))


def _globs(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    items = expect(value, list, where, "a list of glob patterns")
    globs = [expect(g, str, f"{where}[{k}]", "a glob pattern") for k, g in enumerate(items)]
    for k, glob in enumerate(globs):
        try:
            glob_matcher(glob)
        except re.error as exc:
            raise RuleError(f'{where}[{k}]: "{glob[:80]}{"…" if len(glob) > 80 else ""}" is refused: {exc}') from None
    return globs


def glob_matcher(glob: str) -> Regex:
    """A rule's `files` or `ignores` glob as an expression searched in linear time (a
    hostile glob cannot hang a scan: match/_regex.py); re.error when it is too large for that."""
    return Regex(re.compile(f"^(?:{glob_regex(glob.removeprefix('./'))})\\Z"), backtracking=3)
