"""The lsp query actions: definition, type_definition, implementation, references, hover,
symbols (a workspace search or a file's outline), code_actions and status (docs/tools.md)."""

from __future__ import annotations

import os
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from minitools.lsp import LSPClient, NoServer, ServerGone, path_to_uri, project_roots, split_lines, to_lsp_column
from minitools.progress import ProgressState, progress_from
from minitools.text import page_note
from minitools.tools.lsp._actions import NAVIGATION
from minitools.tools.lsp._bodies import Body, bodies, body_of, format_body
from minitools.tools.lsp._format import hover_text, location, locations, symbol_kind
from minitools.tools.lsp._outline import enclosing, outline_rows, symbol_tree
from minitools.tools.lsp._session import LSPSession, Target
from minitools.toolspec import ToolError, ToolResult

__all__ = ["LSPQueries", "CAPS", "HIERARCHIES"]

METHOD_NOT_FOUND = -32601  # JSON-RPC: the server has no such method

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

class Hierarchy(NamedTuple):
    """One hierarchy action: the capability and requests it takes, and how its answer reads."""

    capability: str
    what: str  # the feature, as a refusal names it
    prepare: str
    method: str
    peer: str | None  # the key of each answer entry that holds the item ("from", "to"), None: the entry is it
    label: str  # "callers", "supertypes", ...
    title: str  # "callers of", "calls from", ...
    key: str  # its rows' key in `data`
    subject: str
    hint: str
    instead: str  # what to ask when the server lacks the method


_CALLS = ("callHierarchyProvider", "call hierarchy", "textDocument/prepareCallHierarchy")
_TYPES = ("typeHierarchyProvider", "type hierarchy", "textDocument/prepareTypeHierarchy")
HIERARCHIES = {
    "incoming_calls": Hierarchy(*_CALLS, "callHierarchy/incomingCalls", "from", "callers", "callers of", "callers",
                                "function or method", "a function's name (its definition or a call)",
                                "outgoing_calls and references work from the same place"),
    "outgoing_calls": Hierarchy(*_CALLS, "callHierarchy/outgoingCalls", "to", "calls", "calls from", "calls",
                                "function or method", "a function's name (its definition or a call)",
                                "incoming_calls and references work from the same place"),
    "supertypes": Hierarchy(*_TYPES, "typeHierarchy/supertypes", None, "supertypes", "supertypes of", "supertypes",
                            "class or type", "a type's name (its definition or a use)",
                            "definition and hover name what a type extends"),
    "subtypes": Hierarchy(*_TYPES, "typeHierarchy/subtypes", None, "subtypes", "subtypes of", "subtypes",
                          "class or type", "a type's name (its definition or a use)",
                          "implementation and references find what extends a type"),
}
WITH_BODIES = ("definition", "type_definition", "implementation")  # answers shown with the symbol's source
CAPS = {"references": 50, "workspace_symbols": 100, "document_symbols": 200, "code_actions": 50}


