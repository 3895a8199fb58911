"""One language server, spoken to over JSON-RPC: initialize, document sync, queries,
diagnostics (push, waited for correctly), shutdown.

Capabilities advertised deliberately (docs/reference.md, "Language servers"): no pull diagnostics (pyright and
basedpyright stop pushing and register pull dynamically when a client advertises it; push,
waited for the version sent plus a quiet period, works for every server in the catalog);
position encodings utf-16 (mandatory), utf-32, utf-8, converted by the client.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
from collections.abc import Awaitable, Callable, Collection, Mapping
from pathlib import Path
from typing import Any, TypeVar

from minitools.lsp._catalog import ServerSpec, find_node_file
from minitools.lsp._documents import (
    MAX_DOCUMENT_BYTES,
    Document,
    DocumentTooLarge,
    disk_stamp,
    path_to_uri,
    read_regular,
    uri_to_path,
)
from minitools.lsp._payloads import PeerPayloadError, check_notification, check_result
from minitools.lsp._progress import WorkProgress
from minitools.protocol import INVALID_PARAMS, ProtocolError
from minitools.tracing import Tracer
from minitools.transport import ChildExited, ChildProcess, ConnectionClosed, JSONRPCEndpoint, RPCError

__all__ = ["LSPClient", "ServerGone", "ServerStartError"]

T = TypeVar("T")
log = logging.getLogger("minitools.lsp")
# diagnostics kept for files not open in the server (a server may publish for every file of a
# project; one that published for 100,000 files held 380 MB); open documents' are always kept
UNOPENED_DIAGNOSTICS = 2000
# capabilities a server may register at run time (docs/tools.md, "Hostile peers and files")
MAX_REGISTRATIONS = 1000


class ServerGone(Exception):
    """The server's connection ended (it exited or crashed) or broke the wire protocol while a
    call was using it: the one error the client's I/O raises for either, with their message."""


