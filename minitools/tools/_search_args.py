"""What an ast_grep or ast_edit call's arguments name (docs/tools.md, "ast_grep"): the Run's
searcher, the files a `path` (or glob) names, the pattern compiled per language, or the `rule`
argument read as a checked configuration. Shared by the search and rewrite families."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Mapping, Sequence
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from minitools.match import (
    GrammarError,
    LanguagePlan,
    PathError,
    Pattern,
    PatternError,
    Regex,
    Searcher,
    UnknownLanguage,
    available_languages,
    compile_pattern,
    glob_regex,
    language_for_path,
    language_named,
    one_language,
    plan_languages,
)
from minitools.rules import COMPOSITE_KEYS, RULE_KEYS, RuleConfig, RuleError, read_config, read_documents
from minitools.text import plural
from minitools.tools._context import RunContext, glob_folder, is_glob
from minitools.toolspec import ToolError

__all__ = ["RULE_PARAMETER", "target_parameters", "compile_for", "compile_in", "language_arg", "languages_note", "one_of_pattern_or_rule", "read_rule_arg",
           "shared_searcher", "targets_for"]

RULE_PARAMETER: dict[str, Any] = {
    "type": ["object", "string"],
    "description": "Instead of pattern: an ast-grep rule, the same shape as a rule file's content (or its YAML "
                   "text), e.g. {\"rule\": {\"pattern\": \"eval($X)\", \"not\": {\"has\": {\"kind\": \"string\", "
                   "\"stopBy\": \"end\"}}}}. Keys: rule ("
                   + ", ".join(k for k in RULE_KEYS if k not in COMPOSITE_KEYS) + " with stopBy/field, "
                   + ", ".join(COMPOSITE_KEYS) + "; a pattern may be {context, selector, strictness}), "
                   "constraints, utils, transform, fix, language, "
                   "id, message, severity.",
}



def target_parameters(to: str, verb: str) -> dict[str, Any]:
    """The `path` and `language` parameters of a tool that works over the workspace's files:
    `to` what the tool does to a file ("to search"), `verb` the same as a participle ("searched")."""
    return {
        "path": {
            "type": "string",
            "description": f"File or directory {to}, or a glob of files (src/**/*.ts), relative to the workspace "
                           "root; defaults to the whole workspace.",
        },
        "language": {
            "type": "string",
            "description": "Grammar id (python, javascript, typescript, tsx, dart, rust, go, c, cpp, java, ...). Without it, each "
                           f"file is {verb} in the language its extension names.",
        },
    }

def language_arg(args: Mapping[str, Any]) -> str | None:
    """The `language` argument as the pack's id, taken as callers write it ("TypeScript", "ts",
    "C++", "golang" as well as the pack's id); None when not given."""
    given = args.get("language")
    return language_named(given) if isinstance(given, str) and given.strip() else None


def shared_searcher(ctx: RunContext) -> Searcher | None:
    """The Run's searcher (the "parser" resource), shared by ast_grep and ast_edit; None when
    the embedder left it unwired. The first family to ask registers its shutdown."""
    fresh = "parser" not in ctx.resources
    searcher: Searcher | None = ctx.resource("parser", lambda: _new_searcher(ctx))
    if searcher is not None and fresh:

        async def close_searcher() -> None:
            closer = getattr(searcher, "close", None)  # an injected searcher may have none
            if closer is not None:
                await asyncio.to_thread(closer)

        ctx.on_close(close_searcher)
    return searcher


def _new_searcher(ctx: RunContext) -> Searcher:
    """The Run's searcher, with the budgets its options (the configuration's [search]) set."""
    bounds: dict[str, Any] = {}
    if ctx.option("search_seconds", None) is not None:
        bounds["max_seconds"] = float(ctx.option("search_seconds", None))
    if ctx.option("search_memory_mb", None) is not None:
        bounds["max_memory_bytes"] = int(ctx.option("search_memory_mb", None)) << 20
    if ctx.option("search_max_file_kb", None) is not None:
        bounds["max_file_bytes"] = int(ctx.option("search_max_file_kb", None)) << 10
    return Searcher(ctx.root, **bounds)


def targets_for(ctx: RunContext, searcher: Searcher, raw_path: str | None) -> tuple[list[Path], str]:
    """What an ast_grep/ast_edit `path` names, and how to show it: the root, a file or a folder;
    or, for a glob that names nothing as it is written (`src/**/*.ts`, `lib/*.dart`: a model's
    first call often writes one), the files a search of its fixed folder meets (ignore rules
    kept) whose path from the root the glob matches, in gitignore's syntax."""
    if not raw_path:
        return [ctx.root], "."
    if not is_glob(raw_path) or os.path.lexists(ctx.root / raw_path):
        target = ctx.resolve_path(raw_path)
        return [target], ctx.relpath(target)
    glob = raw_path.removeprefix(str(ctx.root).rstrip("/") + "/").removeprefix("./")
    folder = ctx.resolve_path(glob_folder(glob) or None)
    if glob.startswith("/") or ".." in glob.split("/") or not folder.is_dir():
        raise ToolError(f'path "{raw_path}" (a glob) must lie in a folder of the workspace; give a glob relative '
                        f"to the root {ctx.root}, such as src/**/*.py")
    try:
        matcher = Regex(re.compile(rf"(?:{glob_regex(glob)})\Z"), backtracking=3)
    except re.error as exc:
        raise ToolError(f'path "{raw_path}" is not a glob that can be read ({exc}); write it as *.py or src/**/*.ts') from None
    try:
        found = searcher.collect([folder], None)
    except PathError as exc:
        raise ToolError(str(exc)) from exc
    files = [Path(f) for f in found if matcher.search(Path(f).relative_to(ctx.root).as_posix())]
    if not files:
        raise ToolError(f'path "{raw_path}" (a glob) matches no file of a known language under {ctx.relpath(folder)}; '
                        "loosen it, or give a folder")
    return files, raw_path


