"""The compiled JavaScript of a TypeScript file, found on disk before node loads it.

A breakpoint given in a `.ts` line must be set in the `.js` that tsc wrote, and set before that
file runs: node compiles a CommonJS module as a function and runs it at once, so there is no
moment between `Debugger.scriptParsed` and its first line in which to place it (and V8's
"before a script with a source map runs" instrumentation pause does not fire for such modules).
So the adapter looks, once per session, through the project's `.js`/`.mjs`/`.cjs` files (not
`node_modules`, not hidden folders; at most `MAX_FILES`) for the `sourceMappingURL` comment at
their end, and reads the maps that name a `.ts` file; a breakpoint then goes by URL on each
compiled file, at the generated line and column its map gives.
"""

from __future__ import annotations

import os
import re

from minitools.inspector._scripts import url_of_path
from minitools.inspector._sourcemap import SourceMap, load_for

__all__ = ["OutFiles"]

MAX_FILES = 5000
TAIL = 4096  # bytes at a file's end searched for its sourceMappingURL comment
_MAP_COMMENT = re.compile(rb"//[#@] sourceMappingURL=(\S+)\s*$")
_SUFFIXES = (".js", ".mjs", ".cjs")


class OutFiles:
    """Compiled files under `roots`, by the original sources their maps name."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = [os.path.realpath(r) for r in dict.fromkeys(roots) if r]
        self._maps: dict[str, SourceMap] | None = None

    def _scan(self) -> dict[str, SourceMap]:
        found: dict[str, SourceMap] = {}
        seen = 0
        for root in self.roots:
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "node_modules" and not d.startswith("."))
                for name in sorted(files):
                    if not name.endswith(_SUFFIXES):
                        continue
                    seen += 1
                    if seen > MAX_FILES:
                        return found
                    path = os.path.join(folder, name)
                    if path in found:
                        continue
                    smap = _map_of(path)
                    if smap is not None:
                        found[path] = smap
        return found

    def compiled(self, source: str) -> list[tuple[str, SourceMap]]:
        """The compiled files (path, map) whose map names `source` (read on first use)."""
        if self._maps is None:
            self._maps = self._scan()
        real = os.path.realpath(source)
        return [(path, smap) for path, smap in self._maps.items() if real in smap.sources or source in smap.sources]


def _map_of(path: str) -> SourceMap | None:
    try:
        with open(path, "rb") as fh:
            fh.seek(max(os.fstat(fh.fileno()).st_size - TAIL, 0))
            tail = fh.read(TAIL)
    except OSError:
        return None
    match = _MAP_COMMENT.search(tail)
    if match is None:
        return None
    return load_for(url_of_path(path), match.group(1).decode("utf-8", "replace"))

