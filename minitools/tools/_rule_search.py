"""The `rule` argument of ast_grep and ast_edit (docs/tools.md, "Rules"): an ast-grep rule
configuration (an object, or its YAML/JSON text), checked whole before anything runs, then run
over the files of its language under the target, each file parsed once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from minitools.match import Budget, Edit, Searcher, UnsafeSource, apply_edits, language_for_path, parse_errors
from minitools.rules import (
    COMPOSITE_KEYS,
    RULE_KEYS,
    Finding,
    RuleConfig,
    RuleError,
    RuleSet,
    read_config,
    read_documents,
)
from minitools.tools._context import RunContext
from minitools.tools._language import language_arg
from minitools.tools._staging import StagedFile
from minitools.toolspec import ToolError

__all__ = ["RuleScan", "read_rule_arg", "scan_rule", "rule_edits", "stage_fixes", "RULE_PARAMETER"]

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


class RuleScan(NamedTuple):
    findings: list[Finding]  # in file order, then source order
    sources: dict[str, bytes]  # display path -> the bytes the findings were made on
    files_searched: int
    skipped: int  # files a search skips (oversized, binary, not UTF-8, unreadable, nested too deep to parse)
    stopped: str | None  # why the budget ended the scan early ("stopped after 60 s"), if it did


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


def scan_rule(searcher: Searcher, config: RuleConfig, targets: Sequence[str | Path],
              budget: Budget | None = None) -> RuleScan:
    """The rule's findings in its language's files under `targets`, until the budget (by
    default the searcher's: the time and memory one search call may spend) runs out."""
    budget = (budget or searcher.budget()).start()
    ruleset = RuleSet([config])
    findings: list[Finding] = []
    sources: dict[str, bytes] = {}
    searched = skipped = 0
    for real in searcher.collect(targets, config.language):
        if budget.spent():
            break
        shown = searcher.display(real)
        if not ruleset.for_file(config.language, shown):
            continue
        source = searcher.read_source(real)
        if source is None:
            skipped += 1
            continue
        try:
            found = ruleset.scan_source(source, config.language, shown, budget)
        except UnsafeSource:
            skipped += 1
            continue
        searched += 1
        if found:
            sources[shown] = source
            findings += [f._replace(match=f.match._replace(path=shown)) for f in found]
    return RuleScan(findings, sources, searched, skipped, budget.stopped)


def rule_edits(searcher: Searcher, scan: RuleScan) -> tuple[list[StagedFile], int, list[dict[str, Any]]]:
    """The staged files of a rule's fixes; see `stage_fixes`."""
    return stage_fixes(searcher.root, [(f.match.path, f) for f in scan.findings if f.match.path is not None], scan.sources)


def stage_fixes(
    root: Path, findings: Sequence[tuple[str, Finding]], sources: Mapping[str, bytes]
) -> tuple[list[StagedFile], int, list[dict[str, Any]]]:
    """The staged files of the findings' fixes, (display path, finding) in file and source
    order: outer first, a fix inside another left out and counted; and the files that parsed
    before and no longer would, in their rule's language."""
    per_file: dict[str, list[Edit]] = {}
    languages: dict[str, str] = {}
    inner = 0
    for shown, f in findings:
        if f.fix is None:
            continue
        start, end, text = f.fix
        edits = per_file.setdefault(shown, [])
        languages[shown] = f.config.language
        if edits and start < edits[-1].end:
            inner += 1
            continue
        edits.append(Edit(start, end, text.encode("utf-8")))
    staged = []
    broken = []
    for shown, edits in per_file.items():
        before = sources[shown]
        after = apply_edits(before, edits)
        if after == before:
            continue
        staged.append(StagedFile(root / shown, shown, before, after, len(edits)))
        language = languages[shown]
        if len(parse_errors(after, language)) > len(parse_errors(before, language)):
            broken.append({"file": shown})
    return staged, inner, broken
