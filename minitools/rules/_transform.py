"""A rule's `transform` (new metavariables computed from captured text, or from the captured
nodes rewritten by the rule's `rewriters`) and `fix` (the replacement template, and how far
its range reaches: `expandStart`/`expandEnd`). Transformations run in the order their
sources need: one that reads another's result comes after it (docs/tools.md, "Rules")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from re import error
from typing import Any, NamedTuple

from minitools.match import Regex, charge, python_regex
from minitools.rules._errors import RuleError

__all__ = ["Transform", "Fix", "read_transforms", "read_fix", "apply_text_transform", "CASES", "OPERATIONS"]

CASES = ("lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase")
_SEPARATORS = {
    "dash": "-", "dot": ".", "space": " ", "slash": "/", "underscore": "_",
}
_METAVAR = re.compile(r"\$(?:\$\$)?([A-Z_][A-Z0-9_]*)\Z")
_CALL = re.compile(r"(substring|replace|convert|rewrite)\((.*)\)\Z", re.S)
OPERATIONS = ("substring", "replace", "convert", "rewrite")


class Transform(NamedTuple):
    name: str  # the new metavariable
    op: str  # one of OPERATIONS
    source: str  # the metavariable it reads
    args: dict[str, Any]


class Fix(NamedTuple):
    template: str
    expand_start: Any  # a Rule, or None
    expand_end: Any


def _source(value: Any, where: str) -> str:
    m = _METAVAR.match(value) if isinstance(value, str) else None
    if m is None:
        raise RuleError(f"{where}: expected a metavariable such as $A, got {value!r}")
    return m.group(1)


def read_transforms(value: Any, where: str) -> list[Transform]:
    """The transformations of a rule (or a rewriter), in the order they run: each after the
    ones whose result it reads; a cycle among them is refused."""
    if value is None:
        return []
    if not isinstance(value, Mapping):
        raise RuleError(f"{where}: expected an object of transformations by new metavariable name")
    out = []
    for name, body in value.items():
        here = f"{where}.{name}"
        if isinstance(body, str):
            body = _parse_call(body, here)
        if not isinstance(body, Mapping) or len(body) != 1:
            raise RuleError(f"{here}: expected one of {', '.join(OPERATIONS)}, with its arguments")
        (op, args), = body.items()
        if op not in OPERATIONS or not isinstance(args, Mapping):
            raise RuleError(f"{here}: unknown transformation {op!r}; use {', '.join(OPERATIONS)}")
        source = _source(args.get("source"), f"{here}.{op}.source")
        checked = _check_args(op, dict(args), f"{here}.{op}")
        out.append(Transform(str(name), op, source, checked))
    return _in_order(out, where)


def _in_order(transforms: list[Transform], where: str) -> list[Transform]:
    """`transforms` with each one after those it reads (otherwise as written)."""
    by_name = {t.name: t for t in transforms}
    done: dict[str, int] = {}  # 1: being placed, 2: placed
    out: list[Transform] = []

    def place(t: Transform, path: tuple[str, ...]) -> None:
        done[t.name] = 1
        before = by_name.get(t.source)
        if before is not None:
            if done.get(before.name) == 1:
                cycle = " -> ".join((*path[path.index(before.name):], before.name))
                raise RuleError(f"{where}: the transformations {cycle} read each other in a cycle; "
                                "let one of them read a captured metavariable")
            if before.name not in done:
                place(before, (*path, before.name))
        done[t.name] = 2
        out.append(t)

    for t in transforms:
        if t.name not in done:
            place(t, (t.name,))
    return out


def _check_args(op: str, args: dict[str, Any], where: str) -> dict[str, Any]:
    if op == "rewrite":
        ids = args.get("rewriters")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            raise RuleError(f"{where}.rewriters: expected a list of rewriter ids (from the rule's rewriters), got {ids!r}")
        if args.get("joinBy") is not None and not isinstance(args["joinBy"], str):
            raise RuleError(f"{where}.joinBy: expected the text put between the rewritten nodes")
    elif op == "substring":
        for key in ("startChar", "endChar"):
            if args.get(key) is not None and (not isinstance(args[key], int) or isinstance(args[key], bool)):
                raise RuleError(f"{where}.{key}: expected a character index (negative counts from the end)")
    elif op == "replace":
        for key in ("replace", "by"):
            if not isinstance(args.get(key), str):
                raise RuleError(f"{where}.{key}: expected text")
        try:
            compiled = re.compile(python_regex(args["replace"]))
        except re.error as exc:
            raise RuleError(f"{where}.replace: not a regular expression: {exc}") from None
        try:
            args["regex"] = Regex(compiled)
        except re.error as exc:  # what the linear search refuses (match/_regex.py)
            raise RuleError(f'{where}.replace: "{args["replace"]}" is refused: {exc}') from None
    else:
        if args.get("toCase") not in CASES:
            raise RuleError(f"{where}.toCase: expected one of {', '.join(CASES)}, got {args.get('toCase')!r}")
        seps = args.get("separatedBy", list(_SEPARATORS) + ["caseChange"])
        if not isinstance(seps, list) or any(s not in (*_SEPARATORS, "caseChange") for s in seps):
            raise RuleError(f"{where}.separatedBy: expected a list of {', '.join((*_SEPARATORS, 'caseChange'))}")
        args["separatedBy"] = seps
    return args


def _parse_call(text: str, where: str) -> dict[str, Any]:
    """The string form, `substring($A, startChar=1, endChar=-1)`."""
    m = _CALL.match(text.strip())
    if m is None:
        raise RuleError(f'{where}: "{text}" is not a transformation; write substring($A, startChar=1) or the object form')
    op, inner = m.groups()
    parts = [p.strip() for p in re.split(r",(?=(?:[^'\"]*['\"][^'\"]*['\"])*[^'\"]*\Z)", inner) if p.strip()]
    args: dict[str, Any] = {"source": parts[0] if parts else None}
    for part in parts[1:]:
        key, _, raw = part.partition("=")
        raw = raw.strip()
        value: Any
        if raw[:1] in ("'", '"') and raw[-1:] == raw[:1]:
            value = raw[1:-1]
        elif raw.startswith("["):
            value = [v.strip().strip("'\"") for v in raw.strip("[]").split(",") if v.strip()]
        else:
            try:
                value = int(raw)
            except ValueError:
                value = raw
        args[key.strip()] = value
    return {op: args}


def read_fix(value: Any, where: str, read_rule: Callable[[object, str], Any]) -> Fix | None:
    if value is None:
        return None
    if isinstance(value, str):
        return Fix(value, None, None)
    if not isinstance(value, Mapping):
        raise RuleError(f"{where}: expected a template string, or an object with template, expandStart, expandEnd")
    unknown = [k for k in value if k not in ("template", "expandStart", "expandEnd")]
    if unknown:
        raise RuleError(f'{where}: unknown key "{unknown[0]}"; a fix object takes template, expandStart, expandEnd')
    template = value.get("template")
    if not isinstance(template, str):
        raise RuleError(f"{where}.template: expected the replacement text")
    start = read_rule(value["expandStart"], f"{where}.expandStart") if "expandStart" in value else None
    end = read_rule(value["expandEnd"], f"{where}.expandEnd") if "expandEnd" in value else None
    return Fix(template, start, end)


def _words(text: str, seps: list[str]) -> list[str]:
    """`text` cut at the separators, and with `caseChange` also before an upper-case letter
    that follows a lower-case one and before the last of several capitals a lower-case letter
    follows (`XMLHttp`: XML, Http); other characters stay in their word."""
    delimiters = {_SEPARATORS[s] for s in seps if s in _SEPARATORS}
    by_case = "caseChange" in seps
    words: list[str] = []
    word, state = "", "lower"  # lower: after a lower-case letter (or at a start); one, many: capitals
    for c in text:
        if c in delimiters:
            words.append(word)
            word, state = "", "lower"
            continue
        if by_case:
            if state == "lower" and c.isupper():
                words.append(word)
                word, state = c, "one"
                continue
            if state == "many" and c.islower():
                words.append(word[:-1])
                word, state = word[-1] + c, "lower"
                continue
            state = "lower" if c.islower() else "one" if state == "lower" else "many"
        word += c
    words.append(word)
    return [w for w in words if w]


def _capitalized(word: str) -> str:
    return word[:1].upper() + word[1:]


def _convert(text: str, case: str, seps: list[str]) -> str:
    if case == "lowerCase":
        return text.lower()
    if case == "upperCase":
        return text.upper()
    if case == "capitalize":
        return _capitalized(text)
    words = _words(text, seps)
    if case == "snakeCase":
        return "_".join(w.lower() for w in words)
    if case == "kebabCase":
        return "-".join(w.lower() for w in words)
    if case == "pascalCase":
        return "".join(_capitalized(w) for w in words)
    # camelCase
    return "".join(w.lower() if k == 0 else _capitalized(w) for k, w in enumerate(words))


# Rust's replacement syntax: `$$` a `$`; `$name` (the longest run of name characters) and
# `${name}` a group by number or name, empty when there is none; any other `$` itself
_GROUP_REF = re.compile(r"\$(?:(\$)|\{([_0-9A-Za-z]+)\}|([_0-9A-Za-z]+))")


def _group(m: Any, key: str) -> str:
    try:
        return m.group(int(key) if key.isdigit() else key) or ""
    except (IndexError, error):
        return ""


def _expand(m: Any, by: str) -> str:
    """`by` with `$1`, `$name` and `${name}` replaced by the groups of `m` (a `re.Match`, or a
    match `Regex.sub` found by its states), and `$$` by `$`."""
    return _GROUP_REF.sub(lambda ref: "$" if ref.group(1) else _group(m, ref.group(2) or ref.group(3)), by)


def _expanded_size(m: Any, by: str) -> int:
    size = len(by)
    for ref in _GROUP_REF.finditer(by):
        if not ref.group(1):
            size += len(_group(m, ref.group(2) or ref.group(3)))
    return size


def _replace_all(t: Transform, text: str) -> str:
    """The `replace` transformation: the text it builds charged to the search's budget as it
    grows, before each piece is made (`by: "$0"` written 5,000 times over a 100 KB capture
    is 500 MB)."""
    by = t.args["by"]
    built = len(text)

    def one(m: Any) -> str:
        nonlocal built
        built += _expanded_size(m, by)
        charge(built)
        return _expand(m, by)

    return str(t.args["regex"].sub(one, text))


def apply_text_transform(t: Transform, text: str) -> str:
    """The result of a text transformation (substring, replace, convert) of `text`."""
    if t.op == "substring":
        chars = list(text)
        return "".join(chars[t.args.get("startChar"):t.args.get("endChar")])
    if t.op == "replace":
        return _replace_all(t, text)
    return _convert(text, t.args["toCase"], t.args["separatedBy"])
