"""A symbol's whole extent, for `symbol_edit` (docs/tools.md, "symbol_edit"): where the definition
named at a line and column starts and ends. The language server's answer comes through
`RunContext.symbols` (the lsp family publishes it, tools/lsp/_extent.py); where no server serves
the file, the parser's is read here.

The parser's rule: from the identifier at the position, the nearest node around it that names it
(its `name` field, or the end of its `declarator` chain, as C writes a function), that is not a
use (a call, an argument, an expression, an import); then the wrappers that belong to the
definition (Python's decorators, an `export`, a C++ template header, a Go `type` or a JavaScript
`const` of that one declaration).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tree_sitter import Node

from minitools.match import GrammarError, UnsafeSource, has_grammar, language_for_path, parse_source

__all__ = ["SymbolExtent", "SymbolService", "NoSymbolServer", "NotADefinition", "parser_extent"]

_DEPTH = 200  # ancestors looked at above the identifier
# kinds that use a name rather than define it (Java's method_invocation has a `name` field)
_USES = ("call", "invocation", "argument", "expression", "access", "import", "attribute", "reference", "pattern")
# wrappers that are part of the one definition inside them
_WRAPPERS = {"decorated_definition", "export_statement", "template_declaration", "lexical_declaration",
             "variable_declaration", "type_declaration", "const_declaration", "var_declaration"}


@dataclass(frozen=True)
class SymbolExtent:
    """A definition's whole extent: 0-based lines and code-point columns, end exclusive."""

    start: tuple[int, int]
    end: tuple[int, int]
    name: str
    kind: str  # the server's symbol kind or the parser's node kind
    by: str  # the server's id, or "parser"


class NotADefinition(Exception):
    """The symbol is on the line but no definition is named there (it is used there)."""


class SymbolService(Protocol):
    """The language server's extents (the lsp family's, tools/lsp/_extent.py)."""

    async def extent(self, path: Path, text: str, line: int, column: int) -> SymbolExtent | None:
        """The extent of the symbol named at 0-based `line`, code-point `column` of `path`,
        whose text is `text`; None when no server answers for the file (the parser's turn);
        NotADefinition when the server defines nothing there."""
        ...


class NoSymbolServer:
    """The service of a run without a language-server supervisor: every extent is the parser's."""

    async def extent(self, path: Path, text: str, line: int, column: int) -> SymbolExtent | None:
        return None


def parser_extent(path: Path, text: str, line: int, column: int) -> SymbolExtent:
    """The extent of the definition named at 0-based `line`, code-point `column` of `text` (the
    file `path`), read by the parser; NotADefinition when none is named there, LookupError
    when no grammar reads the file."""
    language = language_for_path(path)
    if language is None or not has_grammar(language):
        raise LookupError(f"no parser reads {path.name} (its language is not known by its extension)")
    source = text.encode("utf-8")
    try:
        tree = parse_source(language, source)
    except (GrammarError, UnsafeSource) as exc:
        raise LookupError(f"{path.name} cannot be parsed: {exc}") from None
    lines = text.split("\n")  # rows as tree-sitter counts them
    body = lines[line] if line < len(lines) else ""
    byte = len(body[:column].encode("utf-8"))
    ident = tree.root_node.named_descendant_for_point_range((line, byte), (line, byte))
    if ident is None:
        raise NotADefinition("no node there")
    node = ident.parent
    for _ in range(_DEPTH):
        if node is None:
            break
        if not any(word in node.type for word in _USES) and _names(node, ident):
            kind = node.type
            while node.parent is not None and node.parent.type in _WRAPPERS and node.parent.named_child_count <= 2:
                node = node.parent
            return SymbolExtent(_point(text, node.start_point), _point(text, node.end_point), _text(ident), kind, "parser")
        node = node.parent
    raise NotADefinition(f'"{_text(ident)}" is not defined there')


def _names(node: Node, ident: Node) -> bool:
    """Whether `node` names `ident`: its `name` field is it, or its `declarator` chain ends in it."""
    named = node.child_by_field_name("name")
    if named is not None and named.start_byte <= ident.start_byte and ident.end_byte <= named.end_byte:
        return True
    if node.type.endswith("declarator"):
        return False
    declarator = node.child_by_field_name("declarator")
    for _ in range(_DEPTH):
        if declarator is None:
            return False
        if declarator.start_byte == ident.start_byte and declarator.end_byte == ident.end_byte:
            return True
        declarator = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
    return False


def _point(text: str, point: tuple[int, int]) -> tuple[int, int]:
    """A tree-sitter point (byte column) as (line, code-point column)."""
    row, byte = point
    lines = text.split("\n")
    body = lines[row] if row < len(lines) else ""
    return row, len(body.encode("utf-8")[:byte].decode("utf-8", "replace"))


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")
