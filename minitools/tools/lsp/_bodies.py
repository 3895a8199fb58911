"""A definition with its body (docs/tools.md, "lsp"): where definition, type_definition or
implementation lead to a few places, each comes with the source of the symbol there, so the
model's next call is not a file read. The body's extent is the server's: a LocationLink's target
range, else the extent of the document symbol the place names; bounded, a long body shows its
first lines, its line span and how to read the rest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from minitools.lsp import LSPClient, ServerGone, split_lines, uri_to_path
from minitools.tools.lsp._outline import Node, enclosing, symbol_tree

__all__ = ["Body", "BODY_LINES", "BODY_PLACES", "bodies", "body_of", "format_body"]

BODY_LINES = 40  # a body longer than this shows its first lines and where the rest is
BODY_PLACES = 3  # bodies are shown when a definition leads to at most this many places


class Body(TypedDict):
    file: str
    start_line: int  # 1-based, inclusive
    end_line: int
    text: str  # the lines shown
    cut: bool  # more lines than shown


async def bodies(client: LSPClient, result: Any, relpath: Callable[[Path], str]) -> list[Body]:
    """The body at each place a definition-like answer leads to (at most BODY_PLACES places)."""
    targets = _targets(result)
    if not 0 < len(targets) <= BODY_PLACES:
        return []
    out = []
    for uri, line, full in targets:
        extent = full if full is not None and full[1] > full[0] else await _symbol_extent(client, uri, line)
        if extent is None:
            continue
        found = await body_of(client, uri, extent, relpath)
        if found is not None:
            out.append(found)
    return out


def _targets(result: Any) -> list[tuple[str, int, tuple[int, int] | None]]:
    """(uri, 0-based line of the name, the full extent's lines when the server gave it)."""
    items = result if isinstance(result, list) else [result] if result else []
    out: list[tuple[str, int, tuple[int, int] | None]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("targetUri"), str):
            name = item.get("targetSelectionRange") or item.get("targetRange") or {}
            full = item.get("targetRange")
            out.append((item["targetUri"], _line(name, "start"),
                        (_line(full, "start"), _line(full, "end")) if isinstance(full, dict) else None))
        elif isinstance(item.get("uri"), str):
            out.append((item["uri"], _line(item.get("range") or {}, "start"), None))
    return out


def _line(rng: Any, end: str) -> int:
    point = rng.get(end) if isinstance(rng, dict) else None
    value = point.get("line") if isinstance(point, dict) else None
    return value if isinstance(value, int) and value >= 0 else 0


async def _symbol_extent(client: LSPClient, uri: str, line: int) -> tuple[int, int] | None:
    """The lines of the document symbol named at 0-based `line` of `uri`: the innermost whose
    name is on that line, else the innermost holding it."""
    if not client.supports("documentSymbolProvider"):
        return None
    try:
        path = uri_to_path(uri)
        if not path.is_file():
            return None
        await client.sync(path)
        answer = await client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, 10.0)
    except (OSError, ValueError, ServerGone, TimeoutError):
        return None
    except Exception:  # noqa: BLE001 - the server's error answer: no body, the locations still stand
        return None
    nodes = symbol_tree(answer, uri)
    named = _named_at(nodes, line)
    chosen = named if named is not None else enclosing(nodes, line)
    return None if chosen is None else (chosen.start[0], chosen.end[0])


def _named_at(nodes: list[Node], line: int) -> Node | None:
    """The outermost symbol named on `line` (`def add(self, item)` is the method, not its
    parameter named on the same line)."""
    for node in nodes:
        if node.start[0] <= line <= node.end[0]:
            if _line(node.selection, "start") == line:
                return node
            inner = _named_at(node.children, line)
            if inner is not None:
                return inner
    return None


async def body_of(client: LSPClient, uri: str, extent: tuple[int, int], relpath: Callable[[Path], str]) -> Body | None:
    """Lines extent[0]..extent[1] (0-based, inclusive) of the document, the first BODY_LINES."""
    path = uri_to_path(uri)
    doc = client.documents.get(uri)
    if doc is None:
        try:
            doc = await client.sync(path)
        except (OSError, ValueError, ServerGone):
            return None
    lines = split_lines(doc.text)
    first, last = extent[0], min(extent[1], len(lines) - 1)
    if first > last:
        return None
    shown = lines[first : min(last + 1, first + BODY_LINES)]
    return {"file": relpath(path), "start_line": first + 1, "end_line": last + 1, "text": "\n".join(shown),
            "cut": last + 1 - first > BODY_LINES}


def format_body(body: Body) -> str:
    """The body as the model reads it: its span, then each line with its number."""
    rows = [f"{body['start_line'] + k:>5}  {text}" for k, text in enumerate(body["text"].split("\n"))]
    head = f"{body['file']}:{body['start_line']}-{body['end_line']}:"
    if body["cut"]:
        more = body["end_line"] - body["start_line"] + 1 - BODY_LINES
        rows.append(f"      … {more} more lines (to {body['end_line']}): lsp symbols with file {body['file']} and line "
                    f"{body['start_line']} lists what is inside")
    return "\n".join([head, *rows])
