"""A rule's `transform` (new metavariables computed from captured text) and `fix` (the
replacement template, and how far its range reaches: `expandStart`/`expandEnd`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from re import error
from typing import Any, NamedTuple

from minitools.rules._errors import RuleError

__all__ = ["Transform", "Fix", "read_transforms", "read_fix", "apply_transforms", "CASES"]

CASES = ("lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase")
_SEPARATORS = {
    "dash": "-", "dot": ".", "space": " ", "slash": "/", "underscore": "_",
}
_METAVAR = re.compile(r"\$(?:\$\$)?([A-Z_][A-Z0-9_]*)\Z")
_CALL = re.compile(r"(substring|replace|convert)\((.*)\)\Z", re.S)


class Transform(NamedTuple):
    name: str  # the new metavariable
    op: str  # substring, replace, convert
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
            raise RuleError(f"{here}: expected one of substring, replace, convert, with its arguments")
        (op, args), = body.items()
        if op == "rewrite":
            raise RuleError(f"{here}.rewrite: rewriters are not supported here; use substring, replace or convert")
        if op not in ("substring", "replace", "convert") or not isinstance(args, Mapping):
            raise RuleError(f"{here}: unknown transformation {op!r}; use substring, replace or convert")
        source = _source(args.get("source"), f"{here}.{op}.source")
        checked = _check_args(op, dict(args), f"{here}.{op}")
        out.append(Transform(str(name), op, source, checked))
    return out


def _check_args(op: str, args: dict[str, Any], where: str) -> dict[str, Any]:
    if op == "substring":
        for key in ("startChar", "endChar"):
            if args.get(key) is not None and (not isinstance(args[key], int) or isinstance(args[key], bool)):
                raise RuleError(f"{where}.{key}: expected a character index (negative counts from the end)")
    elif op == "replace":
        for key in ("replace", "by"):
            if not isinstance(args.get(key), str):
                raise RuleError(f"{where}.{key}: expected text")
        try:
            args["regex"] = re.compile(args["replace"])
        except re.error as exc:
            raise RuleError(f"{where}.replace: not a regular expression: {exc}") from None
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
    chars = "".join(re.escape(_SEPARATORS[s]) for s in seps if s in _SEPARATORS)
    pieces = re.split(f"[{chars}]+", text) if chars else [text]
    words: list[str] = []
    for piece in pieces:
        if "caseChange" in seps:
            words += re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[A-Z]", piece) or ([piece] if piece else [])
        elif piece:
            words.append(piece)
    return [w for w in words if w]


def _convert(text: str, case: str, seps: list[str]) -> str:
    if case == "lowerCase":
        return text.lower()
    if case == "upperCase":
        return text.upper()
    if case == "capitalize":
        return text[:1].upper() + text[1:]
    words = _words(text, seps)
    if case == "snakeCase":
        return "_".join(w.lower() for w in words)
    if case == "kebabCase":
        return "-".join(w.lower() for w in words)
    if case == "pascalCase":
        return "".join(w[:1].upper() + w[1:].lower() for w in words)
    # camelCase
    return "".join(w.lower() if k == 0 else w[:1].upper() + w[1:].lower() for k, w in enumerate(words))


_GROUP_REF = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def _expand(m: re.Match[str], by: str) -> str:
    """`by` with `$1`, `$name` and `${name}` replaced by the groups of `m`."""

    def group(ref: re.Match[str]) -> str:
        key = ref.group(1) or ref.group(2)
        try:
            return m.group(int(key) if key.isdigit() else key) or ""
        except (IndexError, error):
            return ""

    return _GROUP_REF.sub(group, by)


def apply_transforms(transforms: list[Transform], texts: dict[str, str]) -> dict[str, str]:
    """`texts` (captured text by metavariable name) with each transformation's result added,
    in order: a later one may read an earlier one's. A source never bound gives nothing."""
    out = dict(texts)
    for t in transforms:
        text = out.get(t.source)
        if text is None:
            continue
        if t.op == "substring":
            chars = list(text)
            out[t.name] = "".join(chars[t.args.get("startChar"):t.args.get("endChar")])
        elif t.op == "replace":
            by = t.args["by"]
            out[t.name] = t.args["regex"].sub(lambda m, by=by: _expand(m, by), text)
        else:
            out[t.name] = _convert(text, t.args["toCase"], t.args["separatedBy"])
    return out
