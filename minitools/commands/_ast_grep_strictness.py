"""`minitools ast-grep --strictness LEVEL`: a pattern matched at a strictness other than
`smart` (docs/tools.md, "Pattern strictness") runs as a rule, `{pattern: {context, strictness}}`
with `--rewrite` as its fix, through the rule engine: the output, exit codes and all-or-none
`--apply` are the pattern search's."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from minitools.commands._grep_output import Printer
from minitools.commands._write_staged import write_all_or_none
from minitools.edits import scan_rule, stage_fixes, unified_diff
from minitools.match import LanguagePlan, NodeMatch, Searcher
from minitools.rules import Finding, RuleConfig, RuleError, read_config

__all__ = ["strict_search"]


def _configs(plan: LanguagePlan, source: str, strictness: str, rewrite: str | None) -> list[RuleConfig]:
    configs = []
    for pattern, _files in plan.searches:
        raw: dict[str, object] = {"id": "pattern", "language": pattern.language,
                                  "rule": {"pattern": {"context": source, "strictness": strictness}}}
        if rewrite is not None:
            raw["fix"] = rewrite
        configs.append(read_config(raw, "--strictness"))
    return configs


def strict_search(searcher: Searcher, plan: LanguagePlan, source: str, strictness: str, paths: Sequence[str | Path],
                  printer: Printer, *, rewrite: str | None, apply: bool, fail: Callable[[str], int]) -> int:
    """Search (or with `rewrite`, rewrite) as the pattern search does, at `strictness`: 0 when
    something matched, 1 when nothing did."""
    try:
        configs = _configs(plan, source, strictness, rewrite)
    except RuleError as exc:
        return fail(str(exc))
    stopped = None
    findings: list[tuple[str, Finding]] = []
    sources: dict[str, bytes] = {}
    for config in configs:
        for target in paths:
            scan = scan_rule(searcher, config, [target])
            stopped = stopped or scan.stopped
            sources.update(scan.sources)
            if rewrite is not None:
                findings += [(f.match.path or "", f) for f in scan.findings]
                continue
            by_file: dict[str, list[NodeMatch]] = {}
            for f in scan.findings:
                by_file.setdefault(f.match.path or "", []).append(f.match)
            for path, matches in by_file.items():
                printer.file(path, matches)
    printer.close()
    if stopped:
        flag = "--time-budget" if stopped.endswith(" s") else "--memory-budget"
        print(f"minitools ast-grep: {stopped}: narrow the path or the pattern, or raise {flag}", file=sys.stderr)
        if rewrite is not None:
            return fail("nothing was rewritten: the search stopped before it saw every file")
    if rewrite is None:
        return 0 if printer.matched else 1
    return _rewrite(searcher, findings, sources, apply, fail)


def _rewrite(searcher: Searcher, findings: list[tuple[str, Finding]], sources: dict[str, bytes], apply: bool,
             fail: Callable[[str], int]) -> int:
    """The diff of every fix, and with `apply` every file written or none."""
    staged, _inner, broken = stage_fixes(searcher.root, findings, sources)
    for b in broken:
        print(f"warning: {b.file} no longer parses after this rewrite", file=sys.stderr)
    if not staged:
        return 1
    sys.stdout.write(unified_diff(staged))
    failed = write_all_or_none(staged, searcher.root) if apply else None
    return 0 if failed is None else fail(failed)
