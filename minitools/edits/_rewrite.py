"""A rewrite of a pattern's matches by a template, computed but not written: the files it
would change, as staged files with their replacements, and the files it would leave unparseable."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from minitools.edits._staging import StagedFile
from minitools.match import Budget, LanguagePlan, Searcher, Template, apply_edits, find_matches, parse_errors, plan_edits

__all__ = ["BrokenFile", "FileEdits", "Proposal", "Replacement", "RewriteStopped", "propose_rewrite", "read_regular_file"]


class RewriteStopped(Exception):
    """The search for the matches to rewrite ran out of its budget: a rewrite of the files found
    so far would be a partial one, so none is proposed."""


class Replacement(NamedTuple):
    line: int  # 1-based, where the match begins
    before: str
    after: str

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


class FileEdits(NamedTuple):
    """One file's replacements, as a proposal lists them."""

    file: str  # the path as shown, from the root
    replacements: list[Replacement]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "replacements": len(self.replacements),
                "edits": [r.to_json() for r in self.replacements]}


class BrokenFile(NamedTuple):
    """A file that parsed before an edit and would not after it; where the first new error is,
    when known."""

    file: str
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self._asdict().items() if v is not None}


class Proposal(NamedTuple):
    """What a rewrite would change."""

    staged: list[StagedFile]
    inner: int  # overlapping inner matches left as they are
    files: list[FileEdits]
    broken: list[BrokenFile]
    vanished: list[str]  # files that matched but were gone (or no longer regular files) when re-read


def read_regular_file(path: Path) -> bytes | None:
    """The bytes of `path` if it is still a regular file (a FIFO is not opened for reading: it would block)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read()


def _line_of(source: bytes, byte: int) -> int:
    return source.count(b"\n", 0, byte) + 1


def propose_rewrite(searcher: Searcher, plan: LanguagePlan, template: Template, targets: Sequence[str | Path],
                    budget: Budget | None = None) -> Proposal:
    """The files a rewrite would change. Each of the plan's patterns rewrites its own
    language's files, each search within `budget` (by default the searcher's); RewriteStopped
    when a search runs out of it.

    Search, then re-match each matching file on the bytes read now, so that what is staged
    as the original is exactly what the edits were computed on; a file gone in between is
    counted, not staged."""
    vanished: list[str] = []
    staged: list[StagedFile] = []
    files: list[FileEdits] = []
    broken: list[BrokenFile] = []
    inner = 0
    seen: set[str] = set()
    found = []
    for pattern, kinds in plan.searches:
        result = searcher.search(pattern, targets, files=kinds, budget=budget)
        if result.stopped:
            raise RewriteStopped(f"{result.stopped} finding the matches to rewrite (the search's budget): "
                                 "narrow the path or the pattern; nothing was changed")
        found += [(pattern, m) for m in result.matches]
    for pattern, m in found:
        if m.path is None or m.path in seen:
            continue
        seen.add(m.path)
        path = searcher.root / m.path
        source = read_regular_file(path)
        if source is None:
            vanished.append(m.path)
            continue
        matches = find_matches(pattern, source, path=m.path)
        if not matches:
            continue  # changed between the search and now: nothing to stage for it
        edits, skipped = plan_edits(template, matches, source)
        inner += skipped
        new = apply_edits(source, edits)
        if new == source:
            continue
        staged.append(StagedFile(path, m.path, source, new, len(edits)))
        before = parse_errors(source, pattern.language)
        after = parse_errors(new, pattern.language)
        if len(after) > len(before):  # the rewrite broke the parse somewhere; name the first new place
            line, column = next((e for e in after if e not in set(before)), after[0])
            broken.append(BrokenFile(m.path, line, column))
        files.append(FileEdits(m.path, [Replacement(_line_of(source, e.start), source[e.start:e.end].decode("utf-8"),
                                                    e.replacement.decode("utf-8")) for e in edits]))
    return Proposal(staged, inner, files, broken, vanished)
