"""The supervisor: one server per (server, root), started lazily on the first query that
needs it, reused after; a crash is reported once (exit code, stderr tail) and the server
restarted on the next call; `reload` restarts; `close` stops every server.

Detection is an intersection (docs/tools.md, "lsp"): a root marker must exist AND the binary must
resolve, where "resolves" means it spawns and answers initialize — a stub on PATH that
exits is not a server (docs/reference.md, "Language servers": the rustup rust-analyzer stub).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minitools.lsp._catalog import BUILT_IN, ServerCatalog, ServerSpec, find_binary, find_root
from minitools.lsp._client import LSPClient, ServerStartError
from minitools.lsp._state import ServerState, check_move
from minitools.tracing import Tracer
from minitools.transport import ChildProcess

__all__ = ["Supervisor", "NoServer", "Candidate", "CheckerResult"]

Key = tuple[str, Path]


class NoServer(Exception):
    """No server can serve this file; the message says why, candidate by candidate."""

    def __init__(self, message: str, candidates: list[Candidate] | None = None) -> None:
        super().__init__(message)
        self.candidates = candidates or []


@dataclass
class Candidate:
    """One catalog server considered for a file or the workspace, and why it is (not) usable."""

    server: str
    language: str
    root: Path | None
    binary: str | None
    state: ServerState
    reason: str

    def to_json(self, top: Path) -> dict[str, Any]:
        root = None
        if self.root is not None:
            root = "." if self.root == top else os.path.relpath(self.root, top)
        return {"server": self.server, "language": self.language, "root": root, "binary": self.binary,
                "state": self.state, "reason": self.reason}


@dataclass
class CheckerResult:
    argv: list[str]
    returncode: int | None
    output: str
    timed_out: bool


class Supervisor:
    """Language servers for one workspace `root`."""

    def __init__(self, root: Path, *, tracer: Tracer | None = None, search_path: list[Path] | None = None,
                 prefer: dict[str, list[str]] | None = None, init_timeout: float = 30.0,
                 catalog: ServerCatalog = BUILT_IN) -> None:
        self.root = root
        self.catalog = catalog  # the built-in servers and those the configuration adds
        self.tracer = tracer
        self.prefer = prefer or {}
        self.init_timeout = init_timeout
        self.search_path = [root / "node_modules" / ".bin", root / ".venv" / "bin", root / "venv" / "bin",
                            *(search_path or []), Path(sys.executable).parent]
        self.clients: dict[Key, LSPClient] = {}
        self.failed: dict[Key, str] = {}
        self.crashes: dict[Key, str] = {}  # crash message not yet reported
        self.states: dict[Key, ServerState] = {}  # each started server's last move
        self._locks: dict[Key, asyncio.Lock] = {}
        self._watchers: set[asyncio.Task[None]] = set()
        self._probed: dict[str, str] = {}  # a row's probe: what it said ("" it passed)
        self.closed = False

    # Detection ------------------------------------------------------------------------

    def binary(self, spec: ServerSpec) -> str | None:
        found = find_binary(spec.argv[0], self.search_path)
        return found if found is None or not spec.probe or not self.probe_problem(spec, found) else None

    def probe_problem(self, spec: ServerSpec, binary: str) -> str:
        """Why `binary` with the row's `probe` does not prove the server installed ("" when it
        does); run once per server, then remembered."""
        if spec.id not in self._probed:
            argv = [binary, *spec.probe]
            try:
                done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=10,
                                      env=self.env(), start_new_session=True)
            except (OSError, subprocess.TimeoutExpired) as exc:
                self._probed[spec.id] = f"`{' '.join(argv)}` did not run: {exc}"
            else:
                first = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
                self._probed[spec.id] = "" if done.returncode == 0 else \
                    f"`{' '.join(argv)}` exited with {done.returncode}" + (f": {first[0][:200]}" if first else "")
        return self._probed[spec.id]

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        dirs = [str(p) for p in self.search_path if p.is_dir()]
        env["PATH"] = os.pathsep.join([*dirs, env.get("PATH", "")])
        return env

    def candidates(self, path: Path, language: str) -> list[Candidate]:
        """Every catalog server for `language`, with its root for `path` and its state."""
        out = []
        for spec in self.catalog.servers_for(language, self.prefer.get(language)):
            root = find_root(path, spec.root_markers, self.root) or (self.root if spec.marker_optional else None)
            binary = self.binary(spec)
            if root is None:
                where = (f"at {os.path.relpath(path.parent, self.root)}" if path.name.startswith("__probe__")
                         else f"between {os.path.relpath(path, self.root)} and the workspace root")
                out.append(Candidate(spec.id, language, None, binary, ServerState.NO_ROOT,
                                     f"no root marker ({', '.join(spec.root_markers)}) {where}"))
                continue
            if binary is None:
                found = find_binary(spec.argv[0], self.search_path)
                out.append(Candidate(spec.id, language, root, None, ServerState.NO_BINARY,
                                     f"{spec.id} is not installed: {self.probe_problem(spec, found)}" if found else
                                     f"{spec.argv[0]} is not installed (not on PATH nor in the project's node_modules/.bin or .venv/bin)"))
                continue
            key = (spec.id, root)
            client = self.clients.get(key)
            if client is not None and client.alive:
                out.append(Candidate(spec.id, language, root, binary, ServerState.RUNNING, f"running (pid {client.child.pid if client.child else '?'})"))
            elif client is not None or key in self.crashes:
                out.append(Candidate(spec.id, language, root, binary, ServerState.CRASHED,
                                     self.crashes.get(key) or "exited; restarts on the next call"))
            elif key in self.failed:
                out.append(Candidate(spec.id, language, root, binary, ServerState.FAILED, self.failed[key]))
            else:
                out.append(Candidate(spec.id, language, root, binary, ServerState.STOPPED, "usable; starts on the first query"))
        return out

    # Clients --------------------------------------------------------------------------

    async def client_for(self, path: Path) -> tuple[LSPClient, list[str]]:
        """The running server for `path` (started if need be) and notes to show once
        (a crash since the last call). Raises NoServer, naming every candidate's reason."""
        if self.closed:
            raise NoServer("the language-server supervisor is closed")
        language = self.catalog.language_of(path)
        if language is None:
            raise NoServer(f"no language server in the catalog serves {path.suffix or 'extension-less'} files "
                           f"({os.path.relpath(path, self.root)})")
        notes: list[str] = []
        tried = self.candidates(path, language)
        for cand in tried:
            if cand.root is None or cand.binary is None or cand.state is ServerState.FAILED:
                continue
            key = (cand.server, cand.root)
            async with self._locks.setdefault(key, asyncio.Lock()):
                client = self.clients.get(key)
                if client is not None and client.alive:
                    return client, notes
                if client is not None:  # it died; its watcher may not have said so yet
                    if self.states.get(key) is ServerState.RUNNING:
                        self._move(key, ServerState.CRASHED)
                    self.clients.pop(key, None)
                    with contextlib.suppress(Exception):
                        await client.stop(timeout=0.5)
                note = self.crashes.pop(key, None)
                if note:
                    notes.append(f"{note}; restarted it")
                spec = self.catalog.spec(cand.server)
                try:
                    client = await LSPClient.start(spec, cand.root, [cand.binary, *spec.argv[1:]], tracer=self.tracer,
                                                   env=self.env(), timeout=self.init_timeout)
                except ServerStartError as exc:
                    self._move(key, ServerState.FAILED)
                    self.failed[key] = str(exc)
                    cand.state, cand.reason = ServerState.FAILED, str(exc)
                    continue
                self._move(key, ServerState.RUNNING)
                self.clients[key] = client
                self._watch(key, client)
                return client, notes
        reasons = "; ".join(f"{c.server}: {c.reason}" for c in tried) or "the catalog has none"
        raise NoServer(f"no {language} language server is usable for {os.path.relpath(path, self.root)} — {reasons}", tried)

    def _watch(self, key: Key, client: LSPClient) -> None:
        async def watch() -> None:
            assert client.rpc is not None and client.rpc.connection is not None
            error = await client.rpc.connection.wait_closed()
            if not client.stopping and not self.closed and self.clients.get(key) is client:
                self._move(key, ServerState.CRASHED)
                self.crashes[key] = f"{key[0]} crashed: {error}"

        task = asyncio.ensure_future(watch())
        self._watchers.add(task)
        task.add_done_callback(self._watchers.discard)

    def _move(self, key: Key, new: ServerState) -> None:
        """Record a server's move; the table (lsp/_state.py) says which moves there are."""
        old = self.states.get(key, ServerState.STOPPED)
        if old is not new or new is not ServerState.STOPPED:
            check_move(old, new)
        self.states[key] = new

    def acknowledge_crash(self, client: LSPClient) -> None:
        """The caller reported this crash itself; don't report it again."""
        self.crashes.pop((client.spec.id, client.root), None)
        self.crashes[(client.spec.id, client.root)] = ""

    def running(self) -> list[LSPClient]:
        return [c for c in self.clients.values() if c.alive]

    def status(self) -> dict[str, Any]:
        """Per language, each candidate for the workspace root and its state; and every running server."""
        languages: dict[str, list[dict[str, Any]]] = {}
        probe = self.root / "__probe__"
        seen_roots = {c.root for c in self.clients.values()}
        for lang in self.catalog.languages:
            rows = [c.to_json(self.root) for c in self.candidates(probe, lang)]
            for client in self.clients.values():
                if lang in client.spec.languages and client.root != self.root:
                    rows.extend(c.to_json(self.root) for c in self.candidates(client.root / "__probe__", lang)
                                if c.server == client.spec.id)
            languages[lang] = rows
        running = [{"server": c.spec.id, "root": os.path.relpath(c.root, self.root), "pid": c.child.pid if c.child else None,
                    "encoding": c.encoding, "open_documents": len(c.documents), "working": c.progress.describe()}
                   for c in self.running()]
        return {"languages": languages, "running": running, "roots": sorted(os.path.relpath(r, self.root) for r in seen_roots)}

    async def reload(self) -> list[str]:
        """Stop every server (they restart lazily) and forget start failures; what was stopped."""
        stopped = []
        for key, client in list(self.clients.items()):
            stopped.append(f"{key[0]} ({os.path.relpath(key[1], self.root)})")
            await client.stop()
        for key in self.states:
            self._move(key, ServerState.STOPPED)
        self.clients.clear()
        self.failed.clear()
        self.crashes.clear()
        return stopped

    async def close(self) -> None:
        """Stop every server this supervisor started."""
        self.closed = True
        await asyncio.gather(*(c.stop() for c in self.clients.values()), return_exceptions=True)
        self.clients.clear()
        for task in list(self._watchers):
            task.cancel()

    # Project checker ------------------------------------------------------------------

    async def run_checker(self, spec: ServerSpec, root: Path, timeout: float, max_chars: int = 20000,
                          max_bytes: int = 8 << 20, on_output: Callable[[bytes], None] | None = None) -> CheckerResult:
        """Run the server's project checker in `root` (``diagnostics "*"``): its stdout (the
        first `max_bytes` and the last eighth as much), then the tail of its stderr.
        `on_output` sees each piece of stdout as it comes."""
        assert spec.checker is not None
        binary = find_binary(spec.checker[0], self.search_path) or spec.checker[0]
        argv = [binary, *spec.checker[1:]]
        child = await ChildProcess.start(argv, peer=f"checker:{spec.checker[0]}", cwd=root, env=self.env(),
                                         tracer=self.tracer, stderr_limit=max_chars)
        child.stdin.close()
        # the head and the tail of stdout: checkers print their summary (the counts) last
        head: list[bytes] = []
        tail = bytearray()
        size = 0

        async def read() -> None:
            nonlocal size
            while chunk := await child.stdout.read(65536):
                if on_output is not None:
                    on_output(chunk)
                if size < max_bytes:
                    head.append(chunk)
                else:
                    tail.extend(chunk)
                    del tail[: max(0, len(tail) - max_bytes // 8)]
                size += len(chunk)

        timed_out = False
        try:
            await asyncio.wait_for(read(), timeout)
            await asyncio.wait_for(child.wait(), 5)
        except asyncio.TimeoutError:
            timed_out = True
        await child.stop(close_timeout=0.1, term_timeout=1.0)
        text = b"".join(head).decode("utf-8", errors="replace")
        kept = sum(map(len, head)) + len(tail)
        if kept < size:
            rest = tail.decode("utf-8", errors="replace").partition("\n")[2]
            text += f"\n... ({size - kept} bytes of output left out) ...\n{rest}"
        elif tail:
            text += tail.decode("utf-8", errors="replace")
        err = child.stderr_tail(max_chars)
        if err:
            text = f"{text}\n{err}" if text else err
        return CheckerResult(argv, child.returncode, text, timed_out)
