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
