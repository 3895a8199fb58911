"""The write-time diagnostics record: after a write, sync and save each written file through
its server and report only the diagnostics that are new to this run (docs/tools.md,
"Write-time diagnostics"). It is the run's `RunContext.diagnostics` service, which
`Run.written`, `Run.wrap`, `ast_edit`'s accept and `lsp_rename` call."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minitools.lsp import Document, LSPClient, NoServer, language_of, path_to_uri
from minitools.protocol import ProtocolError
from minitools.tools._lsp_format import diagnostic_row, format_diagnostic
from minitools.tools._lsp_session import LSPSession
from minitools.toolspec import ToolResult
from minitools.transport import ConnectionClosed

__all__ = ["WriteDiagnostics"]

Key = tuple[Any, Any, str]


class WriteDiagnostics:
    def __init__(self, session: LSPSession) -> None:
        self.s = session
        self.ctx = session.ctx
        self.sup = session.sup
        # file -> Counter of (severity, code, message) last reported
        self.ledger: dict[str, Counter[Key]] = {}

    def shown(self, rel: str, rows: list[dict[str, Any]]) -> None:
        """`rows` (all diagnostics of `rel`) were shown to the model: none of them is new any more."""
        self.ledger[rel] = Counter(_key(d) for d in rows)

    async def written(self, paths: Sequence[str]) -> ToolResult:
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
        cap = self.s.diag_cap
        lines = []
        for entry in files:
            if entry.get("unavailable"):
                lines.append(f"{entry['file']}: diagnostics unavailable: {entry['unavailable']}")
            elif entry.get("new"):
                lines.append(f"{entry['file']}: {len(entry['new'])} new diagnostic{'s' if len(entry['new']) != 1 else ''} ({entry['server']})")
                lines.extend("  " + format_diagnostic(d) for d in entry["new"][:cap])
                if len(entry["new"]) > cap:
                    lines.append(f"  ... and {len(entry['new']) - cap} more")
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
        timeout = self.s.diag_timeout
        try:
            found = await client.wait_diagnostics(uri, mark, timeout=timeout, quiet=self.s.diag_quiet)
        except (ConnectionClosed, ProtocolError) as exc:
            self.sup.acknowledge_crash(client)
            return {"file": rel, "server": client.spec.id, "checked": False, "unavailable": f"{client.spec.id} crashed: {exc}"}
        if found is None:
            return {"file": rel, "server": client.spec.id, "checked": False,
                    "unavailable": f"{client.spec.id} published nothing within {timeout:g} s (not checked, not clean)"}
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
    client: LSPClient
    uri: str
    doc: Document
    mark: int
    baseline: Counter[Key] | None


def _key(row: dict[str, Any]) -> Key:
    # the ledger key: severity, code and message — position deliberately left out
    # (docs/tools.md), so a diagnostic that merely moved is not new; kept per file
    return (row["severity"], row["code"], row["message"])
