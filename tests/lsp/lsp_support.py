"""Helpers shared by the lsp tests (a module with a unique name: conftest modules collide)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from minitools import Run

REPO = Path(__file__).resolve().parents[2]
NODE_BIN = REPO / "node_modules" / ".bin"


def write(root: Path, files: dict[str, str]) -> Path:
    """`files` (name -> text) written under `root`; returns `root`."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def make_run(root: Path, **options: Any) -> Run:
    options.setdefault("lsp_path", [str(NODE_BIN)])
    options.setdefault("approve", lambda spec, args: True)
    return Run(root, **options)



def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is `pgid`."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(entry))
    return out


class FIFOWatch:
    """A bounded wait for a reader stuck opening one of `paths` (FIFOs): after `after` seconds it
    opens them for writing, which lets such a reader go on (it reads nothing), and records that
    it had to (`fired`). A reader that never opens them leaves it idle."""

    def __init__(self, *paths: Path, after: float = 5.0) -> None:
        import threading

        self.paths = paths
        self.after = after
        self.fired: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        if self._stop.wait(self.after):
            return
        while not self._stop.wait(0.05):
            for path in self.paths:
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:  # no reader waiting (ENXIO), or not a FIFO any more
                    continue
                self.fired.append(path.name)
                os.close(fd)

    def __enter__(self) -> FIFOWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
