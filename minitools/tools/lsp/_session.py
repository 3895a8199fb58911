"""The steps every lsp action shares: the file argument, its server, syncing the document,
capability checks, one request with its failures as clear errors, a `line` + `symbol` position,
and a wait for the diagnostics of the current text. `LSPSession.target` runs the first steps
(file, server, sync, position) as one. Holds the lsp options (docs/tools.md)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from minitools.lsp import (
    Document,
    DocumentTooLarge,
    LSPClient,
    NoServer,
    NotRegularFile,
    PeerPayloadError,
    ServerGone,
    Supervisor,
    check_result,
    path_to_uri,
    split_lines,
    to_lsp_column,
)
from minitools.tools._context import RunContext
from minitools.tools._symbol_address import Ambiguous, Resolved, resolve_symbol
from minitools.toolspec import ToolError
from minitools.transport import RPCError

__all__ = ["LSPSession", "Target", "SessionPart"]


@dataclass
class Target:
    """What an action is about: the file, its server and synced document, and (when the action
    takes a position) the 1-based line, the LSP position and where `symbol` resolved on it."""

    path: Path
    rel: str
    client: LSPClient
    doc: Document
    mark: int  # the file's diagnostics mark before the sync (for `fresh_diagnostics`)
    notes: list[str] = field(default_factory=list)
    resent: bool = False  # the sync sent the file's text (opened, or changed on disk since it was sent)
    line: int = 0
    position: dict[str, int] | None = None
    at: Resolved | None = None

    @property
    def resolved(self) -> Resolved:
        """Where `symbol` resolved, for actions that require one (`target(..., position="symbol")`)."""
        assert self.at is not None
        return self.at



class LSPSession:
    def __init__(self, ctx: RunContext, supervisor: Supervisor) -> None:
        self.ctx = ctx
        self.sup = supervisor
        self.timeout = float(ctx.option("lsp_timeout", 30.0))
        self.diag_timeout = float(ctx.option("lsp_diagnostics_timeout", 8.0))
        self.diag_quiet = float(ctx.option("lsp_diagnostics_quiet", 0.6))
        # a write-time wait also ends when the server has sent nothing for this long (and is idle)
        self.diag_idle = float(ctx.option("lsp_diagnostics_idle", 3.0))
        self.diag_cap = int(ctx.option("lsp_diagnostics_cap", 20))
        self.ready_timeout = float(ctx.option("lsp_ready_timeout", 10.0))
        # the files a write may break besides those it wrote: how many at most (0: none), how
        # long their diagnostics are waited for, how long the workspace is read to find them
        self.dependents_cap = int(ctx.option("lsp_dependents", 8))
        self.dependents_wait = float(ctx.option("lsp_dependents_wait", 4.0))
        self.dependents_scan = float(ctx.option("lsp_dependents_scan", 0.5))

    async def target(self, args: Mapping[str, Any], action: str,
                     position: Literal["symbol", "line", "none"] = "symbol") -> Target:
        """The file argument resolved, its server, the document synced, and the position: `symbol`
        needs `line` and `symbol`, `line` needs `line` (the symbol is optional), `none` takes none."""
        path = self.path_arg(args, action)
        client, notes = await self.client(path)
        uri = path_to_uri(path)
        mark = client.diagnostics_mark(uri)
        before = client.documents.get(uri)
        sent = None if before is None else before.version
        doc = await self.sync(client, path)
        target = Target(path, self.ctx.relpath(path), client, doc, mark, notes, resent=doc.version != sent)
        if position != "none":
            try:
                target.line, target.position, target.at = self.position(client, doc.text, path, args, action,
                                                                        need_symbol=position == "symbol")
            except Ambiguous as exc:
                await self._same_definition(target, exc, args["line"])
        return target

    async def _same_definition(self, target: Target, ambiguous: Ambiguous, line: int) -> None:
        """Answer for the first of several occurrences of the symbol on its line when the server
        says they all name the same definition (`sq.area() + other().area()`); else re-raise."""
        client = target.client
        if not ambiguous.options or not client.supports("definitionProvider"):
            raise ambiguous
        body = split_lines(target.doc.text)[line - 1]
        found = []
        for at in ambiguous.options:
            where = {"line": line - 1, "character": to_lsp_column(body, at.column, client.encoding)}
            answer = await self.request(client, "textDocument/definition",
                                        {"textDocument": {"uri": target.doc.uri}, "position": where}, "definition")
            found.append((where, _definition_places(answer)))
        places = {places for _, places in found}
        if len(places) != 1 or not next(iter(places)):
            raise ambiguous
        first = dataclasses.replace(ambiguous.options[0], occurrence=1, occurrences=1)  # the note below says it
        target.line, target.position, target.at = line, found[0][0], first
        target.notes.append(f'"{first.name}" occurs {len(found)} times on line {line}; all name the same definition, '
                            "so the answer is for the first.")

    def path_arg(self, args: Mapping[str, Any], action: str) -> Path:
        """The `file` argument as a path inside the root, refused when missing or not a regular
        file (a folder, a FIFO: one is never opened, it would block)."""
        return self.ctx.source_file(args.get("file"), action)

    async def client(self, path: Path) -> tuple[LSPClient, list[str]]:
        try:
            return await self.sup.client_for(path)
        except NoServer as exc:
            raise ToolError(f"{exc}. Call lsp with action status to see every candidate.",
                            data={"candidates": [c.to_json(self.ctx.root) for c in exc.candidates]}) from None

    async def sync(self, client: LSPClient, path: Path) -> Document:
        try:
            await client.resync_stale()
            doc = await client.sync(path)
            await client.wait_ready(doc, self.ready_timeout)
            return doc
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"{client.spec.id} is gone: {exc}. It restarts on the next call.") from None
        except DocumentTooLarge as exc:
            raise ToolError(f"{self.ctx.relpath(path)} is {exc.reason}, so it is not opened. Search it with a text "
                            "tool instead.") from None
        except NotRegularFile as exc:
            raise ToolError(f"{self.ctx.relpath(path)} is {exc.kind}, not a regular file (it is never opened: reading "
                            "a FIFO blocks); give a source file.") from None
        except OSError as exc:
            raise ToolError(f"{self.ctx.relpath(path)} cannot be read ({(exc.strerror or str(exc)).lower()}).") from None

    async def sync_quietly(self, client: LSPClient) -> None:
        with contextlib.suppress(ServerGone):
            await client.resync_stale()

    def require(self, client: LSPClient, capability: str, action: str) -> None:
        if not client.supports(capability):
            raise ToolError(f"{client.spec.id} does not support {action} (it does not offer {capability}); "
                            "try another action (references, hover) or another server (lsp_servers option).",
                            data={"server": client.spec.id, "unsupported": action})

    async def request(self, client: LSPClient, method: str, params: Any, action: str, *, effect: str = "not used") -> Any:
        """The server's answer to `method`, checked against its shape (lsp/_payloads.py); every
        failure a ToolError that says what the server did, and `effect` (what became of it)."""
        try:
            result = await client.request(method, params, timeout=self.timeout)
            check_result(method, result)
            return result
        except PeerPayloadError as exc:
            raise ToolError(f"{client.spec.id} sent {exc.what} that does not fit the protocol ({exc.reason}): {effect}.",
                            data={"server": client.spec.id, "invalid": exc.reason}) from None
        except asyncio.TimeoutError:
            raise ToolError(f"{client.spec.id} did not answer {action} within {self.timeout:g} s. That is no answer, "
                            "not an empty one: try again, or lsp reload.", data={"server": client.spec.id, "timeout": True}) from None
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"{client.spec.id} crashed while answering {action}: {exc}\n"
                            "It will be restarted on the next call.", data={"server": client.spec.id, "crashed": True}) from None
        except RPCError as exc:
            raise ToolError(f"{client.spec.id} refused {action}: {exc.message} (error {exc.code}).",
                            data={"server": client.spec.id, "code": exc.code}) from None

    def position(self, client: LSPClient, text: str, path: Path, args: Mapping[str, Any], action: str,
                 need_symbol: bool = True) -> tuple[int, dict[str, int], Resolved | None]:
        """The 1-based line, the LSP position, and where `symbol` resolved on the line (None
        when no symbol was given and `need_symbol` is false: the line's first non-blank)."""
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
            return line, {"line": line - 1, "character": to_lsp_column(body, column, client.encoding)}, None
        at = resolve_symbol(body, symbol, self.sup.catalog.language_of(path), rel, line)
        return line, {"line": line - 1, "character": to_lsp_column(body, at.column, client.encoding)}, at

    async def fresh_diagnostics(self, client: LSPClient, doc: Document, mark: int,
                                resent: bool = False) -> list[dict[str, Any]] | None:
        """The diagnostics published for `doc`'s current text (None: nothing within the timeout).

        `mark` is ``client.diagnostics_mark(uri)`` taken before the sync; `resent` says the sync
        sent the text, so a publish from before it is not an answer (a server that checks a while
        after a change, Perl::LanguageServer 1.5 s, would otherwise be shown the old text's)."""
        uri = doc.uri
        if client.diagnostics_mark(uri) > mark:
            mark = client.diagnostics_mark(uri) - 1
        elif mark > 0 and not resent:
            mark -= 1  # nothing re-sent: the last publish is for the current text
        try:
            return await client.wait_diagnostics(uri, mark, timeout=self.diag_timeout, quiet=self.diag_quiet)
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            raise ToolError(f"diagnostics unavailable: {client.spec.id} crashed: {exc}") from None


def _definition_places(answer: Any) -> frozenset[tuple[str, int, int]]:
    """The places a definition answer points to (Location, Location[] or LocationLink[])."""
    items = answer if isinstance(answer, list) else [answer] if answer else []
    out = set()
    for item in items:
        if not isinstance(item, dict):
            continue
        uri = item.get("targetUri") or item.get("uri") or ""
        rng = item.get("targetSelectionRange") or item.get("range") or {}
        start = rng.get("start") or {}
        out.add((uri, int(start.get("line", 0)), int(start.get("character", 0))))
    return frozenset(out)


class SessionPart:
    """A part of the lsp family over its session: the session (`s`), the Run's context (`ctx`)
    and the servers' supervisor (`sup`)."""

    def __init__(self, session: LSPSession) -> None:
        self.s = session
        self.ctx = session.ctx
        self.sup = session.sup
