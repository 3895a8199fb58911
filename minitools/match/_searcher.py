"""Searcher: one per Run. Walks files, pre-filters on the pattern's literal tokens, parses
with a tree cache keyed by (path, size, mtime) and bounded by the source bytes it holds."""

from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tree_sitter

from minitools.match._pattern import Pattern, parser_for
from minitools.match._pool import ShardPool, shard_of
from minitools.match._search import (
    DEFAULT_CACHE_BYTES,
    DEFAULT_MAX_FILE_BYTES,
    NodeMatch,
    SearchResult,
    _has_literals,
    _matches_in_tree,
    walk_files,
)

__all__ = ["Searcher", "PathError"]

# A search stays in-process below these: starting a worker costs ~0.15 s, which parsing
# a few MiB on a second core does not repay.
POOL_MIN_FILES = 64
POOL_MIN_BYTES = 8 << 20
MAX_INDEXED_KINDS = 16


class PathError(ValueError):
    """A search path outside the searcher's root, or one that does not exist."""


class _TreeCache:
    """LRU of parsed trees; the bound is the total size of the sources they were parsed from
    (a tree costs a small multiple of its source: measured in benchmarks/bench_match.py)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[str, tuple[int, int, bytes, tree_sitter.Tree, dict[Any, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str, size: int, mtime: int) -> tuple[bytes, tree_sitter.Tree, dict[Any, Any]] | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] != size or item[1] != mtime:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[2], item[3], item[4]

    def put(self, key: str, size: int, mtime: int, source: bytes, tree: tree_sitter.Tree) -> dict[Any, Any] | None:
        """Keep a tree; returns its (empty) kind index, or None when it is too big to keep."""
        if len(source) > self.max_bytes:
            return None
        index: dict[Any, Any] = {}
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= len(old[2])
            self._items[key] = (size, mtime, source, tree, index)
            self.bytes += len(source)
            while self.bytes > self.max_bytes and self._items:
                _, evicted = self._items.popitem(last=False)
                self.bytes -= len(evicted[2])
        return index

    def __len__(self) -> int:
        return len(self._items)


class Searcher:
    """Structural search over the files under `root`, with a per-instance tree cache."""

    def __init__(
        self,
        root: Path,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        workers: int | None = None,
        pool_min_files: int = POOL_MIN_FILES,
        pool_min_bytes: int = POOL_MIN_BYTES,
    ) -> None:
        """`cache_bytes` bounds the source bytes whose trees are kept, in this process and
        (shared out) in the shard workers; `workers` is how many shard processes a large
        search fans out to (default: the number of cores, at most 4; 1 searches in-process);
        a search of fewer than `pool_min_files` files or `pool_min_bytes` bytes stays in-process."""
        self.root = Path(os.path.realpath(root))
        self.max_file_bytes = max_file_bytes
        self.cache = _TreeCache(cache_bytes)
        if workers is None:
            workers = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
        self.workers = max(1, workers)
        self.pool_min_files = pool_min_files
        self.pool_min_bytes = pool_min_bytes
        self._pool: ShardPool | None = None
        if self.workers > 1:
            # this process is shard 0; the pool runs the other workers - 1 shards
            self._pool = ShardPool(self.root, self.workers - 1, max_file_bytes=max_file_bytes, cache_bytes=cache_bytes)
            weakref.finalize(self, self._pool.close)

    def close(self) -> None:
        """Stop the shard workers, if any were started (idempotent); the cache stays usable."""
        if self._pool is not None:
            self._pool.close()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # paths ---------------------------------------------------------------------------

    def _resolve(self, path: Path) -> Path:
        p = path if path.is_absolute() else self.root / path
        real = Path(os.path.realpath(p))
        if real != self.root and self.root not in real.parents:
            raise PathError(f'path "{path}" is outside the search root {self.root}')
        if not real.exists():
            raise PathError(f'path "{path}" does not exist under {self.root}')
        return real

    def files(self, pattern: Pattern, paths: Sequence[Path] | None = None) -> list[Path]:
        """The files a search of `paths` (default: the root) would look at, in order."""
        return self._collect(pattern, paths, None)[0]

    def _collect(
        self, pattern: Pattern, paths: Sequence[Path] | None, on_many: Callable[[], None] | None
    ) -> tuple[list[Path], bool]:
        """The files, and whether they are enough work for the shard workers; `on_many` is
        called as soon as they are (so the workers boot while the walk goes on)."""
        walked = 0
        many = False
        targets = [self._resolve(Path(p)) for p in paths] if paths else [self.root]
        out: list[Path] = []
        seen: set[Path] = set()
        for target in targets:
            # a file named explicitly is searched whatever its extension or ignore rules
            found = [target] if target.is_file() else walk_files(self.root, target, pattern.language)
            for f in found:
                if f not in seen:
                    seen.add(f)
                    out.append(f)
                    if not many and on_many is not None:
                        try:
                            walked += f.stat().st_size
                        except OSError:
                            pass
                        if len(out) >= self.pool_min_files and walked >= self.pool_min_bytes:
                            many = True
                            on_many()
        return out, many

    def display(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    # search ----------------------------------------------------------------------------

    def _read(self, path: Path, size: int) -> bytes | str:
        if size > self.max_file_bytes:
            return "oversized"
        try:
            source = path.read_bytes()
        except OSError:
            return "unreadable"
        if b"\0" in source[:8192]:
            return "binary"
        try:
            source.decode("utf-8")
        except UnicodeDecodeError:
            return "non-utf8"
        return source

    def search_files(
        self, pattern: Pattern, files: Sequence[Path]
    ) -> tuple[dict[str, list[NodeMatch]], dict[str, int], int]:
        """In this process: {display path: matches} for the files that match, skip counts,
        and how many files were searched."""
        per_file: dict[str, list[NodeMatch]] = {}
        skipped: dict[str, int] = {}
        searched = 0
        for path in files:
            try:
                st = path.stat()
            except OSError:
                skipped["unreadable"] = skipped.get("unreadable", 0) + 1
                continue
            key = str(path)
            hit = self.cache.get(key, st.st_size, st.st_mtime_ns)
            index: dict[Any, Any] | None
            if hit is not None:
                source, tree, index = hit
                searched += 1
                if not _has_literals(pattern, source):
                    continue
            else:
                got = self._read(path, st.st_size)
                if isinstance(got, str):
                    skipped[got] = skipped.get(got, 0) + 1
                    continue
                searched += 1
                source = got
                # the cheap test first: a file lacking a token the pattern writes cannot match
                if not _has_literals(pattern, source):
                    continue
                tree = parser_for(pattern.language).parse(source)
                index = self.cache.put(key, st.st_size, st.st_mtime_ns, source, tree)
            if index is not None and len(index) >= MAX_INDEXED_KINDS:
                index.clear()  # bound the per-tree kind index
            display = self.display(path)
            found = _matches_in_tree(pattern, tree, source, display, index)
            if found:
                per_file[display] = found
        return per_file, skipped, searched

    def search(
        self, pattern: Pattern, paths: Sequence[Path] | None = None, *, max_results: int | None = None
    ) -> SearchResult:
        """Every match of `pattern` under `paths` (default: the whole root), files in sorted
        order, matches in pre-order; at most `max_results` kept, `total` counts them all."""
        pool = self._pool
        use_pool = pool is not None and not pool.broken
        # the workers boot while the rest of the tree is walked
        files, many = self._collect(pattern, paths, pool.start if use_pool and pool else None)
        outcome = None
        if pool is not None and use_pool and many:
            shards: list[list[Path]] = [[] for _ in range(self.workers)]
            for f in files:
                shards[shard_of(str(f), self.workers)].append(f)
            outcome = pool.run(
                pattern.source, pattern.language, shards[1:], lambda: self.search_files(pattern, shards[0])
            )
        if outcome is None:
            outcome = self.search_files(pattern, files)
        per_file, skipped, searched = outcome
        matches: list[NodeMatch] = []
        total = matched = 0
        for path in files:
            found = per_file.get(self.display(path))
            if not found:
                continue
            matched += 1
            total += len(found)
            room = len(found) if max_results is None else max(0, max_results - len(matches))
            matches.extend(found[:room])
        truncated = max_results is not None and total > len(matches)
        return SearchResult(matches, total, searched, matched, skipped, truncated)