def _maps_wire_errors(method: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Raise the transport's and the protocol's connection failures as `ServerGone`."""

    @functools.wraps(method)
    async def mapped(*args: Any, **kwargs: Any) -> T:
        try:
            return await method(*args, **kwargs)
        except (ConnectionClosed, ProtocolError) as exc:
            raise ServerGone(str(exc)) from exc

    return mapped

_ACTION_KINDS = ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source",
                 "source.organizeImports", "source.fixAll"]


class ServerStartError(Exception):
    """The server binary did not start, or did not answer initialize."""


def _client_capabilities() -> dict[str, Any]:
    link = {"dynamicRegistration": False, "linkSupport": True}
    return {
        "general": {"positionEncodings": ["utf-16", "utf-32", "utf-8"]},
        "window": {"workDoneProgress": True, "showMessage": {}},
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceFolders": True,
            "symbol": {"dynamicRegistration": False},
            "workspaceEdit": {"documentChanges": True, "resourceOperations": ["create", "rename", "delete"],
                              "failureHandling": "abort"},
            "didChangeWatchedFiles": {"dynamicRegistration": False},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": False, "didSave": True, "willSave": False},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            "hover": {"dynamicRegistration": False, "contentFormat": ["markdown", "plaintext"]},
            "definition": link,
            "typeDefinition": link,
            "implementation": link,
            "declaration": link,
            "references": {"dynamicRegistration": False},
            "documentSymbol": {"dynamicRegistration": False, "hierarchicalDocumentSymbolSupport": True},
            "codeAction": {"dynamicRegistration": False, "isPreferredSupport": True,
                           "codeActionLiteralSupport": {"codeActionKind": {"valueSet": _ACTION_KINDS}}},
            "rename": {"dynamicRegistration": False, "prepareSupport": False},
            "callHierarchy": {"dynamicRegistration": False},
        },
    }


class LSPClient:
    """A started server for one (server, root). Create with ``await LSPClient.start(...)``."""

    def __init__(self, spec: ServerSpec, root: Path, argv: list[str], tracer: Tracer | None) -> None:
        self.spec = spec
        self.root = root
        self.argv = argv
        self.tracer = tracer
        self.child: ChildProcess | None = None
        self.rpc: JSONRPCEndpoint | None = None
        self.capabilities: dict[str, Any] = {}
        self.server_info: dict[str, Any] = {}
        self._edit_sink: list[dict[str, Any]] | None = None  # edits a running command asked for
        self._edit_errors: list[PeerPayloadError] = []  # why edits it asked for were refused
        self.encoding = "utf-16"
        self.documents: dict[str, Document] = {}
        self.registrations: dict[str, dict[str, Any]] = {}
        self.stopping = False
        self.ready = False
        # diagnostics: uri -> latest list, and the number of the publish that set it (publishes
        # are numbered across uris, so a uri forgotten and published again still counts as new);
        # those of files not open here are kept for the last `UNOPENED_DIAGNOSTICS` files only
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self._diag_seq: dict[str, int] = {}
        self._diag_time: dict[str, float] = {}
        self._publishes = 0
        self._unopened: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._diag_event = asyncio.Event()
        self.progress = WorkProgress()  # work the server reports ($/progress), e.g. clangd's index

    @classmethod
    async def start(cls, spec: ServerSpec, root: Path, argv: list[str], *, tracer: Tracer | None = None,
                    env: dict[str, str] | None = None, timeout: float = 30.0) -> LSPClient:
        """Spawn the server and complete initialize/initialized; ServerStartError if it cannot."""
        client = cls(spec, root, argv, tracer)
        try:
            client.child = await ChildProcess.start(argv, peer=spec.id, cwd=root, env=env, tracer=tracer)
        except OSError as exc:
            raise ServerStartError(f"{spec.id}: {argv[0]} could not be executed: {exc.strerror or exc}") from None
        client.rpc = JSONRPCEndpoint.over_child(client.child, cancel_method="$/cancelRequest", default_request=lambda m: None)
        client._install_handlers()
        try:
            await client._initialize(timeout)
        except asyncio.CancelledError:  # the caller gave up (a warm-up cancelled at close): no orphan
            await asyncio.shield(client.child.stop(close_timeout=0.5, term_timeout=1.0))
            raise
        except (ChildExited, ConnectionClosed, asyncio.TimeoutError, Exception) as exc:  # noqa: BLE001 -- any failure to start is reported as this server's, and the child is stopped
            await client.child.stop(close_timeout=0.5, term_timeout=1.0)
            if isinstance(exc, asyncio.TimeoutError):
                why = f"did not answer initialize within {timeout:g} s"
            else:
                why = f"failed during initialize: {exc}"
            raise ServerStartError(f"{spec.id} ({' '.join(argv)}) {why}") from None
        return client

    # Set-up ---------------------------------------------------------------------------

    def _install_handlers(self) -> None:
        rpc = self.rpc
        assert rpc is not None
        folder = {"uri": path_to_uri(self.root), "name": self.root.name}
        rpc.on_request("workspace/configuration", self._checked("workspace/configuration", self._configuration))
        rpc.on_request("workspace/workspaceFolders", lambda p: [folder])
        rpc.on_request("client/registerCapability", self._checked("client/registerCapability", self._register))
        rpc.on_request("client/unregisterCapability", self._checked("client/unregisterCapability", self._unregister))
        rpc.on_request("window/workDoneProgress/create", lambda p: None)
        rpc.on_request("window/showMessageRequest", lambda p: None)
        rpc.on_request("window/showDocument", lambda p: {"success": False})
        # this client applies no edit a server sends: while a command runs for `capture_edits`, its
        # edits are kept for the caller to stage; any other is refused
        rpc.on_request("workspace/applyEdit", self._apply_edit)
        for refresh in ("diagnostic", "semanticTokens", "inlayHint", "inlineValue", "codeLens", "foldingRange"):
            rpc.on_request(f"workspace/{refresh}/refresh", lambda p: None)
        rpc.on_notification("textDocument/publishDiagnostics", self._checked("textDocument/publishDiagnostics",
                                                                             self._publish, request=False))
        rpc.on_notification("$/progress", self._checked("$/progress", self.progress.notify, request=False))

    def _checked(self, method: str, handler: Callable[[Any], T], *, request: bool = True) -> Callable[[Any], T | None]:
        """`handler` given only params of the shape `method`'s have (lsp/_payloads.py): others are
        refused with one log line, and a request is answered with an invalid-params error."""

        def checked(params: Any) -> T | None:
            try:
                check_notification(method, params)
            except PeerPayloadError as exc:
                log.warning("%s sent %s; not used", self.spec.id, exc)
                if request:
                    raise RPCError(INVALID_PARAMS, f"not used: {exc}") from None
                return None
            return handler(params)

        return checked

    def _apply_edit(self, params: Any) -> dict[str, Any]:
        try:
            check_notification("workspace/applyEdit", params)
        except PeerPayloadError as exc:
            log.warning("%s sent %s; not applied", self.spec.id, exc)
            if self._edit_sink is not None:
                self._edit_errors.append(exc)
            return {"applied": False, "failureReason": f"not applied: {exc}"}
        edit = params["edit"]
        if self._edit_sink is not None:
            self._edit_sink.append(edit)
            return {"applied": False, "failureReason": "kept for review: minitools stages edits before writing them"}
        return {"applied": False, "failureReason": "this client writes edits only through its own tools, after review"}

    async def capture_edits(self, command: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
        """Run a server command (workspace/executeCommand) and return the workspace edits it asks
        this client to apply, unapplied; PeerPayloadError when one of them was not a valid edit."""
        sink: list[dict[str, Any]] = []
        self._edit_sink = sink
        self._edit_errors = []
        try:
            await self.request("workspace/executeCommand", {"command": command.get("command"),
                                                            "arguments": command.get("arguments") or []}, timeout)
        finally:
            self._edit_sink = None
        if self._edit_errors:
            raise self._edit_errors[0]
        return sink

    def _configuration(self, params: Any) -> list[Any]:
        out: list[Any] = []
        for item in params["items"]:
            section = item.get("section")
            value: Any = self.spec.settings
            for part in (section or "").split(".") if section else []:
                value = value.get(part) if isinstance(value, dict) else None
            out.append(value if section else None)
        return out

    def _register(self, params: Any) -> None:
        for reg in params["registrations"]:
            if len(self.registrations) >= MAX_REGISTRATIONS and reg["id"] not in self.registrations:
                raise RPCError(INVALID_PARAMS, f"not registered: {self.spec.id} already registered {MAX_REGISTRATIONS} "
                               "capabilities")
            self.registrations[reg["id"]] = reg

    def _unregister(self, params: Any) -> None:
        for reg in params["unregisterations"]:
            self.registrations.pop(reg["id"], None)

    async def _initialize(self, timeout: float) -> None:
        assert self.rpc is not None
        options: dict[str, Any] = dict(self.spec.init_options)
        if self.spec.node_file_option:
            option, relative = self.spec.node_file_option
            found = find_node_file(relative, self.argv[0], self.root)
            if found:
                options[option] = {"path": found}
        result = await self.rpc.request("initialize", {
            "processId": os.getpid(),
            "clientInfo": {"name": "minitools"},
            "rootUri": path_to_uri(self.root),
            "rootPath": str(self.root),
            "workspaceFolders": [{"uri": path_to_uri(self.root), "name": self.root.name}],
            "capabilities": _client_capabilities(),
            "initializationOptions": options,
        }, timeout=timeout)
        check_result("initialize", result)
        self.capabilities = result.get("capabilities") or {}
        self.server_info = result.get("serverInfo") or {}
        encoding = self.capabilities.get("positionEncoding", "utf-16")
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"
        if self.spec.columns == "code_points":
            self.encoding = "utf-32"  # measured: it answers in code points whatever it claims
        await self.rpc.notify("initialized", {})
        if self.spec.push_settings:
            await self.rpc.notify("workspace/didChangeConfiguration", {"settings": self.spec.settings})

    # State ----------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.child is not None and self.child.returncode is None and self.rpc is not None \
            and self.rpc.connection is not None and not self.rpc.connection.is_closed

    @property
    def exit_error(self) -> BaseException | None:
        if self.rpc is None or self.rpc.connection is None:
            return None
        return self.rpc.connection.exception

    def supports(self, capability: str) -> bool:
        """Whether the server offers `capability` (statically or by dynamic registration)."""
        value = self.capabilities.get(capability)
        if value not in (None, False):
            return True
        method = {"renameProvider": "textDocument/rename", "codeActionProvider": "textDocument/codeAction",
                  "workspaceSymbolProvider": "workspace/symbol"}.get(capability)
        return method is not None and any(r.get("method") == method for r in self.registrations.values())

    async def wait_idle(self, timeout: float) -> bool:
        """Wait (bounded) until the server has no work in progress (an index being built);
        whether it is idle. Returns at once when the server reports none."""
        if not self.progress.busy:
            return True
        gone = self.rpc.connection.wait_closed() if self.rpc and self.rpc.connection else None
        return await self.progress.wait_idle(timeout, gone)

    async def wait_begun(self, timeout: float) -> bool:
        """Wait (bounded) until the server has begun some work at least once; whether it has."""
        if self.progress.seen:
            return True
        gone = self.rpc.connection.wait_closed() if self.rpc and self.rpc.connection else None
        return await self.progress.wait_begun(timeout, gone)

    # Documents ------------------------------------------------------------------------

    @_maps_wire_errors
    async def sync(self, path: Path) -> Document:
        """Open `path`, or re-send it when the file on disk changed since it was sent.
        NotRegularFile when it is no longer a regular file (never read: a FIFO would block);
        DocumentTooLarge past MAX_DOCUMENT_BYTES (never read either)."""
        uri = path_to_uri(path)
        doc = self.documents.get(uri)
        if doc is not None and not doc.is_stale():
            return doc
        stamp = disk_stamp(path)
        if stamp is not None and stamp[1] > MAX_DOCUMENT_BYTES:
            raise DocumentTooLarge(path, stamp[1])
        text = read_regular(path).decode("utf-8", errors="replace")
        assert self.rpc is not None
        if doc is None:
            doc = Document(path, uri, self.spec.language_id_of(path), 1, text, stamp)
            self.documents[uri] = doc
            self._unopened.pop(uri, None)  # its diagnostics are an open document's now
            await self.rpc.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": doc.language_id, "version": doc.version, "text": text}})
        else:
            doc.stamp = stamp
            if text == doc.text:
                return doc
            doc.version += 1
            doc.text = text
            await self.rpc.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": doc.version}, "contentChanges": [{"text": text}]})
        return doc

    @_maps_wire_errors
    async def wait_ready(self, doc: Document, timeout: float) -> bool:
        """After the first document is opened, wait (bounded) for the server's first publish for it.

        Servers give no readiness signal: basedpyright answers a query sent right after
        initialize before it has read its configuration and found the workspace's files, so
        cross-file references come back incomplete. The first publishDiagnostics for an opened
        document is the signal every catalog server gives that it has loaded the project.
        """
        if self.ready:
            return True
        try:
            found = await self.wait_diagnostics(doc.uri, 0, timeout=timeout, quiet=0.0)
        finally:
            self.ready = True  # wait once per server, whatever happened
        return found is not None

    @_maps_wire_errors
    async def save(self, doc: Document) -> None:
        """Tell the server the document was saved (servers such as pylsp lint on save)."""
        assert self.rpc is not None
        await self.rpc.notify("textDocument/didSave", {"textDocument": {"uri": doc.uri}, "text": doc.text})

    @_maps_wire_errors
    async def close(self, uri: str) -> None:
        """Close an open document (didClose): the server stops tracking its text, and what it
        published for it is kept as an unopened file's. A document not open is left alone."""
        if self.documents.pop(uri, None) is None:
            return
        self._unopened[uri] = None
        assert self.rpc is not None
        await self.rpc.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    @_maps_wire_errors
    async def resync_stale(self) -> list[Document]:
        """Re-send every open document whose file changed on disk; close those deleted or no
        longer regular files (a FIFO put in a document's place is never read)."""
        changed = []
        for uri, doc in list(self.documents.items()):
            if not doc.is_stale():
                continue
            try:
                changed.append(await self.sync(doc.path))
            except OSError:  # gone, no longer a regular file (NotRegularFile), unreadable
                await self.close(uri)
        return changed

    # Requests -------------------------------------------------------------------------

    @_maps_wire_errors
    async def request(self, method: str, params: Any, timeout: float) -> Any:
        assert self.rpc is not None
        return await self.rpc.request(method, params, timeout=timeout)

    # Diagnostics ----------------------------------------------------------------------

    def _publish(self, params: Any) -> None:
        uri = params["uri"]
        # normalise the server's spelling of the URI to ours
        uri = path_to_uri(uri_to_path(uri)) if uri.startswith("file:") else uri
        doc = self.documents.get(uri)
        version = params.get("version")
        if doc is not None and isinstance(version, int) and version < doc.version:
            return  # computed on text we have since replaced
        diagnostics = list(params.get("diagnostics") or [])
        now = asyncio.get_running_loop().time()
        if self.spec.merge_burst and uri in self._diag_time and now - self._diag_time[uri] <= self.spec.merge_burst:
            # one answer in several publishes (the row's merge_burst): what came before stays
            earlier = self.diagnostics.get(uri, [])
            diagnostics = earlier + [d for d in diagnostics if d not in earlier]
        self.diagnostics[uri] = diagnostics
        self._publishes += 1
        self._diag_seq[uri] = self._publishes
        self._diag_time[uri] = now
        if doc is None:
            self._unopened[uri] = None
            self._unopened.move_to_end(uri)
            while len(self._unopened) > UNOPENED_DIAGNOSTICS:
                gone, _ = self._unopened.popitem(last=False)
                for table in (self.diagnostics, self._diag_seq, self._diag_time):
                    table.pop(gone, None)
        self._diag_event.set()
        self._diag_event = asyncio.Event()

    def diagnostics_mark(self, uri: str) -> int:
        """A mark to pass to `wait_diagnostics`: publishes after it count as answers."""
        return self._diag_seq.get(uri, 0)

    @_maps_wire_errors
    async def wait_diagnostics(self, uri: str, mark: int, *, timeout: float, quiet: float,
                               idle: float | None = None) -> list[dict[str, Any]] | None:
        """The diagnostics published for `uri` after `mark`, once the server has been quiet
        for `quiet` seconds (a first empty push is often followed by the real one); None
        when nothing was published within `timeout`, or, with `idle`, as soon as the server has
        sent nothing at all for `idle` seconds and reports no work in progress (it is not going
        to publish: the wait ends by what the server does, not by the clock)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = started + timeout
        while True:
            now = loop.time()
            seq = self._diag_seq.get(uri, 0)
            if seq > mark:
                settled_at = self._diag_time[uri] + quiet
                if now >= settled_at or now >= deadline:
                    return self.diagnostics.get(uri, [])
                wait = min(settled_at, deadline) - now
            else:
                if now >= deadline:
                    return None
                wait = deadline - now
                if idle is not None and not self.progress.busy:
                    heard = max(started, self.rpc.connection.last_received if self.rpc and self.rpc.connection else started)
                    if now - heard >= idle:
                        return None
                    wait = min(wait, heard + idle - now)
            if not self.alive:
                err = self.exit_error
                raise err if err is not None else ConnectionClosed(f"{self.spec.id} is not running", peer=self.spec.id)
            event = self._diag_event
            closed = self.rpc.connection.wait_closed() if self.rpc and self.rpc.connection else asyncio.sleep(wait)
            waiters = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(closed)]
            try:
                await asyncio.wait(waiters, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    @_maps_wire_errors
    async def wait_settled(self, marks: Mapping[str, int], *, timeout: float, quiet: float,
                           optional: Collection[str] = ()) -> dict[str, list[dict[str, Any]] | None] | None:
        """What the server published for each uri of `marks` after its mark (None: nothing), once
        it is done with them all: each has been published for (but those in `optional`, which a
        server publishes for only when it had to check them again), it reports no work in
        progress, and it has published for none of them for `quiet` seconds. A server checks files
        in turn, and basedpyright publishes a file it is still checking as an empty list first
        (docs/reference.md), so one file's quiet period is not enough for many. None when the
        server is not done with them within `timeout`: what it published may be part of a check."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = started + timeout
        while True:
            now = loop.time()
            answered = {uri for uri, mark in marks.items() if self._diag_seq.get(uri, 0) > mark}
            waiting = set(marks) - answered - set(optional)
            settle = max([started, *(self._diag_time[uri] for uri in answered)]) + quiet
            if not waiting and not self.progress.busy and now >= settle:
                return {uri: list(self.diagnostics.get(uri, [])) if uri in answered else None for uri in marks}
            if now >= deadline:
                return None
            if not self.alive:
                err = self.exit_error
                raise err if err is not None else ConnectionClosed(f"{self.spec.id} is not running", peer=self.spec.id)
            wait = deadline - now if waiting or self.progress.busy else min(settle, deadline) - now
            closed = self.rpc.connection.wait_closed() if self.rpc and self.rpc.connection else asyncio.sleep(wait)
            waiters = [asyncio.ensure_future(self._diag_event.wait()), asyncio.ensure_future(self.progress.wait_changed()),
                       asyncio.ensure_future(closed)]
            try:
                await asyncio.wait(waiters, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    # Shutdown -------------------------------------------------------------------------

    async def stop(self, timeout: float = 3.0) -> None:
        """shutdown → exit → close stdin → terminate → kill, each bounded."""
        self.stopping = True
        if self.rpc is not None and self.alive:
            with contextlib.suppress(Exception):
                await self.rpc.request("shutdown", None, timeout=timeout)
            with contextlib.suppress(Exception):
                await self.rpc.notify("exit", None)
        if self.child is not None:
            await self.child.stop(close_timeout=timeout, term_timeout=2.0, kill_timeout=2.0)
        if self.rpc is not None:
            await self.rpc.close()
