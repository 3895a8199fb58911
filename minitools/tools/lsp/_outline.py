"""A file's outline from its server's document symbols (docs/tools.md, "Outlines").

The server's answer is made one tree (a DocumentSymbol tree as is; a flat SymbolInformation
list nested by range containment). Under the row cap the outline is filled level by level —
every top-level entry first, then what is inside them, then deeper, and what is local to a
function or method (parameters, variables) last — and shown nested in document order, so a
module's classes and their methods are never pushed out by the locals of the first functions. An entry whose inside was cut says how many entries it hides;
`symbols` with `file` and `line` gives the outline of the entry at that line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minitools.tools._records import LocationRow

__all__ = ["CALLABLE", "Node", "symbol_tree", "enclosing", "outline_rows"]

CALLABLE = {6, 9, 12}  # SymbolKind method, constructor, function: what is inside them is local
Locate = Callable[[str, dict[str, Any]], LocationRow]  # (uri, range) -> file, line, column, text


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
    """The innermost node with entries inside it whose extent holds 0-based `line` (a
    function, not its parameter on the same line); a leaf only when no such node does."""
    for node in nodes:
        if node.start[0] <= line <= node.end[0]:
            inner = enclosing(node.children, line)
            if inner is not None and (inner.children or not node.children):
                return inner
            return node if node.children or inner is None else inner
    return None


def outline_rows(nodes: list[Node], cap: int, locate: Locate, kind: Callable[[Any], str],
                 offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """At most `cap` rows, listed nested in document order; and how many entries there are
    in all. Rows are chosen level by level, entries local to a function or method (its
    parameters and variables) after every other, the page starting `offset` entries into that
    order; a row whose inside was cut has `hidden` > 0: how many entries inside it are not
    shown and not counted by a row inside it (on the first page)."""
    ranked: list[tuple[bool, int, int, Node]] = []

    def rank(items: list[Node], depth: int, local: bool) -> None:
        for node in items:
            ranked.append((local, depth, len(ranked), node))
            rank(node.children, depth + 1, local or node.item.get("kind") in CALLABLE)

    rank(nodes, 0, False)
    ranked.sort(key=lambda r: r[:3])
    chosen = {id(r[3]) for r in ranked[offset:offset + cap]}
    rows: list[dict[str, Any]] = []

    def emit(items: list[Node], depth: int) -> None:
        for node in items:
            if id(node) not in chosen:
                emit(node.children, depth + 1)  # a later page: entries whose parent was on an earlier one
                continue
            item = node.item
            # what is inside and not shown (the inside of a child not shown is not shown either)
            hidden = sum(1 + child.size() for child in node.children if id(child) not in chosen)
            rows.append({"name": item.get("name"), "kind": kind(item.get("kind")),
                         "container": item.get("containerName"), "detail": item.get("detail"),
                         **locate(node.uri, node.selection), "depth": depth, "hidden": hidden})
            emit(node.children, depth + 1)

    emit(nodes, 0)
    return rows, len(ranked)
