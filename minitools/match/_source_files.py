"""How a search reads its files, and the trees it keeps: a file's bytes read with plain
descriptors and refused for what a search skips (too large, unreadable, binary, not UTF-8), and
an LRU of parsed trees bounded by the size of their sources (`Searcher`, `_many_files.py`)."""

from __future__ import annotations

import _thread
import os
from collections import OrderedDict
from typing import Any

import tree_sitter

__all__ = ["SourceReader", "TreeCache"]


class TreeCache:
    """LRU of parsed trees; the bound is the total size of the sources they were parsed from
    (a tree costs a small multiple of its source: measured in benchmarks/bench_match.py)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[str, tuple[int, int, bytes, tree_sitter.Tree, dict[Any, Any]]] = OrderedDict()
        self._lock = _thread.allocate_lock()
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


class SourceReader:
    """Reads a search's files; a file over `max_file_bytes` is "oversized"."""

    def __init__(self, max_file_bytes: int) -> None:
        self.max_file_bytes = max_file_bytes

    def read(self, path: str, size: int) -> bytes | str:
        """A file's bytes (its size taken before), or why a search skips it: "oversized",
        "unreadable", "binary" (a NUL in its first 8 KiB), "non-utf8"."""
        if size > self.max_file_bytes:
            return "oversized"
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return "unreadable"
        try:
            return self.read_open(fd, size)
        finally:
            os.close(fd)

    def read_open(self, fd: int, size: int) -> bytes | str:
        # plain descriptors: a buffered file object costs twice the system calls, which on
        # a cold search of many small files is a tenth of the time
        try:
            chunks = [os.read(fd, size + 1)]
            total = len(chunks[0])
            # a short read, or a file that grew since its size was taken: on to its end
            while chunks[-1] and total != size and total <= self.max_file_bytes:
                chunks.append(os.read(fd, 1 << 20))
                total += len(chunks[-1])
        except OSError:
            return "unreadable"
        if total > self.max_file_bytes:
            return "oversized"
        source = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if b"\0" in source[:8192]:
            return "binary"
        try:
            source.decode("utf-8")
        except UnicodeDecodeError:
            return "non-utf8"
        return source

    def read_fresh(self, path: str) -> bytes | str:
        """A file's bytes (or why it is skipped) without a look at the tree cache: one
        open, fstat and read."""
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return "unreadable"
        try:
            size = os.fstat(fd).st_size
            return "oversized" if size > self.max_file_bytes else self.read_open(fd, size)
        except OSError:
            return "unreadable"
        finally:
            os.close(fd)

    def read_source(self, path: str) -> bytes | None:
        """A file's bytes as a search reads them; None when a search would skip it."""
        try:
            size = os.stat(path).st_size
        except OSError:
            return None
        got = self.read(path, size)
        return None if isinstance(got, str) else got
