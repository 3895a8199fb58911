"""The lsp `symbols` action (docs/tools.md, "lsp"): a workspace search for `query` on every server
that runs (or the root's, started), exact names and declarations first; or a file's outline,
top-level entries first, and with `line` the entries inside the one at that line (its body too,
with `body`); both capped and paged."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.lsp import LSPClient
from minitools.text import page_note
from minitools.tools.lsp._actions import CAPS
from minitools.tools.lsp._bodies import body_of, format_body
from minitools.tools.lsp._format import location, symbol_kind
from minitools.tools.lsp._outline import enclosing, outline_rows, symbol_tree
from minitools.tools.lsp._servers import ServerQueries
from minitools.toolspec import ToolError, ToolResult

__all__ = ["Symbols"]

# workspace symbols: what a search usually means first (declarations of types and functions), what last
_KIND_ORDER = {kind: i for i, kind in enumerate([
    "class", "interface", "struct", "enum", "function", "method", "constructor", "module", "namespace", "package",
    "type parameter", "property", "field", "enum member", "constant", "event", "operator", "file", "variable"])}


def _rank(row: Mapping[str, Any], query: str) -> tuple[int, int, int, str, int]:
    """Exact name first (then the same name in another case, then names starting with the query),
    then by kind, shorter names, and place."""
    name = str(row.get("name") or "")
    match = 0 if name == query else 1 if name.lower() == query.lower() else 2 if name.lower().startswith(query.lower()) else 3
    return match, _KIND_ORDER.get(row.get("kind", ""), len(_KIND_ORDER)), len(name), str(row.get("file", "")), row.get("line", 0)


class Symbols(ServerQueries):
    async def symbols(self, args: Mapping[str, Any]) -> ToolResult:
        s = self.s
        query = args.get("query")
        if query is None:
            t = await s.target(args, "symbols", position="none")
            s.require(t.client, "documentSymbolProvider", "document symbols")
            result = await s.request(t.client, "textDocument/documentSymbol", {"textDocument": {"uri": t.doc.uri}}, "symbols")
            outline = self._outline(t.client, t.path, t.doc.uri, result, args.get("line"), t.notes,
                                    int(args.get("offset") or 0))
            if args.get("line") is not None and args.get("body"):
                inside = enclosing(symbol_tree(result, t.doc.uri), int(args["line"]) - 1)
                found = None if inside is None else await body_of(t.client, t.doc.uri, (inside.start[0], inside.end[0]),
                                                                   self.ctx.relpath)
                if found is not None:
                    data = outline.data if isinstance(outline.data, dict) else {}
                    outline = ToolResult(ok=True, text=f"{outline.text}\n\n{format_body(found)}",
                                         data={**data, "bodies": [found]})
            return outline
        clients: list[LSPClient] = []
        notes: list[str] = []
        if args.get("file"):
            client, notes = await s.client(s.path_arg(args, "symbols"))
            clients = [client]
        else:
            clients = self.sup.running() or await self.servers.start_for_root()
        if not clients:
            raise ToolError(f'no language server is usable at the workspace root to search for "{query}"; '
                            "give `file` too, so the server for that file starts, or see lsp status.")
        rows = []
        servers = []
        for client in clients:
            if not client.supports("workspaceSymbolProvider"):
                notes.append(f"{client.spec.id} does not support workspace symbol search.")
                continue
            servers.append(client.spec.id)
            await s.sync_quietly(client)
            await self.servers.make_ready(client)
            await self.servers.wait_index(client)
            result = await s.request(client, "workspace/symbol", {"query": query}, "symbols")
            notes += self.servers.incomplete(client)
            cache: dict[Path, list[str]] = {}
            for item in result or []:
                loc = item.get("location") or {}
                rng = loc.get("range") or {"start": {"line": 0, "character": 0}}
                place = location(client, self.ctx.relpath, loc.get("uri", ""), rng, cache) if loc.get("uri") else None
                rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")),
                             "container": item.get("containerName"), **(place or {}), "depth": 0})
        if not servers:
            raise ToolError(" ".join(notes) + " Use symbols with `file` for one file's outline instead.")
        kind = args.get("kind")
        if kind:
            rows = [r for r in rows if r["kind"] == kind]
        rows.sort(key=lambda r: _rank(r, str(query)))
        return self._symbol_result(", ".join(servers), rows, CAPS["workspace_symbols"],
                                   f'workspace symbols matching "{query}"', notes,
                                   incomplete=any(c.progress.busy for c in clients), offset=int(args.get("offset") or 0))

    def _outline(self, client: LSPClient, path: Path, uri: str, result: Any, line: int | None,
                 notes: list[str], offset: int = 0) -> ToolResult:
        rel = self.ctx.relpath(path)
        nodes = symbol_tree(result, uri)
        title = f"symbols in {rel}"
        if line is not None:
            inside = enclosing(nodes, line - 1)
            if inside is None:
                raise ToolError(f"no symbol of {rel} spans line {line} ({client.spec.id} lists {len(nodes)} top-level "
                                "entries); call symbols with `file` alone for the outline.")
            nodes = [inside]
            title = f"symbols in {rel} inside {inside.item.get('name')} (line {line})"
        cache: dict[Path, list[str]] = {}
        rows, total = outline_rows(nodes, CAPS["document_symbols"],
                                   lambda u, rng: location(client, self.ctx.relpath, u, rng, cache), symbol_kind, offset)
        return self._symbol_result(client.spec.id, rows, CAPS["document_symbols"], title, notes, total=total,
                                   offset=offset, chosen=True)

    def _symbol_result(self, server: str, rows: list[dict[str, Any]], cap: int, title: str, notes: list[str],
                       total: int | None = None, incomplete: bool = False, offset: int = 0,
                       chosen: bool = False) -> ToolResult:
        # an outline passes its page of rows already `chosen` (total counts every entry); a search, all
        total = len(rows) if total is None else total
        shown = rows if chosen else rows[offset:offset + cap]
        hidden = sum(row.get("hidden", 0) for row in shown)
        more = page_note(total, offset, len(shown))
        if hidden and offset == 0:
            head = f", showing {len(shown)}: top-level entries first, locals last" + (f"; offset {len(shown)} for the next" if more else "")
        else:
            head = f"; {more}" if more else ""
        lines = [f"{title} ({total}{head})"]
        for row in shown:
            where = f"  {row['file']}:{row['line']}" if row.get("file") else ""
            container = f"  (in {row['container']})" if row.get("container") else ""
            more = f"  (+{row['hidden']} inside)" if row.get("hidden") else ""
            lines.append(f"{'  ' * row.get('depth', 0)}{row['kind']} {row['name']}{where}{container}{more}")
        if hidden and offset == 0:
            lines.append(f"{total - len(shown)} more entries are inside those marked +N; symbols with `file` and the "
                         "`line` of an entry lists everything inside it, offset the next page.")
        if not shown:
            lines = [f"{server} found no {title}."]
        return ToolResult(ok=True, text="\n".join(notes + lines),
                          data={"server": server, "symbols": shown, "total": total, "offset": offset,
                                "truncated": offset + len(shown) < total, "incomplete": incomplete})
