"""A rule's findings over files, and the edit its fixes make: one rule scanned under targets within
a budget, each file parsed once; the fixes staged outer first, a fix inside another left out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from minitools.edits._rewrite import BrokenFile
from minitools.edits._staging import StagedFile
from minitools.match import Budget, Edit, Searcher, UnsafeSource, apply_edits, parse_errors
from minitools.rules import Finding, RuleConfig, RuleSet

__all__ = ["Fixes", "RuleScan", "scan_rule", "stage_fixes"]


class Fixes(NamedTuple):
    staged: list[StagedFile]
    inner: int  # fixes inside another, left out (the outer one wins)
    broken: list[BrokenFile]  # files that parsed before and would not after, in their rule's language


class RuleScan(NamedTuple):
    findings: list[Finding]  # in file order, then source order
    sources: dict[str, bytes]  # display path -> the bytes the findings were made on
    files_searched: int
    skipped: int  # files a search skips (oversized, binary, not UTF-8, unreadable, nested too deep to parse)
    stopped: str | None  # why the budget ended the scan early ("stopped after 60 s"), if it did

    def fixes(self, root: Path) -> Fixes:
        """The staged files of the findings' fixes; see `stage_fixes`."""
        return stage_fixes(root, [(f.match.path, f) for f in self.findings if f.match.path is not None], self.sources)


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


def stage_fixes(root: Path, findings: Sequence[tuple[str, Finding]], sources: Mapping[str, bytes]) -> Fixes:
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
            broken.append(BrokenFile(shown))
    return Fixes(staged, inner, broken)
