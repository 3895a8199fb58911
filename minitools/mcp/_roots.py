"""The workspace root of a `minitools mcp` started without ``--root`` (docs/architecture.md,
"minitools mcp"): hosts such as VS Code start a stdio server in the home folder and name the
workspace only as MCP roots. Before the first tool call, a client that declared ``roots`` is
asked for them (``roots/list``; under 2026-07-28 as the call's input_required); one root is the
workspace, of several the first (``lsp status`` says which, and of how many); with no roots the
current folder stays the root, and the first tool result says so.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from minitools.run import Run

__all__ = ["Workspace", "root_paths", "choose_root", "same_folder"]


def root_paths(answer: Any) -> list[str]:
    """The folders of a ``roots/list`` result that exist here (``file:`` URIs only)."""
    roots = answer.get("roots") if isinstance(answer, dict) else None
    found: list[str] = []
    for root in roots if isinstance(roots, list) else []:
        uri = root.get("uri") if isinstance(root, dict) else None
        if not isinstance(uri, str):
            continue
        parsed = urlparse(uri)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            continue
        path = unquote(parsed.path)
        if os.path.isdir(path):
            found.append(path)
    return found


def choose_root(roots: list[str], cwd: str, why_none: str) -> tuple[str, str]:
    """The root to serve and what to say of where it came from."""
    if not roots:
        return cwd, (f"the current folder {cwd}: no --root was given and {why_none}; start minitools mcp with "
                     "--root to serve another folder")
    if len(roots) == 1:
        return roots[0], "the client's root (no --root was given)"
    others = ", ".join(roots[1:4]) + (f" and {len(roots) - 4} more" if len(roots) > 4 else "")
    return roots[0], (f"the first of the client's {len(roots)} roots (no --root was given; not served: {others}); "
                      "start minitools mcp with --root to choose another")


def same_folder(a: str | Path, b: str | Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


class Workspace:
    """The Run a server serves: made at `root`, or without one at the current folder until the
    client's roots settle it (`settle`). `make(path, origin)` makes a Run at `path` (origin: None
    for --root or the current folder, else where among the client's roots it came from); `ask`
    asks the client (``roots/list``); `capabilities` are those the client declared."""

    def __init__(self, make: Callable[[str, str | None], Run], root: str | None,
                 ask: Callable[[str, Mapping[str, Any]], Awaitable[Any]],
                 capabilities: Callable[[], Mapping[str, Any]]) -> None:
        self.make = make
        self.ask = ask
        self.capabilities = capabilities
        self.settled = root is not None
        self._rooting = asyncio.Lock()
        self.run = make(root if root is not None else ".", None)

    async def settle(self) -> str | None:
        """Without --root: ask a client that declared roots for them, and serve the first (the
        current folder when there are none). What to tell the first call, once."""
        if self.settled:
            return None
        async with self._rooting:
            if self.settled:
                return None
            why_none = "the client declared no roots"
            roots: list[str] = []
            if isinstance(self.capabilities().get("roots"), dict):
                try:
                    roots = root_paths(await self.ask("roots/list", {}))
                    why_none = "the client's roots name no folder here"
                except Exception as exc:  # noqa: BLE001 - a client that cannot list its roots: the current folder
                    why_none = f"the client's roots could not be read ({exc})"
            current = self.run.root
            path, origin = choose_root(roots, str(current), why_none)
            if not same_folder(path, current) or roots:
                try:
                    made = self.make(path, origin if roots else None)
                except ValueError as exc:  # the root's configuration file is invalid: the current folder stays
                    self.settled = True
                    return f"{current} (the client's root {path} was not served: {exc}; fix the file and restart)"
                old, self.run = self.run, made
                await old.close()
                self.run.warm_up()
            self.settled = True
            return None if roots else origin
