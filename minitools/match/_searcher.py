"""Searcher: one per Run. Walks files, pre-filters on the pattern's literal tokens, parses
with a tree cache keyed by (path, size, mtime) and bounded by the source bytes it holds."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import tree_sitter

from minitools.match._pattern import Pattern, parser_for
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


class PathError(ValueError):
    """A search path outside the searcher's root, or one that does not exist."""


class _TreeCache:
    """LRU of parsed trees; the bound is the total size of the sources they were parsed from
    (a tree costs a small multiple of its source: measured in benchmarks/bench_match.py)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[str, tuple[int, int, bytes, tree_sitter.Tree]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: str, size: int, mtime: int) -> tuple[bytes, tree_sitter.Tree] | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] != size or item[1] != mtime:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[2], item[3]

    def source(self, key: str, size: int, mtime: int) -> bytes | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] != size or item[1] != mtime:
                return None
            return item[2]

    def put(self, key: str, size: int, mtime: int, source: bytes, tree: tree_sitter.Tree) -> None:
        if len(source) > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= len(old[2])
            self._items[key] = (size, mtime, source, tree)
            self.bytes += len(source)
            while self.bytes > self.max_bytes and self._items:
                _, evicted = self._items.popitem(last=False)
                self.bytes -= len(evicted[2])

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
    ) -> None:
        self.root = Path(os.path.realpath(root))
        self.max_file_bytes = max_file_bytes
        self.cache = _TreeCache(cache_bytes)

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
        return out

    def display(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    # search ----------------------------------------------------------------------------

    def parse(self, path: Path, language: str) -> tuple[bytes, tree_sitter.Tree] | str:
        """(source, tree) for a file, from the cache when fresh; else the reason it is skipped."""
        try:
            st = path.stat()
        except OSError:
            return "unreadable"
        key = str(path)
        hit = self.cache.get(key, st.st_size, st.st_mtime_ns)
        if hit is not None:
            return hit
        got = self._read(path, st.st_size)
        if isinstance(got, str):
            return got
        tree = parser_for(language).parse(got)
        self.cache.put(key, st.st_size, st.st_mtime_ns, got, tree)
        return got, tree

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

    def search(
        self, pattern: Pattern, paths: Sequence[Path] | None = None, *, max_results: int | None = None
    ) -> SearchResult:
        """Every match of `pattern` under `paths` (default: the whole root), files in sorted
        order, matches in pre-order; at most `max_results` kept, `total` counts them all."""
        matches: list[NodeMatch] = []
        total = searched = matched = 0
        skipped: dict[str, int] = {}
        for path in self.files(pattern, paths):
            try:
                st = path.stat()
            except OSError:
                skipped["unreadable"] = skipped.get("unreadable", 0) + 1
                continue
            key = str(path)
            hit = self.cache.get(key, st.st_size, st.st_mtime_ns)
            if hit is not None:
                source, tree = hit
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
                self.cache.put(key, st.st_size, st.st_mtime_ns, source, tree)
            found = _matches_in_tree(pattern, tree, source, self.display(path))
            if found:
                matched += 1
                total += len(found)
                room = len(found) if max_results is None else max(0, max_results - len(matches))
                matches.extend(found[:room])
        truncated = max_results is not None and total > len(matches)
        return SearchResult(matches, total, searched, matched, skipped, truncated)
