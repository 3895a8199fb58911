"""ast_grep — structural search (docs/tools.md, "ast_grep"), read tier."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from minitools.edits import scan_rule
from minitools.match import (
    NodeMatch,
    PathError,
    Searcher,
    language_for_path,
    no_files_note,
    search_languages,
)
from minitools.schema import parameters_schema, result_schema
from minitools.text import page_note, plural
from minitools.tools._context import RunContext
from minitools.tools._search_args import (
    RULE_PARAMETER,
    compile_for,
    compile_in,
    language_arg,
    languages_note,
    one_of_pattern_or_rule,
    read_rule_arg,
    shared_searcher,
    target_parameters,
    targets_for,
)
from minitools.tools._search_thread import search_in_thread
from minitools.tools._snippet import code_bytes, explain_code, scan_code, search_code
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build", "format_match"]

DESCRIPTION = (
    "Find code by shape, not text. The pattern is a code fragment parsed with the file's grammar: "
    "$NAME matches any one node, $$$NAME a run of siblings (possibly none), $_ anything without "
    "binding. A metavariable repeated in one pattern must capture the same code, so "
    '"if ($X != null) $X.dispose()" finds guards that dispose what they checked. Never matches '
    "inside strings or comments; whitespace and formatting do not matter. For what a pattern alone "
    "cannot say (inside a function, not followed by a close, X not a string), pass rule instead: "
    "an ast-grep rule object."
)

PARAMETERS = parameters_schema({
    "pattern": {"type": "string", "description": "A code fragment with metavariables, e.g. \"print($A)\"."},
    "rule": RULE_PARAMETER,
    **target_parameters("to search", "searched"),
    "code": {
        "type": "string",
        "description": "A snippet to search instead of files (with language, or a rule that names its own): to try a "
                       "pattern or rule on a few lines. With explain, shows the snippet's syntax tree.",
    },
    "strictness": {
        "type": "string",
        "enum": ["smart", "relaxed", "ast", "signature", "cst"],
        "description": "With pattern: how exactly it must match. smart (default): the code may add tokens and "
                       "comments; relaxed: the pattern's punctuation may go missing too; ast: named nodes only, "
                       "comments counted; signature: node kinds only, not their text; cst: every token.",
    },
    "max_results": {
        "type": "integer",
        "minimum": 1,
        "default": 50,
        "description": "How many matches to return (a page); the total is reported too (\"at least N\" when "
                       "counting them all would cost too much).",
    },
    "offset": {
        "type": "integer",
        "minimum": 0,
        "description": "Skip this many matches: the next page (a capped result names the offset of its next page).",
    },
    "explain": {
        "type": "boolean",
        "description": "Instead of searching, show how the pattern is read (its node kinds, where the metavariables "
                       "sit) and, with a file path and line, that line's syntax tree: for fixing a pattern that "
                       "finds nothing.",
    },
    "line": {"type": "integer", "minimum": 1, "description": "With explain and a file path: the line whose tree to show."},
})

# `data` of a search (structured output, for clients that ask for it)
OUTPUT = result_schema(
    {"pattern": "string", "language": "string", "languages": "string[]", "rung": "string?", "total": "integer",
     "files_searched": "integer", "files_matched": "integer", "skipped": "object", "truncated": "boolean",
     "exact": "boolean", "stopped": "string?", "matches": "object[]"},
    required=["pattern", "language", "total", "files_searched", "files_matched", "truncated", "matches"],
)

SPEC = ToolSpec("ast_grep", Tier.READ, DESCRIPTION, PARAMETERS, parallel_safe=True, output_schema=OUTPUT)


LINE_WIDTH = 200  # characters of a match's line the model reads; longer lines end in "…"


def format_match(m: NodeMatch, *, max_lines: int = 3) -> str:
    """`path:line` with the match text (multi-line shortened, long lines cut) and its captures."""
    lines, more = m.head(max_lines, width=LINE_WIDTH)  # a long match decodes only what is shown
    body = "\n    ".join(lines)
    if more:
        body += f"\n    … ({more} more lines)"
    out = f"{m.path}:{m.start[0]}: {body}"
    caps = [f"${k}={v.excerpt(80)!r}" for k, v in sorted(m.metavars.items()) if k not in m.multi]
    caps += [f"$$${k}={v.excerpt(80)!r}" for k, v in sorted(m.metavars.items()) if k in m.multi]
    if caps:
        short = [c if len(c) <= 80 else c[:77] + "…'" for c in caps]
        out += "\n    captures: " + ", ".join(short)
    return out


class AstGrepFamily:
    """The `ast_grep` tool over the Run's shared searcher."""

    def __init__(self, ctx: RunContext, searcher: Searcher) -> None:
        self.ctx = ctx
        self.searcher = searcher

    async def ast_grep(self, args: Mapping[str, Any]) -> ToolResult:
        if args.get("code") is not None:
            return await asyncio.to_thread(self._code, args)
        if args.get("explain"):
            return await asyncio.to_thread(self._explain, args)
        if one_of_pattern_or_rule(args) == "rule":
            if args.get("strictness") is not None:
                raise ToolError('strictness goes with pattern; in a rule, write {"pattern": {"context": ..., '
                                '"strictness": ...}}')
            return await self._by_rule(args)
        source = args["pattern"]
        if args.get("strictness", "smart") != "smart":
            return await self._by_rule(_as_rule(args), pattern=(source, args["strictness"]))
        plan, targets, where = compile_for(self.ctx, args)
        limit = int(args.get("max_results", 50))
        offset = int(args.get("offset") or 0)
        try:
            budget = self.searcher.budget(offset + limit)
            result = await search_in_thread(budget, lambda: search_languages(self.searcher, plan, targets,
                                                                             max_results=offset + limit, budget=budget))
        except PathError as exc:
            raise ToolError(str(exc)) from exc
        skipped = ", ".join(f"{n} {why}" for why, n in sorted(result.skipped.items()))
        patterns = [pattern for pattern, _ in plan.searches]
        if len(patterns) == 1:
            how = f"{patterns[0].language}, {' + '.join(patterns[0].rungs)}"
        else:
            how = f"each file in its extension's language: {', '.join(plan.languages) or 'none found'}"
        # past the page only counted; "at least" where counting them all would cost too much
        count = plural(result.total, "match", "matches") if result.exact else f"at least {result.total} matches"
        head = (
            f"{count} of \"{source}\" ({how}) "
            f"in {result.files_matched} of {result.files_searched} files under {where}"
        )
        if skipped:
            head += f"; skipped {skipped}"
        parts = [head]
        if result.stopped:
            parts.append(f"{result.stopped} (the search's budget): narrow the path or the pattern; "
                         "the matches so far are below.")
        if languages_note(plan):
            parts.append(languages_note(plan))
        page = result.matches[offset:]
        parts += [format_match(m) for m in page]
        more = page_note(result.total, offset, len(page)) if result.total else ""
        if more and not result.exact:
            more = more.replace(f" of {result.total}", f" of at least {result.total}")
        if more:
            parts.append(f"… {more}; or narrow with path or a more specific pattern.")
        if result.files_searched == 0 and not result.stopped and len(patterns) == 1:
            note = no_files_note(patterns[0].language, where)
            parts.append(note[:1].upper() + note[1:] + ".")
        elif result.total == 0 and not result.stopped:
            parts.append("No match. Check the language, or loosen the pattern with $_ / $$$ where details vary.")
        data = {
            "pattern": source,
            "language": ", ".join(plan.languages),
            "languages": plan.languages,
            "rung": patterns[0].rung if len(patterns) == 1 else None,
            "rungs": list(dict.fromkeys(r for p in patterns for r in p.rungs)),  # every rung whose reading matched
            "total": result.total,
            "files_searched": result.files_searched,
            "files_matched": result.files_matched,
            "skipped": result.skipped,
            "truncated": offset + len(page) < result.total or not result.exact,
            "exact": result.exact,  # False: total is a lower bound
            "stopped": result.stopped,
            "offset": offset,
            "matches": [m.to_json() for m in page],
        }
        return ToolResult(ok=True, text="\n".join(parts), data=data)


    def _code(self, args: Mapping[str, Any]) -> ToolResult:
        """`code`: the pattern or rule on the snippet the call gives (tools/_snippet.py)."""
        source = code_bytes(args)
        limit = int(args.get("max_results", 50))
        offset = int(args.get("offset") or 0)
        language = language_arg(args)
        if args.get("explain"):
            if not language:
                raise ToolError("explain with code needs language: the grammar to read the code with (python, typescript, ...)")
            pattern = compile_in(args["pattern"], language) if args.get("pattern") is not None else None
            return explain_code(source, language, pattern)
        which = one_of_pattern_or_rule(args)
        if which == "pattern" and args.get("strictness", "smart") == "smart":
            if not language:
                raise ToolError("code needs language: the grammar to read the code with (python, typescript, ...)")
            return search_code(compile_in(args["pattern"], language), source, limit, offset, format_match)
        config = read_rule_arg(self.ctx, args if which == "rule" else _as_rule(args), [])
        what = f"rule {config.id}" if which == "rule" else f'"{args["pattern"]}" at strictness {args["strictness"]}'
        return scan_code(config, source, limit, offset, format_match, what)

    def _explain(self, args: Mapping[str, Any]) -> ToolResult:
        """`explain`: the pattern's reading and the tree of a line, without searching."""
        from minitools.match import explain_pattern, line_tree

        raw_path = args.get("path")
        target = self.ctx.resolve_path(raw_path) if raw_path else self.ctx.root
        language = language_arg(args) or (language_for_path(target) if target.is_file() else None)
        line = args.get("line")
        if not language:
            raise ToolError("explain needs language, or a path naming a file (its extension gives the language)")
        parts = []
        data: dict[str, Any] = {"language": language}
        if args.get("pattern") is not None:
            pattern = compile_in(args["pattern"], language)
            parts.append(explain_pattern(pattern))
            data.update({"pattern": pattern.source, "rungs": list(pattern.rungs)})
        if line is not None:
            if not target.is_file():
                raise ToolError(f"line needs path to name a file; {self.ctx.relpath(target)} is a folder")
            try:
                parts.append(line_tree(target.read_bytes(), language, int(line)))
            except ValueError as exc:
                raise ToolError(f"{exc}; give a line of {self.ctx.relpath(target)}") from exc
        if not parts:
            raise ToolError("explain shows a pattern's reading (give pattern) or a line's tree (give path and line)")
        return ToolResult(ok=True, text="\n\n".join(parts), data=data)

    async def _by_rule(self, args: Mapping[str, Any], pattern: tuple[str, str] | None = None) -> ToolResult:
        """A rule's matches; for a `pattern` at a strictness other than smart (run as the rule
        `_as_rule` makes), reported as the pattern's."""
        targets, where = targets_for(self.ctx, self.searcher, args.get("path"))
        config = read_rule_arg(self.ctx, args, targets)
        limit = int(args.get("max_results", 50))
        offset = int(args.get("offset") or 0)
        try:
            budget = self.searcher.budget()
            scan = await search_in_thread(budget, lambda: scan_rule(self.searcher, config, targets, budget))
        except PathError as exc:
            raise ToolError(str(exc)) from exc
        total = len(scan.findings)
        files_matched = len(scan.sources)
        what = f"rule {config.id}" if pattern is None else f'"{pattern[0]}"'
        how = config.language if pattern is None else f"{config.language}, strictness {pattern[1]}"
        head = (f"{plural(total, 'match', 'matches')} of {what} ({how}) in {files_matched} of "
                f"{plural(scan.files_searched, 'file')} under {where}")
        if scan.skipped:
            head += f"; skipped {scan.skipped} (oversized, binary, unreadable or nested too deep to parse)"
        parts = [head]
        if scan.stopped:
            parts.append(f"{scan.stopped}: these are the matches found until then; narrow the path or the rule.")
        page = scan.findings[offset : offset + limit]
        for f in page:
            line = format_match(f.match)
            message = f.message
            parts.append(f"{line}\n    {f.config.severity}: {message}" if message else line)
        more = page_note(total, offset, len(page)) if total else ""
        if more:
            parts.append(f"… {more}; or narrow with path or a more specific rule.")
        if total == 0 and pattern is not None:
            parts.append("No match. Check the language, or try a looser strictness (relaxed, signature).")
        elif total == 0:
            parts.append("No match. Check the rule's kinds and patterns on a sample with explain: true.")
        matches = []
        for f in page:
            item = f.match.to_json()
            if pattern is None:
                item.update({"rule_id": f.config.id, "severity": f.config.severity, "message": f.message})
            matches.append(item)
        data = {
            "pattern": "" if pattern is None else pattern[0],
            "rule_id": config.id,
            "language": config.language,
            "languages": [config.language],
            "total": total,
            "files_searched": scan.files_searched,
            "files_matched": files_matched,
            "skipped": {"unsearchable": scan.skipped} if scan.skipped else {},
            "truncated": offset + len(page) < total,
            "offset": offset,
            "stopped": scan.stopped,
            "matches": matches,
        }
        return ToolResult(ok=True, text="\n".join(parts), data=data)


def _as_rule(args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a pattern search at a strictness other than smart, as a rule's: the
    rule engine matches at every strictness."""
    rule = {"id": "pattern", "rule": {"pattern": {"context": args["pattern"], "strictness": args["strictness"]}}}
    out = {k: v for k, v in args.items() if k not in ("pattern", "strictness")}
    out["rule"] = rule
    return out


def build(ctx: RunContext) -> list[Tool]:
    searcher = shared_searcher(ctx)
    if searcher is None:
        return []
    return [Tool(SPEC, AstGrepFamily(ctx, searcher).ast_grep)]
