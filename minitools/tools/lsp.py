"""The "lsp" family: `lsp` (read tier: queries) and `lsp_rename` (write tier), and the
write-time diagnostics service (``ctx.services["diagnostics"]``) that `Run.written` and
`Run.wrap` call.

Positions are a 1-based `line` plus a `symbol` substring, never a column (SPEC.md): a
guessed column resolves to another symbol on the same line and looks right.
Options (``Run(root, **options)``): `lsp_timeout` (seconds per request, 30),
`lsp_init_timeout` (30), `lsp_diagnostics_timeout` (seconds to wait for a push, 8),
`lsp_diagnostics_quiet` (quiet period after the last push, 0.6), `lsp_ready_timeout` (the wait
for a new server's first publish, its only readiness signal, 10), `lsp_diagnostics_cap`
(per file, 20), `lsp_checker_timeout` (120), `lsp_path` (extra directories searched for
server binaries), `lsp_servers` (``{"python": ["pylsp"]}``: candidates to use, in order).
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minitools.lsp import (
    split_lines,
    CATALOG,
    EditError,
    LSPClient,
    NoServer,
    Supervisor,
    apply_plan,
    from_lsp_column,
    language_of,
    path_to_uri,
    plan_workspace_edit,
    to_lsp_column,
    uri_to_path,
)
from minitools.protocol import ProtocolError
from minitools.tools._context import RunContext
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec
from minitools.transport import ConnectionClosed, RPCError

__all__ = ["build"]

ACTIONS = ("diagnostics", "definition", "type_definition", "implementation", "references", "hover", "symbols",
           "code_actions", "status", "reload")
NAVIGATION = {  # action -> (LSP method, capability)
    "definition": ("textDocument/definition", "definitionProvider"),
    "type_definition": ("textDocument/typeDefinition", "typeDefinitionProvider"),
    "implementation": ("textDocument/implementation", "implementationProvider"),
    "references": ("textDocument/references", "referencesProvider"),
    "hover": ("textDocument/hover", "hoverProvider"),
}
CAPS = {"references": 50, "workspace_symbols": 100, "document_symbols": 200, "code_actions": 50, "diagnostics": 100}
SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
SYMBOL_KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor",
                "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array",
                "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"]
_WORD = re.compile(r"\w", re.UNICODE)

LSP_SPEC = ToolSpec(
    name="lsp",
    tier=Tier.READ,
    description=(
        "Ask the project's language server. Positions are a 1-based `line` plus a `symbol` substring of that "
        "line (never a column). Actions: diagnostics (file, or \"*\" for the project checker), definition, "
        "type_definition, implementation, references (cap 50), hover, symbols (`query` for a workspace search, "
        "cap 100; or `file` for its outline, cap 200), code_actions, status (which servers run and why not), "
        "reload (restart the servers). Results are path:line with the line's text."
    ),
    parameters={
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": list(ACTIONS), "description": "What to ask the server."},
            "file": {"type": "string", "description": "File the question is about, relative to the workspace root; "
                     "\"*\" with diagnostics runs the whole-project checker."},
            "line": {"type": "integer", "minimum": 1, "description": "1-based line number in `file`."},
            "symbol": {"type": "string", "minLength": 1, "description": "Text on `line` that names the symbol "
                       "(e.g. the identifier); required by definition, type_definition, implementation, references, hover."},
            "query": {"type": "string", "description": "Name (or part of one) to search the workspace for, with symbols."},
        },
        "required": ["action"],
        "additionalProperties": False,
    },
)

RENAME_SPEC = ToolSpec(
    name="lsp_rename",
    tier=Tier.WRITE,
    description=(
        "Rename a symbol across the project through the language server, all files or none. Give the file, "
        "the 1-based line and a substring of that line naming the symbol, and the new name. Reports every "
        "file changed and its edit count, plus any new diagnostics."
    ),
    parameters={
        "type": "object",
        "properties": {
            "file": {"type": "string", "description": "File where the symbol appears, relative to the workspace root."},
            "line": {"type": "integer", "minimum": 1, "description": "1-based line number where the symbol appears."},
            "symbol": {"type": "string", "minLength": 1, "description": "Substring of that line naming the symbol."},
            "new_name": {"type": "string", "minLength": 1, "description": "The new name."},
        },
        "required": ["file", "line", "symbol", "new_name"],
        "additionalProperties": False,
    },
    parallel_safe=False,
)


def build(ctx: RunContext) -> list[Tool]:
    """The `lsp` and `lsp_rename` tools, over a lazily started supervisor (no process starts here)."""

    def factory() -> Supervisor:
        extra = [Path(p) for p in ctx.option("lsp_path", [])]
        return Supervisor(ctx.root, tracer=ctx.trace, search_path=extra, prefer=ctx.option("lsp_servers", None),
                          init_timeout=float(ctx.option("lsp_init_timeout", 30.0)))

    supervisor = ctx.resource("lsp", factory)
    if supervisor is None:
        return []
    family = _LSPFamily(ctx, supervisor)
    ctx.on_close(supervisor.close)
    ctx.services["diagnostics"] = family.written
    return [Tool(LSP_SPEC, family.lsp), Tool(RENAME_SPEC, family.rename)]


class _LSPFamily:
    def __init__(self, ctx: RunContext, supervisor: Supervisor) -> None:
        self.ctx = ctx
        self.sup = supervisor
        self.timeout = float(ctx.option("lsp_timeout", 30.0))
        self.diag_timeout = float(ctx.option("lsp_diagnostics_timeout", 8.0))
        self.diag_quiet = float(ctx.option("lsp_diagnostics_quiet", 0.6))
        self.diag_cap = int(ctx.option("lsp_diagnostics_cap", 20))
        self.ready_timeout = float(ctx.option("lsp_ready_timeout", 10.0))
        # write-time ledger: file -> Counter of (severity, code, message) last reported (issue 6)
        self.ledger: dict[str, Counter[tuple[Any, Any, str]]] = {}

    # Entry points ---------------------------------------------------------------------

    async def lsp(self, args: Mapping[str, Any]) -> ToolResult:
        action = args["action"]
        if action == "status":
            return self._status()
        if action == "reload":
            stopped = await self.sup.reload()
            what = ", ".join(stopped) if stopped else "no server was running"
            return ToolResult(ok=True, text=f"reloaded: stopped {what}; servers start again on the next query.",
                              data={"stopped": stopped})
        if action == "diagnostics":
            if args.get("file") == "*":
                return await self._checker()
            return await self._diagnostics(args)
        if action == "symbols":
            return await self._symbols(args)
        if action == "code_actions":
            return await self._code_actions(args)
        return await self._navigate(action, args)

    async def rename(self, args: Mapping[str, Any]) -> ToolResult:
        path = self._file(args, "lsp_rename")
        client, notes = await self._client(path)
        doc = await self._sync(client, path)
        line, position, symbol = self._position(client, doc.text, path, args, "lsp_rename")
        self._require(client, "renameProvider", "rename")
        params = {"textDocument": {"uri": doc.uri}, "position": position, "newName": args["new_name"]}
        edit = await self._request(client, "textDocument/rename", params, "rename")
        where = f"{self.ctx.relpath(path)}:{line}"
        if not edit or not (edit.get("changes") or edit.get("documentChanges")):
            raise ToolError(f'{client.spec.id} produced no edits renaming "{symbol}" at {where} to "{args["new_name"]}"; '
                            "nothing was changed. Check that the symbol is something renameable (lsp hover shows what it is).",
                            data={"server": client.spec.id, "edit": edit})
        versions = {d.uri: d.version for d in client.documents.values()}
        try:
            plan = plan_workspace_edit(edit, client.encoding, top=self.ctx.root, versions=versions)
            for change in plan:
                open_doc = client.documents.get(path_to_uri(change.path))
                if open_doc is not None and change.before is not None and open_doc.text != change.before:
                    raise EditError(f"{change.path.name} changed on disk after the server read it")
            if not plan:
                raise EditError("the server's edit changes nothing")
            apply_plan(plan)
        except EditError as exc:
            raise ToolError(f'rename of "{symbol}" at {where} to "{args["new_name"]}" was not applied: {exc}. '
                            "No file was written; call lsp_rename again.", data={"server": client.spec.id}) from None
        written = [c.path for c in plan if c.after is not None]
        # `written` syncs and saves each file itself, after taking what the server had
        # published before as the baseline; renamed-away and deleted files are closed here
        diagnostics = await self.written([str(p) for p in written])
        await self._sync_quietly(client)
        total = sum(c.edits for c in plan)
        lines = [f'renamed "{symbol}" to "{args["new_name"]}": {total} edit{"s" if total != 1 else ""} in {len(plan)} file{"s" if len(plan) != 1 else ""}']
        files = []
        for c in plan:
            ops = f" ({', '.join(c.operations)})" if c.operations else ""
            lines.append(f"  {self.ctx.relpath(c.path)}: {c.edits} edit{'s' if c.edits != 1 else ''}{ops}")
            files.append({"file": self.ctx.relpath(c.path), "edits": c.edits, "operations": c.operations})
        text = "\n".join(notes + lines)
        if isinstance(diagnostics.data, dict) and (diagnostics.data.get("new") or diagnostics.data.get("unavailable")):
            text += "\n\n" + diagnostics.text
        return ToolResult(ok=True, text=text, data={"server": client.spec.id, "files": files, "edits": total,
                                                    "diagnostics": diagnostics.data})

    # Common steps ---------------------------------------------------------------------

    def _file(self, args: Mapping[str, Any], action: str) -> Path:
        file = args.get("file")
        if not file:
            raise ToolError(f"{action} needs `file`: the path of the file to ask about, relative to the workspace root.")
        path = self.ctx.resolve_path(file, what="file")
        if not path.is_file():
            raise ToolError(f'file "{file}" is a directory; {action} needs a source file.')
        return path

    async def _client(self, path: Path) -> tuple[LSPClient, list[str]]:
        try:
            return await self.sup.client_for(path)
        except NoServer as exc:
            raise ToolError(f"{exc}. Call lsp with action status to see every candidate.",
                            data={"candidates": [c.to_json(self.ctx.root) for c in exc.candidates]}) from None

    async def _sync(self, client: LSPClient, path: Path) -> Any:
        try:
            await client.resync_stale()
            doc = await client.sync(path)
            await client.wait_ready(doc, self.ready_timeout)
            return doc
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"{client.spec.id} is gone: {exc}. It restarts on the next call.") from None

    def _require(self, client: LSPClient, capability: str, action: str) -> None:
        if not client.supports(capability):
            raise ToolError(f"{client.spec.id} does not support {action} (it does not offer {capability}); "
                            "try another action (references, hover) or another server (lsp_servers option).",
                            data={"server": client.spec.id, "unsupported": action})

    async def _request(self, client: LSPClient, method: str, params: Any, action: str) -> Any:
        try:
            return await client.request(method, params, timeout=self.timeout)
        except asyncio.TimeoutError:
            raise ToolError(f"{client.spec.id} did not answer {action} within {self.timeout:g} s. That is no answer, "
                            "not an empty one: try again, or lsp reload.", data={"server": client.spec.id, "timeout": True}) from None
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"{client.spec.id} crashed while answering {action}: {exc}\n"
                            "It will be restarted on the next call.", data={"server": client.spec.id, "crashed": True}) from None
        except RPCError as exc:
            raise ToolError(f"{client.spec.id} refused {action}: {exc.message} (error {exc.code}).",
                            data={"server": client.spec.id, "code": exc.code}) from None

    def _position(self, client: LSPClient, text: str, path: Path, args: Mapping[str, Any], action: str,
                  need_symbol: bool = True) -> tuple[int, dict[str, int], str]:
        rel = self.ctx.relpath(path)
        line = args.get("line")
        if line is None:
            raise ToolError(f"{action} needs `line` (1-based) and `symbol` (text on that line naming the symbol).")
        lines = split_lines(text)
        if line > len(lines):
            raise ToolError(f"line {line} is past the end of {rel}, which has {len(lines)} lines.")
        body = lines[line - 1]
        symbol = args.get("symbol")
        if not symbol:
            if need_symbol:
                raise ToolError(f"{action} needs `symbol`: a substring of line {line} naming what you mean, e.g. "
                                f"the identifier. The line is:\n{line}: {body}")
            column = len(body) - len(body.lstrip())
            return line, {"line": line - 1, "character": to_lsp_column(body, column, client.encoding)}, ""
        column = locate_symbol(body, symbol, rel, line)
        return line, {"line": line - 1, "character": to_lsp_column(body, column, client.encoding)}, symbol

    # Formatting -----------------------------------------------------------------------

    def _line_text(self, path: Path, line: int, cache: dict[Path, list[str]], client: LSPClient | None = None) -> str:
        if path not in cache:
            doc = client.documents.get(path_to_uri(path)) if client else None
            try:
                text = doc.text if doc is not None else path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            cache[path] = split_lines(text)
        lines = cache[path]
        return lines[line] if 0 <= line < len(lines) else ""

    def _location(self, client: LSPClient, uri: str, rng: dict[str, Any], cache: dict[Path, list[str]]) -> dict[str, Any]:
        path = uri_to_path(uri)
        start = rng.get("start", {"line": 0, "character": 0})
        line = int(start.get("line", 0))
        body = self._line_text(path, line, cache, client)
        column = from_lsp_column(body, int(start.get("character", 0)), client.encoding)
        return {"file": self.ctx.relpath(path), "line": line + 1, "column": column + 1, "text": body.strip()}

    def _locations(self, client: LSPClient, result: Any) -> list[dict[str, Any]]:
        items = result if isinstance(result, list) else [result] if result else []
        cache: dict[Path, list[str]] = {}
        out = []
        for item in items:
            if not isinstance(item, dict):
                continue
            if "targetUri" in item:  # LocationLink
                rng = item.get("targetSelectionRange") or item.get("targetRange") or {}
                out.append(self._location(client, item["targetUri"], rng, cache))
            elif "uri" in item:
                out.append(self._location(client, item["uri"], item.get("range") or {}, cache))
        return out

    # Actions --------------------------------------------------------------------------

    async def _navigate(self, action: str, args: Mapping[str, Any]) -> ToolResult:
        path = self._file(args, action)
        client, notes = await self._client(path)
        doc = await self._sync(client, path)
        line, position, symbol = self._position(client, doc.text, path, args, action)
        method, capability = NAVIGATION[action]
        self._require(client, capability, action.replace("_", " "))
        params: dict[str, Any] = {"textDocument": {"uri": doc.uri}, "position": position}
        if action == "references":
            params["context"] = {"includeDeclaration": True}
        result = await self._request(client, method, params, action)
        where = f'"{symbol}" at {self.ctx.relpath(path)}:{line}'
        if action == "hover":
            text = hover_text(result)
            if not text:
                return ToolResult(ok=True, text="\n".join(notes + [f"{client.spec.id} has no hover information for {where}."]),
                                  data={"server": client.spec.id, "hover": None})
            return ToolResult(ok=True, text="\n".join(notes + [text[:6000]]), data={"server": client.spec.id, "hover": text})
        locations = self._locations(client, result)
        await self._track(client, locations)
        total = len(locations)
        cap = CAPS["references"] if action == "references" else 200
        shown = locations[:cap]
        label = action.replace("_", " ")
        if not shown:
            body = f"{client.spec.id} found no {label} for {where}."
        else:
            head = f"{label} of {where}" + (f" ({total}, showing the first {cap})" if total > cap else f" ({total})")
            body = "\n".join([head] + [f"{loc['file']}:{loc['line']}: {loc['text']}" for loc in shown])
        return ToolResult(ok=True, text="\n".join(notes + [body]),
                          data={"server": client.spec.id, "locations": shown, "total": total, "truncated": total > cap})

    async def _symbols(self, args: Mapping[str, Any]) -> ToolResult:
        query = args.get("query")
        if query is None:
            path = self._file(args, "symbols")
            client, notes = await self._client(path)
            doc = await self._sync(client, path)
            self._require(client, "documentSymbolProvider", "document symbols")
            result = await self._request(client, "textDocument/documentSymbol", {"textDocument": {"uri": doc.uri}}, "symbols")
            rows = flatten_symbols(result or [], lambda uri, rng: self._location(client, uri, rng, {}), doc.uri)
            return self._symbol_result(client.spec.id, rows, CAPS["document_symbols"], f"symbols in {self.ctx.relpath(path)}", notes)
        clients: list[LSPClient] = []
        notes = []
        if args.get("file"):
            client, notes = await self._client(self._file(args, "symbols"))
            clients = [client]
        else:
            clients = self.sup.running() or await self._start_for_root()
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
            await self._sync_quietly(client)
            await self._make_ready(client)
            result = await self._request(client, "workspace/symbol", {"query": query}, "symbols")
            cache: dict[Path, list[str]] = {}
            for item in result or []:
                loc = item.get("location") or {}
                rng = loc.get("range") or {"start": {"line": 0, "character": 0}}
                place = self._location(client, loc.get("uri", ""), rng, cache) if loc.get("uri") else {}
                rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")),
                             "container": item.get("containerName"), **place, "depth": 0})
        if not servers:
            raise ToolError(" ".join(notes) + " Use symbols with `file` for one file's outline instead.")
        return self._symbol_result(", ".join(servers), rows, CAPS["workspace_symbols"], f'workspace symbols matching "{query}"', notes)

    async def _track(self, client: LSPClient, rows: list[dict[str, Any]]) -> None:
        # Open the files a result points into, so that the next query re-syncs them if
        # something else rewrites them: a server that only read a file from disk keeps its
        # cached copy (issue 5: no answer computed on stale text).
        for rel in dict.fromkeys(r["file"] for r in rows if r.get("file")):
            path = self.ctx.root / rel
            if not path.is_file() or path.is_absolute() and self.ctx.root not in path.resolve().parents:
                continue
            if path_to_uri(path) not in client.documents and len(client.documents) < 200:
                try:
                    await client.sync(path)
                except (OSError, ConnectionClosed, ProtocolError):
                    return

    async def _make_ready(self, client: LSPClient) -> None:
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
                        await client.wait_ready(doc, self.ready_timeout)
                    except (OSError, ConnectionClosed, ProtocolError):
                        pass
                    return
            seen += len(filenames)
            if seen > 5000:
                return

    async def _sync_quietly(self, client: LSPClient) -> None:
        try:
            await client.resync_stale()
        except (ConnectionClosed, ProtocolError):
            pass

    async def _start_for_root(self) -> list[LSPClient]:
        clients = []
        for lang in dict.fromkeys(lang for spec in CATALOG for lang in spec.languages):
            spec = next(s for s in CATALOG if lang in s.languages)
            probe = self.ctx.root / f"__probe__{spec.extensions[0]}"
            if language_of(probe) != lang:
                continue
            try:
                client, _ = await self.sup.client_for(probe)
            except NoServer:
                continue
            if client not in clients:
                clients.append(client)
        return clients

    def _symbol_result(self, server: str, rows: list[dict[str, Any]], cap: int, title: str, notes: list[str]) -> ToolResult:
        total = len(rows)
        shown = rows[:cap]
        lines = [f"{title} ({total}" + (f", showing the first {cap})" if total > cap else ")")]
        for row in shown:
            where = f"  {row['file']}:{row['line']}" if row.get("file") else ""
            container = f"  (in {row['container']})" if row.get("container") else ""
            lines.append(f"{'  ' * row.get('depth', 0)}{row['kind']} {row['name']}{where}{container}")
        if not shown:
            lines = [f"{server} found no {title}."]
        return ToolResult(ok=True, text="\n".join(notes + lines),
                          data={"server": server, "symbols": shown, "total": total, "truncated": total > cap})

    async def _code_actions(self, args: Mapping[str, Any]) -> ToolResult:
        path = self._file(args, "code_actions")
        client, notes = await self._client(path)
        mark = client.diagnostics_mark(path_to_uri(path))
        doc = await self._sync(client, path)
        line, position, symbol = self._position(client, doc.text, path, args, "code_actions", need_symbol=False)
        self._require(client, "codeActionProvider", "code actions")
        # quick fixes are offered for the diagnostics we pass: make sure they are current
        await self._fresh_diagnostics(client, doc, mark)
        body = split_lines(doc.text)[line - 1]
        end_col = len(body)
        start = position
        if symbol:
            col = from_lsp_column(body, position["character"], client.encoding)
            end_col = col + len(symbol)
        else:
            start = {"line": line - 1, "character": 0}
        end = {"line": line - 1, "character": to_lsp_column(body, end_col, client.encoding)}
        on_line = [d for d in client.diagnostics.get(doc.uri, [])
                   if d.get("range", {}).get("start", {}).get("line", -1) <= line - 1 <= d.get("range", {}).get("end", {}).get("line", -1)]
        params = {"textDocument": {"uri": doc.uri}, "range": {"start": start, "end": end},
                  "context": {"diagnostics": on_line, "triggerKind": 1}}
        result = await self._request(client, "textDocument/codeAction", params, "code_actions") or []
        actions = []
        for item in result[: CAPS["code_actions"]]:
            is_command = isinstance(item.get("command"), str)
            actions.append({"title": item.get("title"), "kind": None if is_command else item.get("kind"),
                            "preferred": bool(item.get("isPreferred")), "has_edit": "edit" in item,
                            "fixes": [d.get("message") for d in item.get("diagnostics", [])]})
        where = f"{self.ctx.relpath(path)}:{line}" + (f' ("{symbol}")' if symbol else "")
        if not actions:
            text = f"{client.spec.id} offers no code actions at {where}."
        else:
            text = "\n".join([f"code actions at {where} ({len(result)})"] +
                             [f"- {a['title']}" + (f" [{a['kind']}]" if a["kind"] else "") + (" (preferred)" if a["preferred"] else "")
                              for a in actions])
        return ToolResult(ok=True, text="\n".join(notes + [text]),
                          data={"server": client.spec.id, "actions": actions, "diagnostics": on_line, "total": len(result)})

    async def _fresh_diagnostics(self, client: LSPClient, doc: Any, mark: int) -> list[dict[str, Any]] | None:
        uri = doc.uri
        if client.diagnostics_mark(uri) > mark:
            mark = client.diagnostics_mark(uri) - 1
        elif mark > 0:
            mark -= 1  # nothing re-sent: the last publish is for the current text
        try:
            return await client.wait_diagnostics(uri, mark, timeout=self.diag_timeout, quiet=self.diag_quiet)
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"diagnostics unavailable: {client.spec.id} crashed: {exc}") from None

    async def _diagnostics(self, args: Mapping[str, Any]) -> ToolResult:
        path = self._file(args, "diagnostics")
        client, notes = await self._client(path)
        mark = client.diagnostics_mark(path_to_uri(path))
        doc = await self._sync(client, path)
        found = await self._fresh_diagnostics(client, doc, mark)
        rel = self.ctx.relpath(path)
        if found is None:
            return ToolResult(ok=False, text="\n".join(notes + [
                f"diagnostics unavailable: {client.spec.id} published nothing for {rel} within {self.diag_timeout:g} s. "
                "This is not a clean result; try again, or lsp reload."]), data={"server": client.spec.id, "checked": False})
        items = [diagnostic_row(client, rel, doc.text, d) for d in found]
        self.ledger[rel] = Counter(_key(d) for d in items)  # shown to the model: no longer new
        listed = [d for d in items if d["severity"] in ("error", "warning")]
        others = len(items) - len(listed)
        cap = CAPS["diagnostics"]
        lines = [format_diagnostic(d) for d in listed[:cap]]
        if len(listed) > cap:
            lines.append(f"... and {len(listed) - cap} more")
        summary = f"{rel}: {sum(d['severity'] == 'error' for d in items)} errors, {sum(d['severity'] == 'warning' for d in items)} warnings"
        if others:
            summary += f", {others} hints/information not listed"
        summary += f" ({client.spec.id})"
        return ToolResult(ok=True, text="\n".join(notes + [summary] + lines),
                          data={"server": client.spec.id, "checked": True, "diagnostics": items})

    async def _checker(self) -> ToolResult:
        timeout = float(self.ctx.option("lsp_checker_timeout", 120.0))
        prefer = self.ctx.option("lsp_servers", None) or {}
        outputs = []
        reasons = []
        done: set[str] = set()
        from minitools.lsp import find_root, servers_for

        for lang in dict.fromkeys(lang for spec in CATALOG for lang in spec.languages):
            for spec in servers_for(lang, prefer.get(lang)):
                if spec.id in done or spec.checker is None:
                    continue
                root = find_root(self.ctx.root, spec.root_markers, self.ctx.root)
                if root is None:
                    break
                if self.sup.binary(spec) is None and spec.checker[0] != spec.argv[0] and \
                        not _has_binary(self.sup, spec.checker[0]):
                    reasons.append(f"{spec.id}: {spec.checker[0]} not installed")
                    continue
                if not _has_binary(self.sup, spec.checker[0]):
                    reasons.append(f"{spec.id}: checker {spec.checker[0]} not installed")
                    continue
                done.add(spec.id)
                result = await self.sup.run_checker(spec, root, timeout)
                status = "timed out" if result.timed_out else f"exit {result.returncode}"
                output = result.output.strip() or "(no output)"
                if len(output) > 12000:
                    output = output[:12000] + f"\n... ({len(result.output) - 12000} more characters)"
                outputs.append({"language": lang, "checker": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(result.argv)),
                                "returncode": result.returncode, "timed_out": result.timed_out, "output": output})
                outputs[-1]["status"] = status
                break
        if not outputs:
            why = "; ".join(reasons) or "no language's root marker is at the workspace root"
            raise ToolError(f'diagnostics "*" found no project checker to run ({why}); ask diagnostics file by file instead.')
        text = "\n\n".join(f"$ {o['checker']}  ({o['language']}, {o['status']})\n{o['output']}" for o in outputs)
        return ToolResult(ok=True, text=text, data={"checkers": outputs})

    def _status(self) -> ToolResult:
        status = self.sup.status()
        lines = []
        for lang, rows in status["languages"].items():
            lines.append(f"{lang}:")
            for row in rows:
                root = f" root {row['root']}" if row["root"] else ""
                lines.append(f"  {row['server']}: {row['state']}{root} — {row['reason']}")
        running = status["running"]
        lines.append("running: " + (", ".join(f"{r['server']} for {r['root']} (pid {r['pid']})" for r in running) or "none"))
        return ToolResult(ok=True, text="\n".join(lines), data=status)

    # Write-time diagnostics (issue 6) -------------------------------------------------

    async def written(self, paths: list[str]) -> ToolResult:
        """Sync and save `paths` through their servers; report only diagnostics new to the ledger."""
        files: list[dict[str, Any]] = []
        new_all: list[dict[str, Any]] = []
        unavailable: list[dict[str, Any]] = []
        # Every file is sent before any is checked: diagnostics of one file of a multi-file
        # write (a rename, an accepted edit) depend on the others' new text.
        synced = [await self._sync_written(raw) for raw in paths]
        for entry in await asyncio.gather(*(self._check_written(s) for s in synced)):
            files.append(entry)
            new_all.extend(entry.get("new", []))
            if entry.get("unavailable"):
                unavailable.append({"file": entry["file"], "reason": entry["unavailable"]})
        lines = []
        for entry in files:
            if entry.get("unavailable"):
                lines.append(f"{entry['file']}: diagnostics unavailable: {entry['unavailable']}")
            elif entry.get("new"):
                lines.append(f"{entry['file']}: {len(entry['new'])} new diagnostic{'s' if len(entry['new']) != 1 else ''} ({entry['server']})")
                lines.extend("  " + format_diagnostic(d) for d in entry["new"][: self.diag_cap])
                if len(entry["new"]) > self.diag_cap:
                    lines.append(f"  ... and {len(entry['new']) - self.diag_cap} more")
            if entry.get("new_minor"):
                lines.append(f"{entry['file']}: {entry['new_minor']} new hints/information (not listed)")
        checked = [e for e in files if e.get("checked")]
        if not lines:
            lines = [f"no new diagnostics in {len(checked)} checked file{'s' if len(checked) != 1 else ''}" if checked
                     else "no file was checked (no language server covers these files)"]
        return ToolResult(ok=True, text="\n".join(lines),
                          data={"files": files, "new": new_all, "unavailable": unavailable, "checked": bool(checked)})

    async def _sync_written(self, raw: str) -> dict[str, Any] | _Synced:
        path = Path(raw) if os.path.isabs(raw) else self.ctx.root / raw
        path = Path(os.path.realpath(path))
        rel = self.ctx.relpath(path)
        if path != self.ctx.root and self.ctx.root not in path.parents:
            return {"file": rel, "checked": False, "reason": "outside the workspace root"}
        if not path.is_file():
            return {"file": rel, "checked": False, "reason": "not a file (deleted?)"}
        if language_of(path) is None:
            return {"file": rel, "checked": False, "reason": "no language server serves this kind of file"}
        try:
            client, _notes = await self.sup.client_for(path)
        except NoServer as exc:
            return {"file": rel, "checked": False, "reason": str(exc)}
        uri = path_to_uri(path)
        # the baseline is what was known before this write: what we reported, else what the
        # server had published for the file before (those the write did not break)
        baseline = self.ledger.get(rel)
        if baseline is None and uri in client.diagnostics and uri in client.documents:
            baseline = Counter(_key(diagnostic_row(client, rel, client.documents[uri].text, d)) for d in client.diagnostics[uri])
        try:
            mark = client.diagnostics_mark(uri)
            before = client.documents.get(uri)
            version = before.version if before else 0
            doc = await client.sync(path)
            await client.save(doc)
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            return {"file": rel, "server": client.spec.id, "checked": False, "unavailable": f"{client.spec.id} crashed: {exc}"}
        if doc.version == version and mark > 0:
            mark -= 1  # nothing new was sent: the last publish stands for this text
        return _Synced(rel, client, uri, doc, mark, baseline)

    async def _check_written(self, synced: dict[str, Any] | _Synced) -> dict[str, Any]:
        if isinstance(synced, dict):
            return synced
        rel, client, uri, doc, mark, baseline = (synced.rel, synced.client, synced.uri, synced.doc, synced.mark, synced.baseline)
        try:
            found = await client.wait_diagnostics(uri, mark, timeout=self.diag_timeout, quiet=self.diag_quiet)
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            return {"file": rel, "server": client.spec.id, "checked": False, "unavailable": f"{client.spec.id} crashed: {exc}"}
        if found is None:
            return {"file": rel, "server": client.spec.id, "checked": False,
                    "unavailable": f"{client.spec.id} published nothing within {self.diag_timeout:g} s (not checked, not clean)"}
        rows = [diagnostic_row(client, rel, doc.text, d) for d in found]
        keys = Counter(_key(r) for r in rows)
        previous = baseline or Counter()
        self.ledger[rel] = keys
        fresh = keys - previous
        new, minor = [], 0
        for row in rows:
            key = _key(row)
            if fresh.get(key, 0) > 0:
                fresh[key] -= 1
                if row["severity"] in ("error", "warning"):
                    new.append(row)
                else:
                    minor += 1
        return {"file": rel, "server": client.spec.id, "checked": True, "new": new, "new_minor": minor, "total": len(rows)}


@dataclass
class _Synced:
    """A written file sent to its server, whose diagnostics are still to come."""

    rel: str
    client: Any
    uri: str
    doc: Any
    mark: int
    baseline: Counter[tuple[Any, Any, str]] | None


def _key(row: dict[str, Any]) -> tuple[Any, Any, str]:
    # the ledger key: severity, code and message — position deliberately left out (SPEC.md), so
    # a diagnostic that merely moved is not new; kept per file
    return (row["severity"], row["code"], row["message"])


def _has_binary(sup: Supervisor, name: str) -> bool:
    from minitools.lsp._catalog import find_binary

    return find_binary(name, sup.search_path) is not None


# Helpers (pure) ---------------------------------------------------------------------

def locate_symbol(body: str, symbol: str, rel: str, line: int) -> int:
    """Code-point column of `symbol` on `body`. Errors (with the line shown) when it is absent,
    or ambiguous: found more than once unless every occurrence is the same whole name."""
    starts = [m.start() for m in re.finditer(re.escape(symbol), body)]
    if not starts:
        raise ToolError(f'symbol "{symbol}" is not on line {line} of {rel}; the line is:\n{line}: {body}\n'
                        "Give a substring of that line, or the right line number.")

    def word_at(i: int) -> str:
        a, b = i, i + len(symbol)
        while a > 0 and _WORD.match(body[a - 1]):
            a -= 1
        while b < len(body) and _WORD.match(body[b]):
            b += 1
        return body[a:b]

    if len(starts) > 1:
        words = [word_at(i) for i in starts]
        if any(w != symbol for w in words):
            shown = ", ".join(f'"{w}" at column {i + 1}' for w, i in zip(words, starts))
            raise ToolError(f'symbol "{symbol}" is ambiguous on line {line} of {rel}: it occurs {len(starts)} times ({shown}). '
                            f"Give a longer substring that occurs once. The line is:\n{line}: {body}")
    start = starts[0]
    # point at the first identifier character inside the substring ("self.x" → x's name start is fine too)
    for offset, char in enumerate(symbol):
        if _WORD.match(char):
            return start + offset
    return start


def hover_text(result: Any) -> str:
    """The text of a Hover result (MarkupContent, MarkedString or a list of them)."""
    if not isinstance(result, dict):
        return ""
    contents = result.get("contents")
    parts = contents if isinstance(contents, list) else [contents]
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict):
            if "kind" in part:
                out.append(str(part.get("value", "")))
            elif "language" in part:
                out.append(f"```{part['language']}\n{part.get('value', '')}\n```")
    return "\n\n".join(p.strip() for p in out if p and p.strip())


def symbol_kind(kind: Any) -> str:
    return SYMBOL_KINDS[kind] if isinstance(kind, int) and 0 < kind < len(SYMBOL_KINDS) else "symbol"


def flatten_symbols(items: list[dict[str, Any]], locate: Any, uri: str, depth: int = 0) -> list[dict[str, Any]]:
    """DocumentSymbol trees (or flat SymbolInformation lists) as rows with a depth."""
    rows = []
    for item in items:
        if "location" in item:  # SymbolInformation
            loc = item["location"]
            rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")), "container": item.get("containerName"),
                         **locate(loc.get("uri", uri), loc.get("range", {})), "depth": depth})
            continue
        rng = item.get("selectionRange") or item.get("range") or {}
        rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")), "container": None,
                     "detail": item.get("detail"), **locate(uri, rng), "depth": depth})
        rows.extend(flatten_symbols(item.get("children") or [], locate, uri, depth + 1))
    return rows


def diagnostic_row(client: LSPClient, rel: str, text: str, diag: dict[str, Any]) -> dict[str, Any]:
    start = diag.get("range", {}).get("start", {})
    line = int(start.get("line", 0))
    lines = split_lines(text)
    body = lines[line] if 0 <= line < len(lines) else ""
    code = diag.get("code")
    return {"file": rel, "line": line + 1, "column": from_lsp_column(body, int(start.get("character", 0)), client.encoding) + 1,
            "severity": SEVERITY.get(diag.get("severity") or 1, "error"), "code": code if code is None else str(code),
            "message": str(diag.get("message", "")), "source": diag.get("source"), "text": body.strip()}


def format_diagnostic(d: dict[str, Any]) -> str:
    code = f" [{d['code']}]" if d.get("code") else ""
    source = f" ({d['source']})" if d.get("source") else ""
    return f"{d['file']}:{d['line']}:{d['column']}: {d['severity']}{code}: {d['message']}{source}\n    {d['text']}"