class LSPQueries:
    def __init__(self, session: LSPSession) -> None:
        self.s = session
        self.ctx = session.ctx
        self.sup = session.sup
        # a project-wide query waits for a server's index (its work in progress) once per
        # server, bounded: later ones answer at once, marked incomplete while it still works
        self.index_timeout = float(self.ctx.option("lsp_index_timeout", 30.0))
        self._index_waited: weakref.WeakSet[LSPClient] = weakref.WeakSet()

    async def navigate(self, action: str, args: Mapping[str, Any]) -> ToolResult:
        s = self.s
        t = await s.target(args, action)
        client, doc, line, at = t.client, t.doc, t.line, t.resolved
        method, capability = NAVIGATION[action]
        s.require(client, capability, action.replace("_", " "))
        params: dict[str, Any] = {"textDocument": {"uri": doc.uri}, "position": t.position}
        if action == "references":
            params["context"] = {"includeDeclaration": True}
        if action != "hover":
            await self._wait_index(client)
        result = await s.request(client, method, params, action)
        notes = t.notes + ([at.note(line)] if at.note(line) else [])
        where = f'"{at.name}" at {t.rel}:{line}:{at.column + 1}'
        place = {"line": line, "column": at.column + 1, "name": at.name, "occurrence": at.occurrence, "of": at.occurrences}
        if action == "hover":
            text = hover_text(result)
            if not text:
                return ToolResult(ok=True, text="\n".join(notes + [f"{client.spec.id} has no hover information for {where}."]),
                                  data={"server": client.spec.id, "hover": None, "position": place})
            return ToolResult(ok=True, text="\n".join(notes + [text[:6000]]),
                              data={"server": client.spec.id, "hover": text, "position": place})
        notes += self._incomplete(client)
        found = locations(client, self.ctx.relpath, result)
        await self._track(client, found)
        total = len(found)
        cap = CAPS["references"] if action == "references" else 200
        offset = int(args.get("offset") or 0)
        shown = found[offset:offset + cap]
        label = action.replace("_", " ")
        if not found:
            body = f"{client.spec.id} found no {label} for {where}."
        else:
            more = page_note(total, offset, len(shown))
            head = f"{label} of {where} ({total}" + (f"; {more})" if more else ")")
            body = "\n".join([head] + [f"{loc['file']}:{loc['line']}: {loc['text']}" for loc in shown])
        sources: list[Body] = []
        if action in WITH_BODIES and found and args.get("body", True):
            sources = await bodies(client, result, self.ctx.relpath)  # the symbol's source: no file read next
            body = "\n\n".join([body, *(format_body(b) for b in sources)])
        return ToolResult(ok=True, text="\n".join(notes + [body]),
                          data={"server": client.spec.id, "locations": shown, "total": total, "offset": offset,
                                "truncated": offset + len(shown) < total, "position": place,
                                "incomplete": client.progress.busy, "bodies": sources})

    async def hierarchy(self, action: str, args: Mapping[str, Any]) -> ToolResult:
        """`incoming_calls` (who calls the symbol, at which line), `outgoing_calls` (what it calls),
        `supertypes` and `subtypes` (what the type extends, what extends it), through the server's
        call or type hierarchy (HIERARCHIES); capped and paged like references."""
        s = self.s
        h = HIERARCHIES[action]
        t = await s.target(args, action)
        client, line, at = t.client, t.line, t.resolved
        s.require(client, h.capability, h.what)
        await self._wait_index(client)
        where = f'"{at.name}" at {t.rel}:{line}:{at.column + 1}'

        async def ask(method: str, params: dict[str, Any]) -> Any:
            try:
                return await s.request(client, method, params, action)
            except ToolError as exc:  # a server may offer the capability and lack a method (clangd 14)
                if not (isinstance(exc.data, dict) and exc.data.get("code") == METHOD_NOT_FOUND):
                    raise
                raise ToolError(f"{client.spec.id} does not answer {action} (it has no {method}); {h.instead}.",
                                data=exc.data) from None

        items = await ask(h.prepare, {"textDocument": {"uri": t.doc.uri}, "position": t.position}) or []
        if not isinstance(items, list) or not items:
            raise ToolError(f"{client.spec.id} finds no {h.subject} at {where} to list {h.label} of; put `line` "
                            f"and `symbol` on {h.hint}.")
        cache: dict[Path, list[str]] = {}
        rows: list[dict[str, Any]] = []
        answered = [await ask(h.method, {"item": item}) or [] for item in items[:1]]  # one place
        for found in answered:
            for entry in found if isinstance(found, list) else []:
                if not isinstance(entry, dict):
                    continue
                peer = (entry.get(h.peer) or {}) if h.peer else entry
                # incoming: where the caller calls it (fromRanges are in its file); else where the peer is named
                uri = peer.get("uri", "")
                rng = (entry.get("fromRanges") or [peer.get("selectionRange") or {}])[0] if h.peer == "from" else (
                    peer.get("selectionRange") or peer.get("range") or {})
                place = location(client, self.ctx.relpath, uri, rng, cache) if isinstance(uri, str) and uri else None
                rows.append({"name": peer.get("name"), "kind": symbol_kind(peer.get("kind")),
                             "detail": peer.get("detail"), "calls": len(entry.get("fromRanges") or []), **(place or {})})
        rows.sort(key=lambda r: (r.get("file", ""), r.get("line", 0)))
        notes = t.notes + ([at.note(line)] if at.note(line) else []) + self._incomplete(client)
        cap, offset = CAPS["references"], int(args.get("offset") or 0)
        shown = rows[offset:offset + cap]
        if not rows:
            body = f"{client.spec.id} found no {h.title} {where}."
        else:
            more = page_note(len(rows), offset, len(shown))
            head = f"{h.title} {where} ({len(rows)}" + (f"; {more})" if more else ")")
            body = "\n".join([head] + [
                f"{r.get('file')}:{r.get('line')}: {r['kind']} {r['name']}" + (f" ({r['calls']} calls)" if r["calls"] > 1 else "")
                + (f"  | {r['text']}" if r.get("text") else "") for r in shown])
        return ToolResult(ok=True, text="\n".join(notes + [body]),
                          data={"server": client.spec.id, h.key: shown, "total": len(rows), "offset": offset,
                                "truncated": offset + len(shown) < len(rows)})

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
            clients = self.sup.running() or await self.start_for_root()
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
            await self.make_ready(client)
            await self._wait_index(client)
            result = await s.request(client, "workspace/symbol", {"query": query}, "symbols")
            notes += self._incomplete(client)
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

    async def offered(self, args: Mapping[str, Any], action: str) -> tuple[Target, list[dict[str, Any]], list[dict[str, Any]]]:
        """The code actions the server offers at `line` (narrowed to `symbol`'s text when given),
        for the diagnostics current on that line: (target, actions as the server sent them, diagnostics)."""
        s = self.s
        t = await s.target(args, action, position="line")
        client, doc, line, at = t.client, t.doc, t.line, t.at
        s.require(client, "codeActionProvider", "code actions")
        # quick fixes are offered for the diagnostics we pass: make sure they are current
        await s.fresh_diagnostics(client, doc, t.mark)
        body = split_lines(doc.text)[line - 1]
        end_col = len(body)
        if at is not None:  # the text the symbol covers on the line
            start = {"line": line - 1, "character": to_lsp_column(body, at.start, client.encoding)}
            end_col = at.end
        else:
            start = {"line": line - 1, "character": 0}
        end = {"line": line - 1, "character": to_lsp_column(body, end_col, client.encoding)}
        on_line = [d for d in client.diagnostics.get(doc.uri, [])
                   if d.get("range", {}).get("start", {}).get("line", -1) <= line - 1 <= d.get("range", {}).get("end", {}).get("line", -1)]
        params = {"textDocument": {"uri": doc.uri}, "range": {"start": start, "end": end},
                  "context": {"diagnostics": on_line, "triggerKind": 1}}
        effect = "not applied; nothing was staged" if action == "lsp_code_action" else "not used"
        result = await s.request(client, "textDocument/codeAction", params, action, effect=effect) or []
        return t, [item for item in result if isinstance(item, dict)], on_line

    async def code_actions(self, args: Mapping[str, Any]) -> ToolResult:
        t, result, on_line = await self.offered(args, "code_actions")
        client, line = t.client, t.line
        symbol = args.get("symbol") or ""
        actions = []
        for item in result[: CAPS["code_actions"]]:
            is_command = isinstance(item.get("command"), str)
            actions.append({"title": item.get("title"), "kind": None if is_command else item.get("kind"),
                            "preferred": bool(item.get("isPreferred")), "has_edit": "edit" in item,
                            "command_only": is_command or ("edit" not in item and "command" in item and "data" not in item),
                            "fixes": [d.get("message") for d in item.get("diagnostics", [])]})
        where = f"{t.rel}:{line}" + (f' ("{symbol}")' if symbol else "")
        if not actions:
            text = f"{client.spec.id} offers no code actions at {where}."
        else:
            text = "\n".join([f"code actions at {where} ({len(result)}; lsp_code_action applies one by number or title)"] +
                             [f"{i}. {a['title']}" + (f" [{a['kind']}]" if a["kind"] else "") + (" (preferred)" if a["preferred"] else "")
                              + (" (a server command)" if a["command_only"] else "")
                              for i, a in enumerate(actions, 1)])
        return ToolResult(ok=True, text="\n".join(t.notes + [text]),
                          data={"server": client.spec.id, "actions": actions, "diagnostics": on_line, "total": len(result)})

    def status(self) -> ToolResult:
        status = self.sup.status()
        origin = self.ctx.option("root_origin", None)
        lines = [f"workspace root: {self.ctx.root}" + (f" ({origin})" if origin else "")]
        for lang, rows in status["languages"].items():
            lines.append(f"{lang}:")
            for row in rows:
                root = f" root {row['root']}" if row["root"] else ""
                lines.append(f"  {row['server']}: {row['state']}{root} — {row['reason']}")
        running = status["running"]
        lines.append("running: " + (", ".join(f"{r['server']} for {r['root']} (pid {r['pid']}"
                                             + (f", {r['working']})" if r.get("working") else ")") for r in running) or "none"))
        return ToolResult(ok=True, text="\n".join(lines), data=status)

    # Steps --------------------------------------------------------------------------

    async def _wait_index(self, client: LSPClient) -> None:
        announces = client.spec.announces_index  # its index begins only after it first answers
        if client in self._index_waited or not (client.progress.busy or (announces and not client.progress.seen)):
            return
        self._index_waited.add(client)
        with progress_from(lambda: _indexing(client)):
            if announces:
                await client.wait_begun(announces)
            await client.wait_idle(self.index_timeout)

    def _incomplete(self, client: LSPClient) -> list[str]:
        """The note for an answer given while the server still works (its index being built)."""
        if not client.progress.busy:
            return []
        return [f"{client.spec.id} is still {client.progress.describe()}: this answer may be incomplete; "
                "ask again when it is done (lsp status shows its progress)."]

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

    async def _track(self, client: LSPClient, rows: Sequence[Mapping[str, Any]]) -> None:
        # Open the files a result points into, so that the next query re-syncs them if
        # something else rewrites them: a server that only read a file from disk keeps its
        # cached copy (no answer computed on stale text).
        for rel in dict.fromkeys(r["file"] for r in rows if r.get("file")):
            path = self.ctx.root / rel
            if not path.is_file() or (path.is_absolute() and self.ctx.root not in path.resolve().parents):
                continue
            if path_to_uri(path) not in client.documents and len(client.documents) < 200:
                try:
                    await client.sync(path)
                except (OSError, ServerGone):
                    return

    async def make_ready(self, client: LSPClient) -> None:
        # A workspace query has no document to wait on: open one source file of the server's
        # language (a shallow, bounded walk) and wait for its first publish — the readiness
        # signal (LSPClient.wait_ready) — or the server answers before it has indexed anything.
        if client.ready:
            return
        seen = 0
        for dirpath, dirnames, filenames in os.walk(client.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "venv", "__pycache__", "build"))
            for name in sorted(filenames):
                if os.path.splitext(name)[1] in client.spec.extensions:
                    try:
                        doc = await client.sync(Path(dirpath) / name)
                        await client.wait_ready(doc, self.s.ready_timeout)
                    except (OSError, ServerGone):
                        pass
                    return
            seen += len(filenames)
            if seen > 5000:
                return

    async def start_for_root(self) -> list[LSPClient]:
        """Start the server of each language whose project is at the root or in the folders
        below it (a monorepo's sub-projects); the servers that started."""
        clients = []
        catalog = self.sup.catalog
        for lang in catalog.languages:
            spec = next(s for s in catalog.specs if lang in s.languages)
            # the language's projects: at the root, or each sub-project of a monorepo; a server
            # without root markers (YAML, JSON, ...) has no project to find and starts on its first query
            for root in project_roots(self.ctx.root, spec.root_markers) if spec.root_markers else ():
                probe = root / f"__probe__{spec.extensions[0]}"
                if catalog.language_of(probe) != lang:
                    break
                try:
                    client, _ = await self.sup.client_for(probe)
                except NoServer:
                    continue
                if client not in clients:
                    clients.append(client)
        return clients

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


def _indexing(client: LSPClient) -> ProgressState | None:
    """What a server the call waits for is still doing ("indexing 5/13"), with its percentage."""
    doing = client.progress.describe()
    if not doing:
        return None
    percent = next((w.percentage for w in client.progress.active.values() if w.percentage is not None), None)
    return (f"waiting for {client.spec.id}: {doing}", percent, None if percent is None else 100)
