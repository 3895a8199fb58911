"""The files a write may break besides those it wrote (docs/tools.md, "Write-time diagnostics"):
found, and their baseline taken, before the write (`Dependents.before`); their new diagnostics
collected after it (`Dependents.check`), judged by the run's ledger as the written files are.

Which files: those under the written file's server root that name, as a whole word, a symbol the
written file defines (its document symbols: the top level and the members of its classes; an
import, an include and a call all name what they use), and the documents that server already
has open. At most `lsp_dependents` files (0: none); the workspace is read for at most
`lsp_dependents_scan` seconds. A server whose diagnostics of a file depend on that file alone
(its catalog row's `single_file_diagnostics`) is not asked. After the change a server republishes
the open files it affects (basedpyright, typescript-language-server and clangd do; docs/reference.md).
A server's files are waited for together, before the write and after it (beside the written
files' own wait), until it is done with them, for at most `lsp_dependents_wait` seconds
(`LSPClient.wait_settled`). A file opened only for its baseline is closed again after the check,
so the server's open set does not grow over a run."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools.lsp import (
    LSPClient,
    NoServer,
    PeerPayloadError,
    ServerGone,
    check_result,
    disk_stamp,
    path_to_uri,
    read_regular,
)
from minitools.match import has_word, walk_files
from minitools.text import plural
from minitools.tools._records import DiagnosticRow, FileCheck
from minitools.tools.lsp._format import diagnostic_row, listed
from minitools.tools.lsp._ledger import Ledger, new_instances
from minitools.tools.lsp._outline import CALLABLE, symbol_tree
from minitools.tools.lsp._session import LSPSession, SessionPart
from minitools.transport import RPCError

__all__ = ["Dependents", "DependentsReport", "Sent", "Snapshot", "scan_for_names"]

MAX_NAMES = 64  # a written file's symbols looked for in the others
MAX_FILE_BYTES = 1 << 20  # a larger file is not read for them
SYMBOLS_TIMEOUT = 2.0  # the written file's document symbols, asked before the write
SHOWN_NAMES = 5  # files named in a one-line note
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
# what a failed step of a server looks like: it never fails the write's result (said in one line)
_FAILURES = (ServerGone, OSError, asyncio.TimeoutError, RPCError, PeerPayloadError, NoServer)

Row = DiagnosticRow


@dataclass(frozen=True)
class _Before:
    """An open document before the write: its diagnostics mark, what it had published (None:
    nothing yet) and the text that was about."""

    mark: int
    published: list[dict[str, Any]] | None
    text: str


Snapshot = dict[tuple[int, str], _Before]  # (id of the client, uri) -> the document before the write
# a written file whose new text its server was sent: (client, uri, mark, whether it may stay unpublished)
Sent = tuple[LSPClient, str, int, bool]


@dataclass
class _Dependent:
    """A file that may break when `writers` are written, and what it had before."""

    rel: str
    path: Path
    client: LSPClient
    uri: str
    writers: set[str]
    opened: bool  # opened for its baseline: closed after the check
    baseline: list[Row] | None = None


@dataclass
class _Scan:
    """Files that name some of the symbols (name count, path), and how many were left unread."""

    hits: list[tuple[int, str]] = field(default_factory=list)
    unread: int = 0


@dataclass
class DependentsReport:
    """What the check of the other files found: each file's entry, the new rows, and notes
    (a cap that cut the finding short, a failure, files the server gave no word on)."""

    files: list[FileCheck] = field(default_factory=list)
    new: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self, cap: int) -> list[str]:
        """The report as the model reads it, under its own heading."""
        out: list[str] = []
        broken = [e for e in self.files if e.get("new")]
        if broken:
            out.append("new in other files (this write broke them):")
            for entry in broken:
                out.append(f"  {entry['file']}: {plural(len(entry['new']), 'new diagnostic')} ({entry['server']})")
                out += listed(entry["new"], cap, "    ")
        for entry in self.files:
            if entry.get("new_minor"):
                out.append(f"other files: {entry['file']}: {entry['new_minor']} new hints/information (not listed)")
        out += [f"other files: {e['file']}: not checked: {e['unavailable']}" for e in self.files if e.get("unavailable")]
        out += self.notes
        checked = [e for e in self.files if e.get("checked")]
        if checked and not broken:
            out.append(f"checked {plural(len(checked), 'other file')} that may depend on it "
                       f"({_listed([e['file'] for e in checked])}): no new diagnostics")
        return out


def _listed(files: Sequence[str]) -> str:
    shown = ", ".join(files[:SHOWN_NAMES])
    return shown + (f" and {len(files) - SHOWN_NAMES} more" if len(files) > SHOWN_NAMES else "")


class Dependents(SessionPart):
    def __init__(self, session: LSPSession, ledger: Ledger) -> None:
        super().__init__(session)
        self.ledger = ledger  # the write-time record's: one ledger for written and other files
        self.pending: dict[str, _Dependent] = {}  # found before a write, checked after it
        self.found: dict[str, list[str]] = {}  # written file -> what finding its dependents left out
        # another file -> its disk stamp when its ledger entry was made here (that entry is its
        # baseline while the file is unchanged)
        self.seen: dict[str, tuple[int, int] | None] = {}

    # Before the write ----------------------------------------------------------------

    async def before(self, written: Sequence[tuple[Path, str]]) -> tuple[list[dict[str, Any]], list[str]]:
        """Find the files that may depend on `written` (files that exist: path, display name),
        open those not open, and take their baseline. Each found file's entry, and notes."""
        cap = self.s.dependents_cap
        if cap <= 0:
            return [], []
        rels = {rel for _, rel in written}
        # what an earlier call found for these files is found again; what was never checked
        # after (a write that did not happen) is let go beyond a bound
        for dep in [d for d in self.pending.values() if d.writers <= rels]:
            await self._let_go(dep)
        while len(self.pending) > 4 * cap:
            await self._let_go(next(iter(self.pending.values())))
        notes: list[str] = []
        waits: dict[int, tuple[LSPClient, dict[str, int], list[_Dependent]]] = {}  # per server
        for path, rel in written:
            self.found[rel] = []
            try:
                client = (await self.sup.client_for(path))[0]
                if client.spec.single_file_diagnostics:
                    continue
                chosen, left = await self._find(client, path, rel, {str(p) for p, _ in written})
            except _FAILURES as exc:
                notes.append(f"other files of {rel}: not looked for: {_reason(exc)}")
                continue
            self.found[rel] = left
            for dep_path in chosen:
                dep_rel = self.ctx.relpath(dep_path)
                known = self.pending.get(dep_rel)
                if known is not None:
                    known.writers.add(rel)
                    continue
                try:
                    dep, mark = await self._open(client, dep_path, dep_rel, rel)
                except _FAILURES as exc:
                    notes.append(f"other files: {dep_rel}: no baseline: {_reason(exc)}")
                    continue
                self.pending[dep_rel] = dep
                if mark is not None:
                    group = waits.setdefault(id(client), (client, {}, []))
                    group[1][dep.uri] = mark
                    group[2].append(dep)
        # each server's files are waited for together: it checks them in turn
        settled = await asyncio.gather(*(self._settled(client, marks) for client, marks, _ in waits.values()))
        for (client, _, deps), (found, failure) in zip(waits.values(), settled):
            lost = []
            for dep in deps:
                published = None if found is None else found.get(dep.uri)
                doc = client.documents.get(dep.uri)
                if published is not None and doc is not None:
                    dep.baseline = [diagnostic_row(client, dep.rel, doc.text, d) for d in published]
                else:  # no baseline in time: what the write broke there cannot be told; not kept open
                    await self._let_go(dep)
                    lost.append(dep.rel)
            if lost:
                why = failure or f"{client.spec.id} was not done checking them within {self.s.dependents_wait:g} s"
                notes.append(f"other files: no baseline for {_listed(lost)}: {why} (lsp_dependents_wait)")
        entries = [{"file": d.rel, "server": d.client.spec.id, "baseline": True, "total": len(d.baseline or [])}
                   for d in self.pending.values() if d.writers & rels]
        notes += [note for rel in rels for note in self.found.get(rel, [])]
        return entries, notes

    async def _find(self, client: LSPClient, path: Path, rel: str, skip: set[str]) -> tuple[list[Path], list[str]]:
        """The files that may depend on `path` (best first, at most the cap), and what was left
        out; `skip` are the written files."""
        doc = await client.sync(path)
        try:
            names = await _defined_names(client, doc.uri)
        except (asyncio.TimeoutError, RPCError, PeerPayloadError):  # busy or no such request: by its name alone
            names = []
        names = names or [w for w in [path.stem] if _IDENTIFIER.fullmatch(w)]
        words = [n.encode() for n in names]
        opened = [d for d in client.documents.values() if str(d.path) not in skip]
        open_hits = [(sum(has_word(d.text.encode(), w) for w in words), str(d.path)) for d in opened]
        top = os.path.realpath(client.root)
        scan = await asyncio.to_thread(scan_for_names, top, tuple(client.spec.extensions), words,
                                       skip | {p for _, p in open_hits}, time.monotonic() + self.s.dependents_scan)
        here = str(path.parent)
        ranked = sorted([h for h in open_hits if h[0]] + scan.hits,
                        key=lambda h: (-h[0], os.path.dirname(h[1]) != here, h[1]))
        ranked += sorted(h for h in open_hits if not h[0])  # open: the server has them at hand
        cap = self.s.dependents_cap
        left: list[str] = []
        if len(ranked) > cap:
            left.append(f"other files of {rel}: {plural(len(ranked) - cap, 'more file')} may depend on it; the first "
                        f"{cap} were checked (lsp_dependents)")
        if scan.unread:
            left.append(f"other files of {rel}: the workspace was read for {self.s.dependents_scan:g} s "
                        f"(lsp_dependents_scan); {plural(scan.unread, 'file')} not read")
        return [Path(p) for _, p in ranked[:cap]], left

    async def _open(self, client: LSPClient, path: Path, rel: str, writer: str) -> tuple[_Dependent, int | None]:
        """`path` as a dependent, opened (or re-sent) when its server does not have its current
        text; the mark to wait from for its baseline (None: it has one already). What it
        published stands for an open document; for one the server does not have, what the last
        check found stands when the file is as it was then (its disk stamp), as a written file's
        ledger entry does (docs/tools.md): only a file never checked is waited for."""
        uri = path_to_uri(path)
        doc = client.documents.get(uri)
        if doc is not None and not doc.is_stale() and uri in client.diagnostics:
            rows = [diagnostic_row(client, rel, doc.text, d) for d in client.diagnostics[uri]]
            return _Dependent(rel, path, client, uri, {writer}, False, rows), None
        stamp = disk_stamp(path)
        known = self.ledger.get(rel) if stamp is not None and self.seen.get(rel) == stamp else None
        mark = client.diagnostics_mark(uri)
        await client.sync(path)
        return _Dependent(rel, path, client, uri, {writer}, doc is None, known), None if known is not None else mark

    async def _settled(self, client: LSPClient, marks: dict[str, int], optional: Collection[str] = ()
                       ) -> tuple[dict[str, list[dict[str, Any]] | None] | None, str]:
        """What `client` published for each of `marks`' uris once it is done with them (None: it
        was not within `lsp_dependents_wait`), and why nothing ("": it did not fail)."""
        try:
            return await client.wait_settled(marks, timeout=self.s.dependents_wait, quiet=self.s.diag_quiet,
                                             optional=optional), ""
        except ServerGone as exc:
            self.sup.acknowledge_crash(client)
            return None, f"{client.spec.id} crashed: {exc}"

    # After the write -----------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """Before the written files are sent: each open document's mark and what it had."""
        out: Snapshot = {}
        for client in self.sup.running():
            for uri, doc in client.documents.items():
                out[(id(client), uri)] = _Before(client.diagnostics_mark(uri), client.diagnostics.get(uri), doc.text)
        return out

    async def check(self, written: set[str], clients: Sequence[LSPClient], sent: Sequence[Sent],
                    before: Snapshot) -> DependentsReport:
        """The new diagnostics of the files that may depend on `written`, whose servers (`clients`)
        have been sent the written files' text: the files found before the write, and (for written
        files no baseline was taken for) the documents their servers have open. `sent` are the
        written files whose new text a server was sent (client, uri, mark, and whether it may stay
        unpublished): once their server has published for them and is done, a dependent it did not
        publish for again is as it was (a server republishes what the change made it check)."""
        report = DependentsReport()
        deps = [d for d in self.pending.values() if d.writers & written]
        for dep in deps:
            del self.pending[dep.rel]
        deps = [d for d in deps if d.rel not in written]  # written after all: checked as such
        if self.s.dependents_cap > 0:
            deps += self._open_documents(written, clients, {d.rel for d in deps}, before)
            for rel in written:
                report.notes += self.found.pop(rel, [])
        cap = self.s.dependents_cap
        if len(deps) > cap:
            report.notes.append(f"other files: {plural(len(deps) - cap, 'more file')} may depend on the written ones; "
                                f"the first {cap} were checked (lsp_dependents)")
            for dep in deps[cap:]:
                await self._close(dep)
            deps = deps[:cap]
        groups: dict[int, list[_Dependent]] = {}
        for dep in deps:
            groups.setdefault(id(dep.client), []).append(dep)
        found = await asyncio.gather(*(self._check_server(group, before, [w for w in sent if w[0] is group[0].client])
                                       for group in groups.values()))
        entries = [entry for group in found for entry in group]
        for dep in deps:
            await self._close(dep)
        for entry in entries:
            report.files.append(entry)
            report.new += entry.get("new", [])
        return report

    def _open_documents(self, written: set[str], clients: Sequence[LSPClient], taken: set[str],
                        before: Snapshot) -> list[_Dependent]:
        """The open documents of the written files' servers, for written files found nothing for
        before the write (`before` was not called): what each had published is its baseline."""
        if all(rel in self.found for rel in written):
            return []
        out = []
        for client in dict.fromkeys(clients):
            if client.spec.single_file_diagnostics:
                continue
            for uri, doc in sorted(client.documents.items()):
                rel = self.ctx.relpath(doc.path)
                had = before.get((id(client), uri))
                if rel in written or rel in taken or had is None or had.published is None or doc.is_stale():
                    continue
                # what it had published before the write: anything already there, reported or not,
                # is not what this write broke
                baseline = [diagnostic_row(client, rel, had.text, d) for d in had.published]
                out.append(_Dependent(rel, doc.path, client, uri, set(written), False, baseline))
                taken.add(rel)
        return out

    async def _check_server(self, deps: list[_Dependent], before: Snapshot, sent: Sequence[Sent]) -> list[FileCheck]:
        """The entries of one server's dependents, waited for together (it checks them in turn),
        with the written files it was sent new text of (it has taken the change in once it has
        published for them)."""
        client, server = deps[0].client, deps[0].client.spec.id
        if not client.alive:  # it took their baseline, and has gone since
            return [{"file": dep.rel, "server": server, "checked": False,
                     "unavailable": f"{server} crashed after their baseline was taken"} for dep in deps]
        entries: list[FileCheck] = []
        marks: dict[str, int] = {}
        for dep in deps:
            had = before.get((id(client), dep.uri))
            if had is None or dep.baseline is None:
                entries.append({"file": dep.rel, "server": server, "checked": False,
                                "unavailable": "no baseline before the write"})
            else:  # nothing new sent to its server: the last publish stands (a mark one below it)
                marks[dep.uri] = had.mark if sent or had.mark == 0 else had.mark - 1
        optional = set(marks)
        checked = list(marks)
        for _, uri, mark, may_stay in sent:
            marks[uri] = mark
            if may_stay:
                optional.add(uri)
        found, failure = await self._settled(client, marks, optional) if checked else ({}, "")
        for dep in deps:
            if dep.uri in checked:
                entries.append(self._judged(dep, found, failure))
        return entries

    def _judged(self, dep: _Dependent, found: dict[str, list[dict[str, Any]] | None] | None, failure: str) -> FileCheck:
        """A dependent's entry: its new diagnostics against its baseline, or why there are none."""
        client, server = dep.client, dep.client.spec.id
        doc = client.documents.get(dep.uri)
        if failure or found is None or doc is None:
            why = failure or f"{server} was not done checking it within {self.s.dependents_wait:g} s (lsp_dependents_wait)"
            return {"file": dep.rel, "server": server, "checked": False, "unavailable": why}
        published = found.get(dep.uri)
        baseline = dep.baseline or []
        # not published again: the change did not make its server check it, and what it had stands
        rows = baseline if published is None else [diagnostic_row(client, dep.rel, doc.text, d) for d in published]
        self.ledger[dep.rel] = rows
        self.seen[dep.rel] = doc.stamp
        fresh = new_instances(rows, baseline)
        new = [r for r in fresh if r["severity"] in ("error", "warning")]
        return {"file": dep.rel, "server": server, "checked": True, "new": new, "new_minor": len(fresh) - len(new),
                "total": len(rows), "baseline": True}

    async def _let_go(self, dep: _Dependent) -> None:
        self.pending.pop(dep.rel, None)
        await self._close(dep)

    async def _close(self, dep: _Dependent) -> None:
        """Close a file opened only for its baseline (a server gone has let it go already; its
        crash is said by the next call that needs it)."""
        if not dep.opened or not dep.client.alive:
            return
        with contextlib.suppress(ServerGone):
            await dep.client.close(dep.uri)


