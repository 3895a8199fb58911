"""The servers behind the lsp queries (docs/tools.md, "lsp"): the root's servers started (each
sub-project's too) and made ready for a project-wide query, a server's index waited for once,
bounded, the note on an answer given while a server still works, and `status` (which servers
run and why not)."""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from minitools.lsp import LSPClient, NoServer, ServerGone, project_roots
from minitools.progress import ProgressState, progress_from
from minitools.tools.lsp._session import LSPSession, SessionPart
from minitools.toolspec import ToolResult

__all__ = ["Servers", "ServerQueries"]


class Servers(SessionPart):
    """The steps a query takes on its servers before it asks, and the `status` action."""

    def __init__(self, session: LSPSession) -> None:
        super().__init__(session)
        # a project-wide query waits for a server's index (its work in progress) once per
        # server, bounded: later ones answer at once, marked incomplete while it still works
        self.index_timeout = float(self.ctx.option("lsp_index_timeout", 30.0))
        self._index_waited: weakref.WeakSet[LSPClient] = weakref.WeakSet()

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

    async def wait_index(self, client: LSPClient) -> None:
        announces = client.spec.announces_index  # its index begins only after it first answers
        if client in self._index_waited or not (client.progress.busy or (announces and not client.progress.seen)):
            return
        self._index_waited.add(client)
        with progress_from(lambda: _indexing(client)):
            if announces:
                await client.wait_begun(announces)
            await client.wait_idle(self.index_timeout)

    def incomplete(self, client: LSPClient) -> list[str]:
        """The note for an answer given while the server still works (its index being built)."""
        if not client.progress.busy:
            return []
        return [f"{client.spec.id} is still {client.progress.describe()}: this answer may be incomplete; "
                "ask again when it is done (lsp status shows its progress)."]

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
                if client.spec.serves(name):
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


def _indexing(client: LSPClient) -> ProgressState | None:
    """What a server the call waits for is still doing ("indexing 5/13"), with its percentage."""
    doing = client.progress.describe()
    if not doing:
        return None
    percent = next((w.percentage for w in client.progress.active.values() if w.percentage is not None), None)
    return (f"waiting for {client.spec.id}: {doing}", percent, None if percent is None else 100)


class ServerQueries(SessionPart):
    """A part of the lsp family that asks the servers, through the steps `servers` takes first."""

    def __init__(self, session: LSPSession, servers: Servers) -> None:
        super().__init__(session)
        self.servers = servers
