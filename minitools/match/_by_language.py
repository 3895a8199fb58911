"""A pattern given without a language, over files of several languages: each file is searched
in the language its extension names, the pattern compiled once per language; a language the
pattern does not parse in is skipped with a note, and the search is refused only when it
parses in none (docs/tools.md, "ast_grep"). The CLI without --lang and the tools without
`language` both plan their search here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from minitools.match._budget import Budget
from minitools.match._grammars import GrammarError, has_grammar
from minitools.match._many_files import PathError, Searcher
from minitools.match._one_file import NodeMatch, SearchResult
from minitools.match._pattern import Pattern, PatternError, check_fragment, compile_pattern
from minitools.match._walk import language_for_path

if TYPE_CHECKING:
    from pathlib import Path

    from minitools.match._rewrite import Template

__all__ = ["LanguagePlan", "Skipped", "UnknownLanguage", "bound_plan", "one_language", "plan_languages", "search_languages"]


class UnknownLanguage(PathError):
    """A file named explicitly whose extension names no language: the caller must name one."""


class Skipped(NamedTuple):
    """A language whose files were not searched, and why."""

    language: str
    files: int
    reason: str
    is_pattern: bool  # the pattern does not parse in it (else: no grammar here)


class LanguagePlan(NamedTuple):
    # the pattern in each language it parses in, with that language's files (None: all of the paths)
    searches: list[tuple[Pattern, list[str] | None]]
    files: list[str]  # every file, in search order
    skipped: list[Skipped]

    @property
    def languages(self) -> list[str]:
        return [pattern.language for pattern, _ in self.searches]


def one_language(pattern: Pattern) -> LanguagePlan:
    """The plan of a pattern given its language: every file under the paths, in that language."""
    return LanguagePlan([(pattern, None)], [], [])


def plan_languages(source: str, searcher: Searcher, paths: Sequence[str | Path]) -> LanguagePlan:
    """The files under `paths` grouped by the language of their extension, with the pattern
    compiled for each. Raises PatternError for a pattern refused in every language alike (said
    once, not once per language), UnknownLanguage for a file named explicitly whose extension
    names no language, and PathError for a path that is not there."""
    check_fragment(source)
    files = searcher.collect(list(paths), None)
    groups: dict[str, list[str]] = {}
    for f in files:
        language = language_for_path(f)
        if language is None:  # only a file named explicitly gets here
            raise UnknownLanguage(f'cannot infer the language of "{searcher.display(f)}" from its extension')
        groups.setdefault(language, []).append(f)
    searches: list[tuple[Pattern, list[str] | None]] = []
    skipped: list[Skipped] = []
    for language, group in groups.items():
        if not has_grammar(language):
            skipped.append(Skipped(language, len(group), f"no {language} grammar here", False))
            continue
        try:
            searches.append((compile_pattern(source, language), group))
        except (PatternError, GrammarError) as exc:
            skipped.append(Skipped(language, len(group), str(exc), isinstance(exc, PatternError)))
    return LanguagePlan(searches, files, skipped)


def bound_plan(plan: LanguagePlan, template: Template) -> LanguagePlan:
    """`plan` for a rewrite with `template`: a language where the pattern binds none of a
    metavariable the template uses (`print($A)` in YAML is one plain scalar, binding nothing)
    is skipped with a note, as a language the pattern does not parse in is. TemplateError
    (`check_bound`'s, of the first language) when that leaves no language."""
    from minitools.match._rewrite import TemplateError  # the rewrite machinery only when a rewrite is asked

    kept: list[tuple[Pattern, list[str] | None]] = []
    skipped = list(plan.skipped)
    first: TemplateError | None = None
    for pattern, files in plan.searches:
        try:
            template.check_bound(pattern.metavar_names, pattern.source)
        except TemplateError as exc:
            first = first or exc
            unbound = ", ".join(f"${n}" for n in sorted(template.names - pattern.metavar_names))
            count = len(files) if files is not None else 0
            skipped.append(Skipped(pattern.language, count, f"the pattern binds no {unbound} there", True))
            continue
        kept.append((pattern, files))
    if first is not None and not kept:
        raise first
    return LanguagePlan(kept, plan.files, skipped) if first is not None else plan


def search_languages(searcher: Searcher, plan: LanguagePlan, paths: Sequence[str | Path], *,
                     max_results: int | None = None, budget: Budget | None = None,
                     on_file: Callable[[str, list[NodeMatch]], None] | None = None) -> SearchResult:
    """Every match of the plan, files in search order across the languages, matches in
    pre-order within a file; at most `max_results` built and kept, `total` counts them all
    (`Searcher.search` says how the budget bounds the call, and what `on_file` does)."""
    if budget is None:
        budget = searcher.budget(max_results)
    if len(plan.searches) == 1:
        pattern, files = plan.searches[0]
        return searcher.search(pattern, list(paths), files=files, budget=budget, on_file=on_file)
    budget.start()  # one clock for all the languages
    per_file: dict[str | None, list[NodeMatch]] = {}

    def keep(path: str, found: list[NodeMatch]) -> None:
        per_file[path] = found  # handed on in the plan's file order, once every language is done

    results = []
    for pattern, files in plan.searches:
        if budget.stopped is not None:
            break
        # each language builds at most the cap: which of its matches are kept depends on the order
        result = searcher.search(pattern, list(paths), files=files, budget=budget,
                                 on_file=None if on_file is None else keep)
        results.append(result)
        for m in result.matches:
            per_file.setdefault(m.path, []).append(m)
    skipped: dict[str, int] = {}
    for result in results:
        for why, n in result.skipped.items():
            skipped[why] = skipped.get(why, 0) + n
    if on_file is not None:
        for f in plan.files:
            display = searcher.display(f)
            if display in per_file:
                on_file(display, per_file.pop(display))
    ordered = [m for f in plan.files for m in per_file.get(searcher.display(f), [])]
    total = sum(r.total for r in results)
    kept = ordered if max_results is None else ordered[:max_results]
    exact = all(r.exact for r in results)
    stopped = next((r.stopped for r in results if r.stopped), None)
    return SearchResult(kept, total, sum(r.files_searched for r in results), sum(r.files_matched for r in results),
                        skipped, total > len(kept) or not exact, exact, stopped)
