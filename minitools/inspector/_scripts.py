"""The scripts node has parsed, as the inspector announced them (`Debugger.scriptParsed`): where
each one is on disk, its source map, and whether it is node's own (hidden from stacks, the
`<node_internals>` of other debuggers)."""

from __future__ import annotations

import os
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minitools.inspector._sourcemap import SourceMap, load_for

__all__ = ["Scripts", "Script", "path_of_url", "url_of_path", "is_internal"]

MAX_SCRIPTS = 50_000  # a program that evaluates code in a loop parses a script each time


def path_of_url(url: str) -> str:
    """The file a script URL names (`file:///a/b.js` or node's plain `/a/b.js`), else ""."""
    if url.startswith("file://"):
        return urllib.parse.unquote(urllib.parse.urlparse(url).path)
    return url if url.startswith("/") else ""


def url_of_path(path: str) -> str:
    """The URL node gives the script at `path` (node resolves symlinks of the files it loads)."""
    return Path(os.path.realpath(path)).as_uri()


def is_internal(url: str) -> bool:
    """node's own scripts (`node:internal/...`) and the inspector's evaluations (no URL)."""
    return url.startswith("node:") or not url


@dataclass
class Script:
    id: str
    url: str
    map: SourceMap | None = None


class Scripts:
    """Scripts by id, and the source maps that name each original file."""

    def __init__(self) -> None:
        self.by_id: dict[str, Script] = {}

    def add(self, params: dict[str, Any]) -> Script | None:
        """Record a `Debugger.scriptParsed`; the script, with its map loaded when it names one."""
        ident, url = params.get("scriptId"), params.get("url")
        if not isinstance(ident, str) or not isinstance(url, str) or len(self.by_id) >= MAX_SCRIPTS:
            return None
        script = Script(ident, url)
        map_url = params.get("sourceMapURL")
        if isinstance(map_url, str) and map_url and not is_internal(url):
            script.map = load_for(url, map_url)
        self.by_id[ident] = script
        return script

    def location(self, script_id: str, line: int, column: int) -> tuple[str, int]:
        """(path, 1-based line) of a 0-based generated position, through the script's map; the
        path is "" for a script with no file."""
        script = self.by_id.get(script_id)
        if script is None:
            return "", line + 1
        if script.map is not None:
            found = script.map.original(line, column)
            if found is not None:
                return found[0], found[1] + 1
        return path_of_url(script.url), line + 1

    def mapped(self, path: str) -> list[Script]:
        """The scripts whose source map has `path` among its sources."""
        real = os.path.realpath(path)
        return [s for s in self.by_id.values() if s.map is not None and (path in s.map.sources or real in s.map.sources)]
