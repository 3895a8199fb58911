"""The workspace root of a `minitools mcp` started without ``--root`` (docs/architecture.md,
"minitools mcp"): hosts such as VS Code start a stdio server in the home folder and name the
workspace only as MCP roots. Before the first tool call, a client that declared ``roots`` is
asked for them (``roots/list``; under 2026-07-28 as the call's input_required); one root is the
workspace, of several the first (``lsp status`` says which, and of how many); with no roots the
current folder stays the root, and the first tool result says so.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

__all__ = ["root_paths", "choose_root", "same_folder"]


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
