"""Rule tests, as ast-grep's `test` runs them: each `valid` snippet must give the rule no
finding and each `invalid` snippet at least one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from minitools.rules._config import RuleConfig
from minitools.rules._project import RuleTest
from minitools.rules._scan import RuleSet

__all__ = ["TestOutcome", "run_tests"]


class TestOutcome(NamedTuple):
    id: str
    cases: str  # one character a case, in order: "." passed, "N" a valid case matched, "M" an invalid one did not
    failures: list[tuple[str, str]]  # ("valid" or "invalid", snippet)

    @property
    def passed(self) -> bool:
        return not self.failures


def run_tests(rules: Sequence[RuleConfig], tests: Sequence[RuleTest]) -> tuple[list[TestOutcome], list[RuleTest]]:
    """The outcome per tested rule, and the tests that name no rule."""
    by_id = {r.id: r for r in rules}
    outcomes = []
    orphans = []
    for test in tests:
        config = by_id.get(test.id)
        if config is None:
            orphans.append(test)
            continue
        ruleset = RuleSet([config._replace(severity="hint" if config.severity == "off" else config.severity)])
        marks = []
        failures = []
        for snippet in test.valid:
            found = ruleset.scan_source(snippet.encode("utf-8"), config.language)
            marks.append("N" if found else ".")
            if found:
                failures.append(("valid", snippet))
        for snippet in test.invalid:
            found = ruleset.scan_source(snippet.encode("utf-8"), config.language)
            marks.append("." if found else "M")
            if not found:
                failures.append(("invalid", snippet))
        outcomes.append(TestOutcome(test.id, "".join(marks), failures))
    return outcomes, orphans
