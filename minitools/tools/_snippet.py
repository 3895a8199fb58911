"""ast_grep on a snippet (`code` instead of `path`): a pattern or a rule tried on a few lines the
call brings, nothing read from the workspace; with `explain`, the snippet's syntax tree too
(docs/tools.md, "ast_grep")."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from minitools.match import NodeMatch, Pattern, UnsafeSource, find_matches, not_unicode
from minitools.rules import RuleConfig, RuleSet
from minitools.text import plural
from minitools.toolspec import ToolError, ToolResult

__all__ = ["MAX_CODE_BYTES", "SHOWN_AS", "code_bytes", "explain_code", "search_code", "scan_code"]

MAX_CODE_BYTES = 1 << 20  # a snippet to try a pattern on, not a file to search: give path for that
SHOWN_AS = "<code>"  # the snippet's name in a match's `path:line`


def code_bytes(args: Mapping[str, Any]) -> bytes:
    """The `code` argument as bytes, refused with `path` or past MAX_CODE_BYTES."""
    if args.get("path"):
        raise ToolError("give code (a snippet to try the pattern on) or path (files of the workspace), not both")
    why = not_unicode(str(args["code"]))
    if why:
        raise ToolError(f"code {why}; give the snippet as text (the character itself, or its escape inside a string "
                        "literal)")
    data = str(args["code"]).encode("utf-8")
    if len(data) > MAX_CODE_BYTES:
        raise ToolError(f"code is {len(data):,} bytes; a snippet is at most {MAX_CODE_BYTES:,}: write the code to a "
                        "file and give path instead")
    return data


@contextlib.contextmanager
def _parsable() -> Iterator[None]:
    """The snippet refused when its parser would crash on it (match.parse_source measures that)."""
    try:
        yield
    except UnsafeSource as exc:
        raise ToolError(f"code is {exc}; give a shallower snippet") from None


def search_code(pattern: Pattern, source: bytes, limit: int, offset: int,
                format_match: Callable[[NodeMatch], str]) -> ToolResult:
    """The pattern's matches in the snippet, paged as a search's are."""
    with _parsable():
        found = find_matches(pattern, source, path=SHOWN_AS)
    page = found[offset : offset + limit]
    head = f'{plural(len(found), "match", "matches")} of "{pattern.source}" ({pattern.language}, ' \
           f'{" + ".join(pattern.rungs)}) in the code given'
    parts = [head, *(format_match(m) for m in page)]
    if not found:
        parts.append("No match. explain: true with the same code shows how the pattern and the code are read.")
    data = {"pattern": pattern.source, "language": pattern.language, "languages": [pattern.language],
            "rung": pattern.rung, "rungs": list(pattern.rungs), "total": len(found), "files_searched": 0,
            "files_matched": 0, "truncated": offset + len(page) < len(found), "offset": offset,
            "matches": [m.to_json() for m in page]}
    return ToolResult(ok=True, text="\n".join(parts), data=data)


def scan_code(config: RuleConfig, source: bytes, limit: int, offset: int,
              format_match: Callable[[NodeMatch], str], what: str) -> ToolResult:
    """The rule's findings in the snippet (suppression comments honoured, as in a scan)."""
    with _parsable():
        findings = RuleSet([config]).scan_source(source, config.language, SHOWN_AS)
    page = findings[offset : offset + limit]
    parts = [f"{plural(len(findings), 'match', 'matches')} of {what} ({config.language}) in the code given"]
    for f in page:
        line = format_match(f.match)
        parts.append(f"{line}\n    {f.config.severity}: {f.message}" if f.message else line)
    if not findings:
        parts.append("No match. explain: true with the same code shows the code's syntax tree, for the rule's kinds.")
    matches = [{**f.match.to_json(), "rule_id": f.config.id, "severity": f.config.severity, "message": f.message}
               for f in page]
    data = {"rule_id": config.id, "language": config.language, "languages": [config.language], "total": len(findings),
            "files_searched": 0, "files_matched": 0, "truncated": offset + len(page) < len(findings), "offset": offset,
            "matches": matches}
    return ToolResult(ok=True, text="\n".join(parts), data=data)


def explain_code(source: bytes, language: str, pattern: Pattern | None) -> ToolResult:
    """The pattern's reading (when given) and the snippet's tree."""
    from minitools.match import explain_pattern, source_tree

    parts = [explain_pattern(pattern)] if pattern is not None else []
    with _parsable():
        parts.append(source_tree(source, language))
    data: dict[str, Any] = {"language": language}
    if pattern is not None:
        data.update({"pattern": pattern.source, "rungs": list(pattern.rungs)})
    return ToolResult(ok=True, text="\n\n".join(parts), data=data)