async def _defined_names(client: LSPClient, uri: str) -> list[str]:
    """The names the file at `uri` defines, by its document symbols: the top level, and the
    members of what is not a function (a class's methods and fields); [] when the server has none."""
    if not client.supports("documentSymbolProvider"):
        return []
    answer = await client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, SYMBOLS_TIMEOUT)
    check_result("textDocument/documentSymbol", answer)
    names: list[str] = []
    for node in symbol_tree(answer, uri):
        names.append(str(node.item.get("name", "")))
        if node.item.get("kind") not in CALLABLE:
            names += [str(child.item.get("name", "")) for child in node.children]
    return list(dict.fromkeys(n for n in names if _IDENTIFIER.fullmatch(n)))[:MAX_NAMES]


def scan_for_names(root: str, extensions: tuple[str, ...], words: list[bytes], skip: set[str],
                   deadline: float) -> _Scan:
    """The files under `root` with one of `extensions` that hold one of `words` as a whole word
    (with how many of them), walked as a search walks (ignore files, no hidden or dependency
    folders), read until `deadline` (time.monotonic); `skip` are left out."""
    scan = _Scan()
    files = [f for f in walk_files(root, root, None) if os.path.splitext(f)[1].lower() in extensions and f not in skip]
    for k, name in enumerate(files):
        if time.monotonic() > deadline:
            scan.unread = len(files) - k
            break
        try:
            if os.path.getsize(name) > MAX_FILE_BYTES:
                continue
            data = read_regular(Path(name))
        except OSError:
            continue
        count = sum(has_word(data, w) for w in words)
        if count:
            scan.hits.append((count, name))
    return scan


def _reason(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return "the server did not answer in time"
    if isinstance(exc, OSError):
        return f"cannot be read ({(exc.strerror or str(exc)).lower()})"
    if isinstance(exc, ServerGone):
        return f"the server is gone ({exc})"
    return str(exc) or type(exc).__name__
