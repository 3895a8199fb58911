"""What searching a set of files yields, in whichever process searched them: the matches per
file, the skip counts and how many files were searched. The in-process search, the forked
children and the shard pool all hand it over and merge it the same way."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = ["FilesOutcome", "merge"]


class FilesOutcome(NamedTuple):
    per_file: dict[str, Any]  # display path -> [NodeMatch], for the files with a match
    skipped: dict[str, int]  # why a file was not searched -> how many
    searched: int


def merge(outcomes: Iterable[FilesOutcome]) -> FilesOutcome:
    """One outcome for the union of disjoint file sets."""
    per_file: dict[str, Any] = {}
    skipped: dict[str, int] = {}
    searched = 0
    for found, skip, count in outcomes:
        per_file.update(found)
        for why, n in skip.items():
            skipped[why] = skipped.get(why, 0) + n
        searched += count
    return FilesOutcome(per_file, skipped, searched)
