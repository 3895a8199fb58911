"""What searching a set of files yields, in whichever process searched them: the matches per
file, the skip counts and how many files were searched. The in-process search, the forked
children and the shard pool all hand it over and merge it the same way."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = ["FilesOutcome", "merge"]


class FilesOutcome(NamedTuple):
    per_file: dict[str, Any]  # display path -> [NodeMatch] built (at most the cap), for the files with a match
    skipped: dict[str, int]  # why a file was not searched -> how many
    searched: int
    counts: dict[str, int] | None = None  # display path -> how many matches the file has (or had counted)
    exact: bool = True  # False: some count stopped at the budget's count limit ("at least")
    stopped: str | None = None  # the budget ran out: why, as a note


def merge(outcomes: Iterable[FilesOutcome]) -> FilesOutcome:
    """One outcome for the union of disjoint file sets."""
    per_file: dict[str, Any] = {}
    skipped: dict[str, int] = {}
    counts: dict[str, int] = {}
    searched = 0
    exact = True
    stopped = None
    for found, skip, count, file_counts, file_exact, file_stopped in outcomes:
        per_file.update(found)
        counts.update(file_counts or {})
        for why, n in skip.items():
            skipped[why] = skipped.get(why, 0) + n
        searched += count
        exact = exact and file_exact
        stopped = stopped or file_stopped
    return FilesOutcome(per_file, skipped, searched, counts, exact, stopped)
