"""The write-time diagnostics record: after a write, sync and save each written file through
its server and report only the diagnostics that are new to this run (docs/tools.md,
"Write-time diagnostics"), against a baseline taken before the write (`before_write`); and,
beside them, the files that depend on them (`_dependents`). It is the run's
`RunContext.diagnostics` service, which `Run.before_write`, `Run.written`, `Run.wrap`,
`ast_edit`'s accept and `lsp_rename` call."""

from __future__ import annotations

import asyncio
import os
import re
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from minitools.lsp import Document, DocumentTooLarge, LSPClient, NoServer, NotRegularFile, ServerGone, file_kind, path_to_uri
from minitools.text import plural
from minitools.tools._context import shown_path, unusable_path
from minitools.tools._records import Baseline, DiagnosticRow, FileCheck, Unavailable, Written
from minitools.tools.lsp._dependents import Dependents
from minitools.tools.lsp._format import diagnostic_row, listed
from minitools.tools.lsp._ledger import Ledger, new_instances
from minitools.tools.lsp._session import LSPSession, SessionPart

__all__ = ["WriteDiagnostics"]

Row = DiagnosticRow


class WriteDiagnostics(SessionPart):
    def __init__(self, session: LSPSession) -> None:
        super().__init__(session)
        # file -> its diagnostics (rows) last reported or taken as the baseline
        self.ledger: Ledger = {}
        self.dependents = Dependents(session, self.ledger)

    def shown(self, rel: str, rows: list[Row]) -> None:
        """`rows` (all diagnostics of `rel`) were shown to the model: none of them is new any more."""
        self.ledger[rel] = list(rows)

    async def before_write(self, paths: Sequence[str]) -> Baseline:
        """Take the baseline of `paths`, which the host is about to write: the diagnostics of
        their current text, so that the check after the write reports only what it introduced.

        Files already in the ledger keep it (no server call); a file that does not exist yet
        has an empty baseline; a server that publishes nothing in time leaves no baseline, and
        the check after the write says so."""
        entries: list[dict[str, Any]] = []
        pending: list[_Synced] = []
        existing: list[tuple[Path, str]] = []  # whose dependents may break
        seen: set[str] = set()
        for raw in paths:
            path, rel, reason = self._place(raw, must_exist=False)
            if rel in seen:
                continue  # one file named twice ("a.py", "./a.py") has one baseline
            seen.add(rel)
            if reason:
                entries.append({"file": rel, "baseline": False, "reason": reason})
            elif rel in self.ledger:
                entries.append({"file": rel, "baseline": True, "from": "earlier check"})
                existing += [(path, rel)] if path.exists() else []
            elif not path.exists():
                self.ledger[rel] = []
                entries.append({"file": rel, "baseline": True, "from": "new file"})
            else:
                existing.append((path, rel))
                synced = await self._send(path, rel, save=False)
                if isinstance(synced, dict):
                    entries.append(dict(synced, baseline=False))
                else:
                    pending.append(synced)
        # the dependents' baseline is taken while the written files' is waited for
        found_all, (others, notes) = await asyncio.gather(asyncio.gather(*(self._wait(s) for s in pending)),
                                                          self.dependents.before(existing))
        for synced, found in zip(pending, found_all):
            if isinstance(found, str):
                entries.append({"file": synced.rel, "server": synced.client.spec.id, "baseline": False, "reason": found})
                continue
            self.ledger[synced.rel] = [diagnostic_row(synced.client, synced.rel, synced.doc.text, d) for d in found]
            entries.append({"file": synced.rel, "server": synced.client.spec.id, "baseline": True, "from": "server",
                            "total": len(found)})
        taken = sum(1 for e in entries if e["baseline"])
        lines = [f"baseline taken for {taken} of {plural(len(entries), 'file')}"]
        lines += [f"  {e['file']}: no baseline: {e['reason']}" for e in entries if not e["baseline"]]
        if others:
            lines.append(f"and for {plural(len(others), 'other file')} that may depend on them: "
                         f"{', '.join(e['file'] for e in others)}")
        lines += notes
        return Baseline("\n".join(lines), entries, others=others, notes=notes)

    async def written(self, paths: Sequence[str], renamed: tuple[str, str] | None = None) -> Written:
        """Sync and save `paths` through their servers; report only diagnostics new to the ledger.

        `renamed` (old, new) is a rename's: a diagnostic known before whose message and line named
        the old name is the same diagnostic when they name the new one ("Variable "total" is not
        accessed" is not new as "Variable "sum_all" is not accessed")."""
        files: list[FileCheck] = []
        new_all: list[Row] = []
        unavailable: list[Unavailable] = []
        # Every file is sent before any is checked: diagnostics of one file of a multi-file
        # write (a rename, an accepted edit) depend on the others' new text. The files that
        # depend on them are waited for beside them, from their state before the first was sent.
        before = self.dependents.snapshot()
        synced: list[FileCheck | _Synced] = []
        seen: set[str] = set()
        for raw in paths:
            path, rel, reason = self._place(raw)
            if rel in seen:
                continue  # one file named twice is sent, saved and checked once (200 times took 45 s)
            seen.add(rel)
            synced.append(await self._send(path, rel, save=True) if not reason
                          else {"file": rel, "checked": False, "reason": reason})
        sent = [s for s in synced if isinstance(s, _Synced)]
        checks, others = await asyncio.gather(
            asyncio.gather(*(self._check_written(s, renamed) for s in synced)),
            self.dependents.check({s["file"] if isinstance(s, dict) else s.rel for s in synced}, [s.client for s in sent],
                                  [(s.client, s.uri, s.mark, s.client.spec.silent_when_clean and not s.baseline)
                                   for s in sent if s.changed], before))
        for entry in checks:
            files.append(entry)
            new_all.extend(entry.get("new", []))
            if entry.get("unavailable"):
                unavailable.append({"file": entry["file"], "reason": entry["unavailable"]})
        cap = self.s.diag_cap
        lines = []
        for entry in files:
            if entry.get("unavailable"):
                lines.append(f"{entry['file']}: diagnostics unavailable: {entry['unavailable']}")
            elif entry.get("new") and entry.get("baseline") is False:
                n = len(entry["new"])
                lines.append(f"{entry['file']}: {plural(n, 'diagnostic')} ({entry['server']}); no baseline: the file "
                             "was not checked before this write, so these are all its current diagnostics, not only "
                             "the ones the write introduced")
            elif entry.get("new"):
                lines.append(f"{entry['file']}: {plural(len(entry['new']), 'new diagnostic')} ({entry['server']})")
            if entry.get("new"):
                lines += listed(entry["new"], cap)
            if entry.get("new_minor"):
                lines.append(f"{entry['file']}: {entry['new_minor']} new hints/information (not listed)")
        checked = [e for e in files if e.get("checked")]
        # a file left out for a reason of its own (outside the root, a FIFO, gone) says so
        skipped = [f"{e['file']}: not checked: {e['reason']}" for e in files if e.get("reason")]
        if not lines and not skipped:
            lines = [f"checked {plural(len(checked), 'file')}: no new diagnostics" if checked
                     else "no file was checked"]
        elif not lines and checked:
            lines = [f"checked {plural(len(checked), 'file')}: no new diagnostics"]
        elif not lines:
            lines = [f"no file was checked ({plural(len(skipped), 'file')} left out)"]
        lines += skipped
        lines += others.lines(cap)
        no_baseline = [e["file"] for e in checked if e.get("baseline") is False]
        return Written("\n".join(lines), files, new_all, unavailable, bool(checked), no_baseline,
                       others=others.files, others_new=others.new, others_notes=others.notes)

    # Steps --------------------------------------------------------------------------

    def _place(self, raw: str, *, must_exist: bool = True) -> tuple[Path, str, str]:
        """`raw` as an absolute path, its display name, and why it is not checked ("" when it is)."""
        problem = unusable_path(raw)
        if problem:
            return self.ctx.root, shown_path(raw), f"not a usable path: it {problem}"
        path = Path(raw) if os.path.isabs(raw) else self.ctx.root / raw
        path = Path(os.path.realpath(path))
        rel = self.ctx.relpath(path)
        if path != self.ctx.root and self.ctx.root not in path.parents:
            return path, rel, "outside the workspace root"
        try:
            mode: int | None = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as exc:
            return path, rel, _unreadable(exc)
        if mode is None and must_exist:
            return path, rel, "not a file (deleted?)"
        if mode is not None and not stat.S_ISREG(mode):
            return path, rel, _unreadable(NotRegularFile(path, file_kind(mode)))
        if self.sup.catalog.language_of(path) is None:
            return path, rel, "no language server serves this kind of file"
        return path, rel, ""

    async def _send(self, path: Path, rel: str, *, save: bool) -> FileCheck | _Synced:
        """Open or re-send `path` to its server (and save it); the mark to wait from."""
        try:
            client, _notes = await self.sup.client_for(path)
        except NoServer as exc:
            return {"file": rel, "checked": False, "reason": str(exc)}
        uri = path_to_uri(path)
        # the baseline is what was known before this write: what we reported, else what the
        # server had published for the file before (those the write did not break)
        baseline = self.ledger.get(rel)
        if baseline is None and uri in client.diagnostics and uri in client.documents:
            baseline = [diagnostic_row(client, rel, client.documents[uri].text, d) for d in client.diagnostics[uri]]
        try:
            mark = client.diagnostics_mark(uri)
            before = client.documents.get(uri)
            version = before.version if before else 0
            doc = await client.sync(path)
            if save:
                await client.save(doc)
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            return {"file": rel, "server": client.spec.id, "checked": False, "unavailable": f"{client.spec.id} crashed: {exc}"}
        except OSError as exc:  # replaced meanwhile by a FIFO (NotRegularFile, never read), or gone
            return {"file": rel, "checked": False, "reason": _unreadable(exc)}
        changed = doc.version != version
        if not changed and mark > 0:
            mark -= 1  # nothing new was sent: the last publish stands for this text
        return _Synced(rel, client, uri, doc, mark, baseline, changed)

    async def _wait(self, synced: _Synced) -> list[dict[str, Any]] | str:
        """The diagnostics published after the sync, or why there are none."""
        client, timeout = synced.client, self.s.diag_timeout
        started = time.monotonic()
        try:
            found = await client.wait_diagnostics(synced.uri, synced.mark, timeout=timeout, quiet=self.s.diag_quiet,
                                                  idle=self.s.diag_idle)
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            return f"{client.spec.id} crashed: {exc}"
        if found is None:
            if time.monotonic() - started < timeout:
                return (f"{client.spec.id} published nothing for it and went quiet for {self.s.diag_idle:g} s "
                        "(not checked, not clean; lsp diagnostics on the file asks again)")
            return f"{client.spec.id} published nothing within {timeout:g} s (not checked, not clean)"
        return found

    async def _check_written(self, synced: FileCheck | _Synced, renamed: tuple[str, str] | None = None) -> FileCheck:
        if isinstance(synced, dict):
            return synced
        rel, client, server = synced.rel, synced.client, synced.client.spec.id
        found = await self._wait(synced)
        if isinstance(found, str):
            return {"file": rel, "server": server, "checked": False, "unavailable": found}
        rows = [diagnostic_row(client, rel, synced.doc.text, d) for d in found]
        self.ledger[rel] = rows
        fresh = new_instances(rows, _renamed(synced.baseline or [], renamed))
        new = [r for r in fresh if r["severity"] in ("error", "warning")]
        return {"file": rel, "server": server, "checked": True, "new": new, "new_minor": len(fresh) - len(new),
                "total": len(rows), "baseline": synced.baseline is not None}


def _unreadable(exc: OSError) -> str:
    """Why a file was not read, as `written` reports it."""
    if isinstance(exc, NotRegularFile):
        return f"{exc.kind}, not a regular file (never opened for reading)"
    if isinstance(exc, DocumentTooLarge):
        return f"{exc.reason} (never opened)"
    return f"cannot be read ({(exc.strerror or str(exc)).lower()})"


def _renamed(rows: list[Row], renamed: tuple[str, str] | None) -> list[Row]:
    """`rows` as they read after `renamed` (old, new): the old name, as a whole word, replaced in
    their messages and line texts."""
    if renamed is None:
        return rows
    old, new = renamed
    word = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
    return [cast(Row, {**row, "message": word.sub(new, row["message"]), "text": word.sub(new, row["text"])})
            for row in rows]


@dataclass
class _Synced:
    """A written file sent to its server, whose diagnostics are still to come."""

    rel: str
    client: LSPClient
    uri: str
    doc: Document
    mark: int
    baseline: list[Row] | None
    changed: bool = True  # the server was sent new text (else what it published stands)
