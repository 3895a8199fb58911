"""A symbol's whole extent by its server's document symbols, for `symbol_edit` (docs/tools.md,
"symbol_edit"): the lsp family publishes it as `RunContext.symbols`. The symbol is the document
symbol whose selection range (its name) holds the position, innermost first; its extent is the
symbol's range. No server for the file, or one without document symbols: None, and the parser
reads the extent instead (tools/_extent.py), as it does when the server fails to answer."""

from __future__ import annotations

import re
from pathlib import Path

from minitools.lsp import NoServer, from_lsp_column, split_lines, to_lsp_column
from minitools.tools._extent import NotADefinition, SymbolExtent
from minitools.tools.lsp._format import symbol_kind
from minitools.tools.lsp._outline import Node, symbol_tree
from minitools.tools.lsp._session import SessionPart
from minitools.toolspec import ToolError

__all__ = ["ServerExtents"]


class ServerExtents(SessionPart):
    """`SymbolService` over the session's servers."""

    async def extent(self, path: Path, text: str, line: int, column: int) -> SymbolExtent | None:
        s = self.s
        try:
            client, _notes = await s.sup.client_for(path)
        except NoServer:
            return None
        if not client.supports("documentSymbolProvider"):
            return None
        try:
            doc = await s.sync(client, path)
            answer = await s.request(client, "textDocument/documentSymbol", {"textDocument": {"uri": doc.uri}}, "symbols")
        except ToolError:  # the server failed (crashed, timed out, refused): the parser reads the extent
            return None
        if doc.text != text:
            raise ToolError(f"{s.ctx.relpath(path)} changed while it was read; nothing was staged. Call symbol_edit again.")
        lines = split_lines(text)
        at = (line, to_lsp_column(lines[line], column, client.encoding))
        word = _word_at(lines[line], column)
        node = _named_at(symbol_tree(answer, doc.uri), at, word)
        if node is None:
            raise NotADefinition(f"{client.spec.id} lists no symbol named there")

        def point(p: tuple[int, int]) -> tuple[int, int]:
            row = min(p[0], len(lines) - 1)
            return row, from_lsp_column(lines[row], p[1], client.encoding) if p[0] < len(lines) else len(lines[row])

        start, end = point(node.start), point(node.end)
        if not start[0] <= line <= end[0] or node.end[0] >= len(lines) + 1:
            return None  # an extent that does not hold its own name, or runs past the file: the parser's instead
        return SymbolExtent(start, end, str(node.item.get("name", "")), symbol_kind(node.item.get("kind")), client.spec.id)


def _named_at(nodes: list[Node], at: tuple[int, int], word: str) -> Node | None:
    """The innermost symbol whose name (selection range) holds `at`. A flat SymbolInformation
    has no selection range (its location is the whole extent): it names `at` only when it starts
    on that line and its name ends with `word`, the identifier there (a use inside a function
    would otherwise name the function)."""
    for node in nodes:
        if node.start <= at <= node.end or _holds(node.selection, at):
            inner = _named_at(node.children, at, word)
            if inner is not None:
                return inner
            flat = "selectionRange" not in node.item
            if flat and node.start[0] == at[0] and _IDENT.findall(str(node.item.get("name", "")))[-1:] == [word]:
                return node
            if not flat and _holds(node.selection, at):
                return node
    return None


_IDENT = re.compile(r"[\w$]+")


def _word_at(body: str, column: int) -> str:
    """The identifier at code-point `column` of `body` ("" when none)."""
    for match in _IDENT.finditer(body):
        if match.start() <= column < match.end():
            return match.group()
    return ""


def _holds(rng: object, at: tuple[int, int]) -> bool:
    if not isinstance(rng, dict):
        return False
    start, end = rng.get("start") or {}, rng.get("end") or {}
    try:
        return (start["line"], start["character"]) <= at <= (end["line"], end["character"])
    except (KeyError, TypeError):
        return False
