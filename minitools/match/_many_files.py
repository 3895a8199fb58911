"""Searcher: one per Run. Walks files, pre-filters on the pattern's literal tokens, parses
with a tree cache keyed by (path, size, mtime) and bounded by the source bytes it holds, and
spreads a large search over the cores: persistent shard workers that keep their trees for
the next call, or, for a process that searches once, forked copies of itself."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from minitools.match._budget import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, Budget
from minitools.match._fork import MAX_ITEMS, ChildFailed, fork_available, forked_stream
from minitools.match._grammars import UnsafeSource, parse_source, parse_watched
from minitools.match._one_file import (
    DEFAULT_CACHE_BYTES,
    DEFAULT_MAX_FILE_BYTES,
    NodeMatch,
    SearchResult,
    has_literals,
    search_tree,
)
from minitools.match._outcome import FilesOutcome, merge
from minitools.match._pattern import Pattern
from minitools.match._pool import ShardPool, shard_of
from minitools.match._source_files import SourceReader, TreeCache
from minitools.match._walk import Globs, walk_files

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Searcher", "PathError"]

# A search stays in-process below these: starting a worker costs ~0.15 s, which parsing
# a few MiB on a second core does not repay.
POOL_MIN_FILES = 64
POOL_MIN_BYTES = 8 << 20
# A fork costs some milliseconds (the pages either side writes are copied): worth it from a
# few files and a few hundred KiB to parse on.
FORK_MIN_FILES = 8
FORK_MIN_BYTES = 384 << 10
# Up to this much source a one-shot search reads and pre-filters the files before it forks,
# so that the fork is for the files to parse; above it, the reading too is shared out.
PREFILTER_FIRST_BYTES = 4 << 20
# a forked search hands out runs of files of about ITEM_BYTES, at least ITEMS_PER_WORKER per process
ITEM_BYTES = 16 << 10
ITEMS_PER_WORKER = 8
MAX_INDEXED_KINDS = 16


class PathError(ValueError):
    """A search path outside the searcher's root, or one that does not exist."""


