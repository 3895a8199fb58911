"""A file's outline from its server's document symbols (docs/tools.md, "Outlines").

The server's answer is made one tree (a DocumentSymbol tree as is; a flat SymbolInformation
list nested by range containment). Under the row cap the outline is filled level by level —
every top-level entry first, then what is inside them, then deeper — and shown nested in
document order, so a module's classes and functions are never pushed out by the parameters
and locals of the first few. An entry whose inside was cut says how many entries it hides;
`symbols` with `file` and `line` gives the outline of the entry at that line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Node", "symbol_tree", "enclosing", "outline_rows"]

Locate = Callable[[str, dict[str, Any]], dict[str, Any]]  # (uri, range) -> file, line, column, text


@dataclass
class Node:
    """One document symbol and what is inside it."""

    item: dict[str, Any]
    uri: str
    selection: dict[str, Any]  # the range naming it (where its row points)
    start: tuple[int, int]  # its whole extent, 0-based (line, character)
    end: tuple[int, int]
    children: list[Node] = field(default_factory=list)

    def size(self) -> int:
        """How many entries are inside it, at any depth."""
        return sum(1 + child.size() for child in self.children)


def symbol_tree(result: Any, uri: str) -> list[Node]:
    """The top-level nodes of a documentSymbol answer, children in document order."""
    items = [i for i in result if isinstance(i, dict)] if isinstance(result, list) else []
    if any("location" in i for i in items):  # SymbolInformation: nest by range containment
        flat = []
        for item in items:
            loc = item.get("location") or {}
            rng = loc.get("range") or {}
            flat.append(Node(item, loc.get("uri", uri), rng, _pos(rng.get("start")), _pos(rng.get("end"))))
        return _nest(flat)
    return sorted((_node(item, uri) for item in items), key=lambda n: n.start)


def _node(item: dict[str, Any], uri: str) -> Node:
    rng = item.get("range") or {}
    node = Node(item, uri, item.get("selectionRange") or rng, _pos(rng.get("start")), _pos(rng.get("end")))
    kids = [_node(child, uri) for child in item.get("children") or [] if isinstance(child, dict)]
    node.children = sorted(kids, key=lambda n: n.start)
    return node


def _nest(flat: list[Node]) -> list[Node]:
    roots: list[Node] = []
    stack: list[Node] = []
    for node in sorted(flat, key=lambda n: (n.start, (-n.end[0], -n.end[1]))):
        while stack and not (node.start >= stack[-1].start and node.end <= stack[-1].end):
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def _pos(value: Any) -> tuple[int, int]:
    if not isinstance(value, dict):
        return (0, 0)
    return (int(value.get("line", 0)), int(value.get("character", 0)))


def enclosing(nodes: list[Node], line: int) -> Node | None:
    """The innermost node whose extent holds 0-based `line`."""
    for node in nodes:
        if node.start[0] <= line <= node.end[0]:
            return enclosing(node.children, line) or node
    return None


def outline_rows(nodes: list[Node], cap: int, locate: Locate, kind: Callable[[Any], str]) -> tuple[list[dict[str, Any]], int]:
    """At most `cap` rows, chosen level by level and listed nested in document order; and
    how many entries there are in all. A row whose inside was cut has `hidden` > 0."""
    chosen: set[int] = set()
    level = list(nodes)
    while level and len(chosen) < cap:
        for node in level[: cap - len(chosen)]:
            chosen.add(id(node))
        level = [child for node in level if id(node) in chosen for child in node.children]
    rows: list[dict[str, Any]] = []

    def emit(items: list[Node], depth: int) -> None:
        for node in items:
            if id(node) not in chosen:
                continue
            item = node.item
            shown_inside = len(rows)
            rows.append({"name": item.get("name"), "kind": kind(item.get("kind")),
                         "container": item.get("containerName"), "detail": item.get("detail"),
                         **locate(node.uri, node.selection), "depth": depth, "hidden": 0})
            row = rows[-1]
            emit(node.children, depth + 1)
            row["hidden"] = node.size() - (len(rows) - shown_inside - 1)

    emit(nodes, 0)
    return rows, sum(1 + node.size() for node in nodes)