def compile_for(ctx: RunContext, args: Mapping[str, Any]) -> tuple[LanguagePlan, list[Path], str]:
    """The search plan of an ast_grep/ast_edit call, what it searches and how to show that
    (`targets_for`).

    With `language`, or a `path` naming a file of a known language, the pattern is compiled in
    that language. Otherwise each file under the targets is searched in the language its
    extension names (the pattern compiled once per language; languages it does not parse in
    are skipped with a note), and the call is refused only when it parses in none.
    """
    source = args["pattern"]
    raw_path = args.get("path")
    searcher = shared_searcher(ctx)
    assert searcher is not None  # the families that plan a search are built only with one
    targets, where = targets_for(ctx, searcher, raw_path)
    one_file = len(targets) == 1 and targets[0].is_file()
    language = language_arg(args) or (language_for_path(targets[0]) if one_file else None)
    if language:
        return one_language(compile_in(source, language)), targets, where
    try:
        plan = plan_languages(source, searcher, targets)
    except PatternError as exc:
        raise ToolError(f"{exc}. Write a complete fragment (balanced brackets, a whole expression or statement).") from exc
    except UnknownLanguage as exc:
        raise ToolError(f"{exc}; pass language (python, javascript, typescript, rust, go, c, java, ...).") from exc
    except PathError as exc:
        raise ToolError(str(exc)) from exc
    if plan.files and not plan.searches:
        reasons = "; ".join(f"{skip.language} ({plural(skip.files, 'file')}): {skip.reason}" for skip in plan.skipped)
        raise ToolError(f'"{source}" parses in none of the languages under "{raw_path or "."}": {reasons}. '
                        "Pass language, or write a fragment of the files' language.")
    return plan, targets, where


def compile_in(source: str, language: str) -> Pattern:
    """The pattern compiled in `language` (a grammar id), or the caller's error saying what to write."""
    known = available_languages()
    if language not in known:
        close = get_close_matches(language, known, n=1)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise ToolError(f'language "{language}" has no grammar here; {hint}Give a grammar id such as python, javascript, '
                        f"typescript, tsx, rust, go, c, cpp, java, csharp, ruby ({len(known)} in all), or leave language "
                        "out to search each file in its extension's language.")
    try:
        return compile_pattern(source, language)
    except PatternError as exc:
        raise ToolError(
            f"{exc}. Write a complete fragment (balanced brackets, a whole expression or statement)."
        ) from exc
    except GrammarError as exc:
        raise ToolError(str(exc)) from exc


def languages_note(plan: LanguagePlan) -> str:
    """What a search without a language did: the languages searched and those skipped."""
    if not plan.skipped:
        return ""
    return "not searched: " + "; ".join(f"{plural(skip.files, f'{skip.language} file')} ({skip.reason})"
                                        for skip in plan.skipped)


def one_of_pattern_or_rule(args: Mapping[str, Any]) -> str:
    """Which of `pattern` and `rule` the call gives: exactly one is needed."""
    has_pattern = args.get("pattern") is not None
    has_rule = args.get("rule") is not None
    if has_pattern and has_rule:
        raise ToolError('give pattern or rule, not both (a rule can hold the pattern: {"rule": {"pattern": ...}})')
    if not has_pattern and not has_rule:
        raise ToolError('argument pattern or rule is required: pattern is a code fragment (e.g. "print($A)"), '
                        "rule an ast-grep rule object")
    return "rule" if has_rule else "pattern"


def read_rule_arg(ctx: RunContext, args: Mapping[str, Any], targets: Sequence[Path]) -> RuleConfig:
    """The `rule` argument as a checked configuration. Its language: the configuration's own,
    else `language`, else that of the file `path` names (the one target, a file)."""
    value = args["rule"]
    if isinstance(value, str):
        try:
            docs = read_documents(value, "rule")
        except RuleError as exc:
            raise ToolError(f"{exc}. Pass the rule as an object, or as YAML or JSON text.") from exc
        if len(docs) != 1:
            raise ToolError(f"rule: the text holds {len(docs)} rules; pass one")
        value = docs[0]
    if isinstance(value, Mapping) and "rule" not in value and any(k in value for k in RULE_KEYS):
        value = {"rule": value}  # a bare rule object: the configuration around it is implied
    one_file = len(targets) == 1 and targets[0].is_file()
    language = language_arg(args) or (language_for_path(targets[0]) if one_file else None)
    if isinstance(value, Mapping) and "language" not in value and not language:
        raise ToolError('rule: no language; give "language" in the rule or as an argument (python, typescript, ...)')
    try:
        return read_config(value, "rule", language=language)
    except RuleError as exc:
        raise ToolError(f"{exc}; nothing was run.") from exc
