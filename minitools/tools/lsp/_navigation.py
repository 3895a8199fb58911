"""The lsp navigation actions (docs/tools.md, "lsp"): definition, type_definition, implementation,
references and hover at a `line` + `symbol`, each one request (`NAVIGATION`, _actions.py); the
places found paged, with the source of the symbol where they lead for the definitions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from minitools.lsp import LSPClient, ServerGone, path_to_uri
from minitools.text import page_note
from minitools.tools.lsp._actions import CAPS, NAVIGATION
from minitools.tools.lsp._bodies import Body, bodies, format_body
from minitools.tools.lsp._format import hover_text, locations
from minitools.tools.lsp._servers import ServerQueries
from minitools.toolspec import ToolResult

__all__ = ["Navigation"]

WITH_BODIES = ("definition", "type_definition", "implementation")  # answers shown with the symbol's source


class Navigation(ServerQueries):
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
            await self.servers.wait_index(client)
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
        notes += self.servers.incomplete(client)
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
