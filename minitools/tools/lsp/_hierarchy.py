"""The lsp call and type hierarchy actions (docs/tools.md, "lsp"): incoming_calls, outgoing_calls,
supertypes and subtypes at a `line` + `symbol`, one `Hierarchy` row each (`HIERARCHIES`: the
capability and requests it takes, how its answer reads), capped and paged like references."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from minitools.protocol import METHOD_NOT_FOUND
from minitools.text import page_note
from minitools.tools.lsp._actions import CAPS
from minitools.tools.lsp._format import location, symbol_kind
from minitools.tools.lsp._servers import ServerQueries
from minitools.toolspec import ToolError, ToolResult

__all__ = ["Hierarchy", "HIERARCHIES", "Hierarchies"]


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


class Hierarchies(ServerQueries):
    async def hierarchy(self, action: str, args: Mapping[str, Any]) -> ToolResult:
        """`incoming_calls` (who calls the symbol, at which line), `outgoing_calls` (what it calls),
        `supertypes` and `subtypes` (what the type extends, what extends it), through the server's
        call or type hierarchy (HIERARCHIES); capped and paged like references."""
        s = self.s
        h = HIERARCHIES[action]
        t = await s.target(args, action)
        client, line, at = t.client, t.line, t.resolved
        s.require(client, h.capability, h.what)
        await self.servers.wait_index(client)
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
        notes = t.notes + ([at.note(line)] if at.note(line) else []) + self.servers.incomplete(client)
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
