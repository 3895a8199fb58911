"""A program run on a pseudo-terminal, as a person runs it: what it shows is read as it comes (so
it never blocks on a full terminal) and kept as plain text; what is typed goes to its input. For
hosts whose interactive mode behaves differently from their print mode (Claude Code offers MCP
tasks only there)."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

_CONTROL = re.compile(r"\x1b\[[0-9;?>=]*[a-zA-Z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>78()][0-9A-B]?")


class Terminal:
    def __init__(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> None:
        self._master, slave = pty.openpty()
        self.proc = subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self._shown = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._shown += chunk
                del self._shown[:-1_000_000]  # bounded: the end is what matters

    def text(self) -> str:
        """What the program has shown, without its terminal controls, spaces squeezed."""
        with self._lock:
            raw = self._shown.decode("utf-8", errors="replace")
        return re.sub(r"\s+", " ", _CONTROL.sub(" ", raw))

    def wait_for(self, shown: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while shown not in self.text():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"{shown!r} did not appear within {timeout:g} s; the screen ends: {self.text()[-1500:]}")
            time.sleep(0.2)

    def type(self, text: str) -> None:
        """Type `text` and press Enter."""
        os.write(self._master, text.encode())
        time.sleep(0.3)
        os.write(self._master, b"\r")

    def close(self) -> int:
        """End the program (SIGTERM to its process group, then SIGKILL) and return its exit code."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        os.close(self._master)
        self._reader.join(5)
        return self.proc.returncode

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
