"""Rule tests, as ast-grep's `test` runs them: each `valid` snippet must give the rule no
finding and each `invalid` snippet at least one, whose first finding (its labels and fix) must
equal the snippet's snapshot when the caller gives the baseline (rules/_snapshots.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from minitools.rules._config import RuleConfig
from minitools.rules._project import RuleTest
from minitools.rules._scan import RuleSet
from minitools.rules._snapshots import Snapshot, snapshot_of

__all__ = ["TestOutcome", "run_tests"]


class TestOutcome(NamedTuple):
    id: str
    # one character a case, in order: "." passed, "N" a valid case matched, "M" an invalid one
    # did not, "W" an invalid one matched otherwise than its snapshot says
    cases: str
    failures: list[tuple[str, str]]  # ("valid", "invalid" or why its snapshot differs, snippet)
    snapshots: dict[str, Snapshot]  # each matching invalid snippet's, as the run found it

    @property
    def passed(self) -> bool:
        return not self.failures


def run_tests(
    rules: Sequence[RuleConfig], tests: Sequence[RuleTest],
    baseline: Callable[[str], dict[str, Snapshot] | None] | None = None,
) -> tuple[list[TestOutcome], list[RuleTest]]:
    """The outcome per tested rule, and the tests that name no rule. With `baseline` (a rule
    id's snapshots, None where it has none), each matching invalid snippet is checked against
    its snapshot."""
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
        snapshots: dict[str, Snapshot] = {}
        known = baseline(test.id) if baseline is not None else None
        for snippet in test.invalid:
            source = snippet.encode("utf-8")
            found = ruleset.scan_source(source, config.language)
            if not found:
                marks.append("M")
                failures.append(("invalid", snippet))
                continue
            snapshots[snippet] = snapshot_of(found[0], source)
            if baseline is None:
                marks.append(".")
            elif known is None or snippet not in known:
                marks.append("W")
                failures.append((f"no {test.id} baseline found for this snippet", snippet))
            elif known[snippet] != snapshots[snippet]:
                marks.append("W")
                failures.append((f"{test.id} snapshot is different from baseline", snippet))
            else:
                marks.append(".")
        outcomes.append(TestOutcome(test.id, "".join(marks), failures, snapshots))
    return outcomes, orphans