class Searcher:
    """Structural search over the files under `root`, with a per-instance tree cache."""

    def __init__(
        self,
        root: str | Path,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        workers: int | None = None,
        pool_min_files: int = POOL_MIN_FILES,
        pool_min_bytes: int = POOL_MIN_BYTES,
        one_shot: bool = False,
        ignore_parents: bool = True,
        globs: Sequence[str] = (),
        max_seconds: float | None = DEFAULT_SECONDS,
        max_memory_bytes: int | None = DEFAULT_MEMORY_BYTES,
    ) -> None:
        """`cache_bytes` bounds the source bytes whose trees are kept, in this process and
        (shared out) in the shard workers; `workers` is how many processes a large search
        fans out to (default: the number of cores, at most 4; 1 searches in-process); a
        search of fewer than `pool_min_files` files or `pool_min_bytes` bytes stays
        in-process. `one_shot` is for a process that searches once and exits: it keeps no
        trees, and a search forks copies of this process instead of starting workers, when
        fork is safe here. `ignore_parents` applies the ignore files of the folders above
        `root` within its git repository, as ripgrep and ast-grep do (`--no-ignore parent`
        turns that off in both). `globs` (gitignore syntax, relative to `root`, `!` excludes)
        choose the files of a walk over every ignore rule, as `--globs` does in ast-grep.
        `max_file_bytes`: larger files are skipped (counted as "oversized"); `max_seconds`
        and `max_memory_bytes`: where a search call stops, with what it found and a note
        (None: no bound; docs/tools.md, "Limits")."""
        self._root = os.path.realpath(root)
        self._prefix = self._root.rstrip(os.sep) + os.sep
        self.max_file_bytes = max_file_bytes
        self.max_seconds = max_seconds
        self.max_memory_bytes = max_memory_bytes
        # a process that searches once never looks a tree up again: it keeps none
        self.cache = TreeCache(0 if one_shot else cache_bytes)
        self.reader = SourceReader(max_file_bytes)
        if workers is None:
            workers = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
        self.workers = max(1, workers)
        self.pool_min_files = pool_min_files
        self.pool_min_bytes = pool_min_bytes
        self.one_shot = one_shot
        self.ignore_parents = ignore_parents
        self.globs = Globs(self._root, globs) if globs else None
        self._pool: ShardPool | None = None
        if self.workers > 1 and not one_shot:
            # this process is shard 0; the pool runs the other workers - 1 shards
            self._pool = ShardPool(self._root, self.workers - 1, max_file_bytes=max_file_bytes, cache_bytes=cache_bytes)
            import weakref

            weakref.finalize(self, self._pool.close)

    @property
    def root(self) -> Path:
        """The search root, its real path."""
        from pathlib import Path  # built when asked: the one-shot CLI never loads pathlib

        return Path(self._root)

    def close(self) -> None:
        """Stop the shard workers, if any were started (idempotent); the cache stays usable."""
        if self._pool is not None:
            self._pool.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # paths ---------------------------------------------------------------------------

    def _resolve(self, path: str | Path) -> str:
        real = os.path.realpath(os.path.join(self._root, path))  # an absolute path stays itself
        if real != self._root and not real.startswith(self._prefix):
            raise PathError(f'path "{path}" is outside the search root {self._root}')
        if not os.path.exists(real):
            raise PathError(f'path "{path}" does not exist under {self._root}')
        return real

    def files(self, pattern: Pattern, paths: Sequence[str | Path] | None = None) -> list[Path]:
        """The files a search of `paths` (default: the root) would look at, in order."""
        from pathlib import Path

        return [Path(f) for f in self.collect(paths, pattern.language)]

    def collect(self, paths: Sequence[str | Path] | None, language: str | None) -> list[str]:
        """The real paths of the files a search of `paths` (default: the root) looks at, in
        order: in folders, `language`'s files, or with None those of any known language."""
        targets = [self._resolve(p) for p in paths] if paths else [self._root]
        out: list[str] = []
        seen: set[str] = set()
        for target in targets:
            # a file named explicitly is searched whatever its extension or ignore rules
            found = [target] if os.path.isfile(target) else walk_files(
                self._root, target, language, parents=self.ignore_parents, globs=self.globs
            )
            for f in found:
                if f not in seen:
                    seen.add(f)
                    out.append(f)
        return out

    def display(self, path: str | Path) -> str:
        """A file's path as results show it: relative to the root, with `/`."""
        text = str(path)
        if text.startswith(self._prefix):
            text = text[len(self._prefix) :]
            return text.replace(os.sep, "/") if os.sep != "/" else text
        return text

    # search ----------------------------------------------------------------------------

    def budget(self, max_results: int | None = None) -> Budget:
        """A fresh budget for one search call, with this searcher's time and memory bounds."""
        return Budget(max_results=max_results, seconds=self.max_seconds, memory_bytes=self.max_memory_bytes)

    def read_source(self, path: str) -> bytes | None:
        """A file's bytes as a search reads them; None when a search would skip it
        (oversized, unreadable, binary, not UTF-8)."""
        return self.reader.read_source(path)

    def search_files(
        self, pattern: Pattern, files: Sequence[str | Path], budget: Budget | None = None, *, ordered: bool = True,
        on_file: Callable[[str, list[NodeMatch]], None] | None = None, preread: Mapping[str, bytes] | None = None,
    ) -> FilesOutcome:
        """In this process: {display path: matches} for the files that match, their match
        counts, skip counts, and how many files were searched. With `budget`: at most its
        `max_results` matches built over all the files (`ordered`: `files` are in search
        order) or in each file (not `ordered`: a share of a parallel search), the rest only
        counted; the search ends early when the budget runs out. `on_file` takes each file's
        matches as they are found, in batches (consecutive, a file's in pre-order), instead
        of the outcome keeping them. `preread`: files already read (and pre-filtered), by path."""
        per_file: dict[str, list[NodeMatch]] = {}
        counts: dict[str, int] = {}
        skipped: dict[str, int] = {}
        searched = built = 0
        cap = budget.max_results if budget is not None else None
        keep = self.cache.max_bytes > 0
        read, read_fresh = self.reader.read, self.reader.read_fresh
        if budget is not None:
            budget.start()
        for path in files:
            if budget is not None:
                if budget.spent():
                    break
                budget.files_searched += 1
            key = str(path)
            index: dict[Any, Any] | None = None
            if preread is not None and key in preread:
                got: bytes | str | None = preread[key]
            elif not keep:  # a searcher that keeps no trees: no stat for a cache key first
                got = read_fresh(key)
            else:
                try:
                    st = os.stat(key)
                except OSError:
                    skipped["unreadable"] = skipped.get("unreadable", 0) + 1
                    continue
                hit = self.cache.get(key, st.st_size, st.st_mtime_ns)
                if hit is not None:
                    got = None
                    source, tree, index = hit
                    searched += 1
                    if not has_literals(pattern, source):
                        continue
                else:
                    got = read(key, st.st_size)
            if got is not None:
                if isinstance(got, str):
                    skipped[got] = skipped.get(got, 0) + 1
                    continue
                searched += 1
                source = got
                # the cheap test first: a file lacking a token the pattern writes cannot match
                if not has_literals(pattern, source):
                    continue
                try:
                    if budget is not None and budget.may_overrun(len(source)):
                        parsed = parse_watched(pattern.language, source, budget.spent)
                        if parsed is None:  # the budget ran out mid-parse
                            break
                        tree = parsed
                    else:
                        tree = parse_source(pattern.language, source)
                except UnsafeSource:
                    skipped[UnsafeSource.skip_reason] = skipped.get(UnsafeSource.skip_reason, 0) + 1
                    continue
                if keep:
                    index = self.cache.put(key, st.st_size, st.st_mtime_ns, source, tree)
            if index is not None and len(index) >= MAX_INDEXED_KINDS:
                index.clear()  # bound the per-tree kind index
            display = self.display(key)
            room = None if cap is None else max(0, cap - built) if ordered else cap
            sink = None if on_file is None else functools.partial(on_file, display)
            found, count = search_tree(pattern, tree, source, display, index, room, budget, sink)
            if count:
                counts[display] = count
                built += min(count, room) if room is not None else count
                if on_file is None:
                    per_file[display] = found
        if budget is None:
            return FilesOutcome(per_file, skipped, searched, counts)
        return FilesOutcome(per_file, skipped, searched, counts, budget.exact, budget.stopped)

    def _sizes(self, files: Sequence[str]) -> tuple[list[int], int]:
        sizes = []
        for f in files:
            try:
                sizes.append(os.stat(f).st_size)
            except OSError:
                sizes.append(0)
        return sizes, sum(sizes)

    def _search_parallel(
        self, pattern: Pattern, files: list[str], budget: Budget, on_file: Callable[[str, list[NodeMatch]], None] | None
    ) -> FilesOutcome | None:
        """The search spread over the cores, or None when it is too small to be worth it
        (or a worker failed): the caller then searches in-process. Each share builds at most
        the cap's matches per file: which of them are kept depends on the files before."""
        if self.workers < 2:
            return None
        if self.one_shot:
            if len(files) < FORK_MIN_FILES or not fork_available():
                return None
            sizes, total = self._sizes(files)
            if total < FORK_MIN_BYTES:
                return None
            if total > PREFILTER_FIRST_BYTES:
                return self._search_forked(pattern, files, sizes, budget, on_file)
            # a few MiB: read and pre-filter here first, and fork only once there is a parse
            # worth sharing (a fork costs some milliseconds of copied pages on each side);
            # the files not yet pre-filtered then go to the children as they are
            sources, prefiltered, reached = self._prefilter(pattern, files, budget, FORK_MIN_BYTES)
            candidates = list(sources)
            if budget.stopped or (reached == len(files) and sum(map(len, sources.values())) < FORK_MIN_BYTES):
                outcome = self.search_files(pattern, candidates, budget, on_file=on_file, preread=sources)
            else:
                weights = [len(sources[f]) for f in candidates] + sizes[reached:]
                outcome = self._search_forked(pattern, candidates + files[reached:], weights, budget, on_file, sources)
            return merge([prefiltered, outcome])
        pool = self._pool
        if pool is None or pool.broken or len(files) < self.pool_min_files:
            return None
        if self._sizes(files)[1] < self.pool_min_bytes:
            return None
        shards: list[list[str]] = [[] for _ in range(self.workers)]
        for f in files:
            shards[shard_of(f, self.workers)].append(f)
        return pool.run(pattern.source, pattern.language, shards[1:],
                        lambda: self.search_files(pattern, shards[0], budget, ordered=False), budget)

    def _prefilter(
        self, pattern: Pattern, files: Sequence[str], budget: Budget, enough: int
    ) -> tuple[dict[str, bytes], FilesOutcome, int]:
        """The files that pass the pre-filter, with their bytes, in order, up to the first
        `enough` bytes of them; an outcome counting the others (searched, or skipped and
        why); and how many of `files` were looked at."""
        sources: dict[str, bytes] = {}
        skipped: dict[str, int] = {}
        searched = held = 0
        for k, path in enumerate(files):
            if budget.spent() or held >= enough:
                return sources, FilesOutcome({}, skipped, searched, {}, True, budget.stopped), k
            got = self.reader.read_fresh(path)
            if isinstance(got, str):
                skipped[got] = skipped.get(got, 0) + 1
            elif has_literals(pattern, got):
                sources[path] = got
                held += len(got)
            else:
                searched += 1
        return sources, FilesOutcome({}, skipped, searched, {}, True, budget.stopped), len(files)

    def _search_forked(
        self, pattern: Pattern, files: list[str], sizes: list[int], budget: Budget,
        on_file: Callable[[str, list[NodeMatch]], None] | None, preread: Mapping[str, bytes] | None = None,
    ) -> FilesOutcome:
        """`files` searched by this process and forked copies of it, in runs of files taken in
        order; each run's matches handed to `on_file` (or kept) in search order as it comes."""
        # items of about ITEM_BYTES (a few milliseconds of parsing each, against ~40 µs of
        # handing one over), enough of them to share the work out evenly
        most = min(MAX_ITEMS, max(ITEMS_PER_WORKER * self.workers, sum(sizes) // ITEM_BYTES))
        items = _runs(files, sizes, most)
        outcomes: list[FilesOutcome] = []

        def take(outcome: FilesOutcome, item: Sequence[str]) -> None:
            if on_file is not None:
                for path in item:
                    display = self.display(path)
                    found = outcome.per_file.get(display)
                    if found:
                        on_file(display, found)
                outcome = outcome._replace(per_file={})
            outcomes.append(outcome)

        share = functools.partial(self.search_files, pattern, budget=budget, ordered=False, preread=preread)
        done = 0
        try:
            for outcome in forked_stream(share, items, self.workers):
                take(outcome, items[done])
                done += 1
        except ChildFailed:  # the rest in this process, in order
            rest = [f for item in items[done:] for f in item]
            take(share(rest), rest)
        return merge(outcomes)

    def search(
        self,
        pattern: Pattern,
        paths: Sequence[str | Path] | None = None,
        *,
        max_results: int | None = None,
        files: Sequence[str] | None = None,
        budget: Budget | None = None,
        on_file: Callable[[str, list[NodeMatch]], None] | None = None,
    ) -> SearchResult:
        """Every match of `pattern` under `paths` (default: the whole root), files in sorted
        order, matches in pre-order; at most `max_results` built and kept, `total` counts
        them all (`exact` False: at least that many; docs/tools.md, "Limits"). `files` (from
        `collect`) searches exactly those instead of collecting them. `budget` (default:
        `self.budget(max_results)`) bounds the call; when it runs out the result holds what
        was found and `stopped` says so. `on_file(path, matches)` takes the matches, in search
        order, a batch at a time, instead of the result keeping them (a caller that prints
        them as they come)."""
        files = list(files) if files is not None else self.collect(paths, pattern.language)
        if budget is None:
            budget = self.budget(max_results)
        budget.start()
        budget.files_total += len(files)
        before = budget.files_searched
        outcome = self._search_parallel(pattern, files, budget, on_file)
        if outcome is None:
            outcome = self.search_files(pattern, files, budget, on_file=on_file)
        else:
            # a share searched here counted itself as it went; the others are counted once all are done
            budget.files_searched = before + len(files)
            if on_file is not None and outcome.per_file:  # the shard pool's: kept whole
                self._hand_over(files, outcome, on_file)
        per_file, skipped, searched, counts, exact, stopped = outcome
        if counts is None:  # an outcome that kept every match
            counts = {path: len(found) for path, found in per_file.items()}
        matches: list[NodeMatch] = []
        total = matched = 0
        cap = budget.max_results
        for path in files:
            display = self.display(path)
            count = counts.get(display, 0)
            if not count:
                continue
            matched += 1
            total += count
            found = per_file.get(display, [])
            room = len(found) if cap is None else max(0, cap - len(matches))
            matches.extend(found[:room])
        truncated = total > len(matches) or not exact
        return SearchResult(matches, total, searched, matched, skipped, truncated and on_file is None, exact, stopped)


    def _hand_over(self, files: Sequence[str], outcome: FilesOutcome,
                   on_file: Callable[[str, list[NodeMatch]], None]) -> None:
        """Give `on_file` the matches a shard pool kept whole, in search order."""
        for path in files:
            display = self.display(path)
            if display in outcome.per_file:
                on_file(display, outcome.per_file.pop(display))


def _runs(files: list[str], sizes: list[int], most: int) -> list[list[str]]:
    """`files` cut, in order, into at most `most` runs of about equal bytes: a file joins the
    run its starting byte falls in (filling each run up to an even share instead would leave
    the last run the whole remainder, the search's tail spent on one process)."""
    if len(files) <= most:
        return [[f] for f in files]
    total = sum(sizes) or 1
    runs: list[list[str]] = [[] for _ in range(most)]
    before = 0
    for f, size in zip(files, sizes):
        runs[min(most - 1, before * most // total)].append(f)
        before += size
    return [run for run in runs if run]
