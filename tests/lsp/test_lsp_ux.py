"""What the lsp answers say on real projects (basedpyright): workspace symbols ranked for what a
search means, equivalent occurrences answered, a clean write that says it was checked, and a
rename whose old warnings are not reported as new."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsp_support import write

CLIENTS = {
    "pyproject.toml": '[project]\nname = "ux"\n',
    "request.py": ("from models import Client\n\n\ndef request(url: str) -> str:\n    client = Client(url)\n"
                   "    return client.fetch()\n\n\ndef client_count() -> int:\n    return 1\n"),
    "models.py": ("class Client:\n    def __init__(self, url: str) -> None:\n        self.url = url\n\n"
                  "    def fetch(self) -> str:\n        return self.url\n"),
}


async def test_workspace_symbols_rank_the_declaration_first_and_filter_by_kind(tmp_path: Path, run_factory: Any) -> None:
    run = run_factory(write(tmp_path / "proj", CLIENTS))
    await run.call("lsp", {"action": "hover", "file": "request.py", "line": 5, "symbol": "Client"})  # start the server
    r = await run.call("lsp", {"action": "symbols", "query": "Client"})
    assert r.ok and (r.data["symbols"][0]["name"], r.data["symbols"][0]["kind"]) == ("Client", "class"), r.text
    only = await run.call("lsp", {"action": "symbols", "query": "client", "kind": "function"})
    assert only.ok and {s["name"] for s in only.data["symbols"]} == {"client_count"}, only.text


SHAPES = {
    "pyproject.toml": '[project]\nname = "shapes"\n',
    "shapes.py": ("class Square:\n    def __init__(self, side: float) -> None:\n        self.side = side\n\n"
                  "    def area(self) -> float:\n        return self.side * self.side\n\n\n"
                  "def make_square(side: float) -> Square:\n    return Square(side)\n\n\n"
                  "sq = Square(2.0)\ntotal = sq.area() + make_square(3.0).area()\nside = sq.side\n"),
}


async def test_equivalent_occurrences_are_answered_and_different_ones_refused(tmp_path: Path, run_factory: Any) -> None:
    run = run_factory(write(tmp_path / "proj", SHAPES))
    r = await run.call("lsp", {"action": "hover", "file": "shapes.py", "line": 14, "symbol": "area"})
    assert r.ok and "def area() -> float" in r.text, r.text
    assert '"area" occurs 2 times on line 14; all name the same definition' in r.text
    d = await run.call("lsp", {"action": "definition", "file": "shapes.py", "line": 14, "symbol": "area"})
    assert d.ok and [(loc["file"], loc["line"]) for loc in d.data["locations"]] == [("shapes.py", 5)], d.text
    # `side` on line 15: a new variable and the attribute are different things: still refused
    different = await run.call("lsp", {"action": "hover", "file": "shapes.py", "line": 15, "symbol": "side"})
    assert not different.ok and "ambiguous" in different.text, different.text


async def test_a_rename_says_it_checked_and_keeps_old_warnings_old(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "rn"\n',
                                     "a.py": "def compute(items):\n    total = 0\n    return 1\n"})
    run = run_factory(root)
    before = await run.call("lsp", {"action": "diagnostics", "file": "a.py"})
    assert 'Variable "total" is not accessed' in before.text, before.text
    r = await run.call("lsp_rename", {"file": "a.py", "line": 2, "symbol": "total", "new_name": "sum_all"})
    assert r.ok and "sum_all = 0" in (root / "a.py").read_text()
    # the old warning now names sum_all: the same warning, not a new one; and the clean check is said
    assert "1 new diagnostic" not in r.text and "checked 1 file: no new diagnostics" in r.text, r.text
    broken = await run.call("lsp_rename", {"file": "a.py", "line": 1, "symbol": "compute", "new_name": "count"})
    assert broken.ok and "checked 1 file: no new diagnostics" in broken.text, broken.text


MONOREPO = {
    "backend/pyproject.toml": '[project]\nname = "backend"\n',
    "backend/api.py": 'import os\n\n\ndef handler(request: int) -> str:\n    return request\n',
    "frontend/tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["*.ts"]}',
    "frontend/app.ts": 'export function handlerView(n: number): string {\n  return n;\n}\n',
}


async def test_a_monorepo_is_checked_and_searched_per_sub_project(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "mono", MONOREPO)  # no marker at the root
    run = run_factory(root)
    r = await run.call("lsp", {"action": "diagnostics", "file": "*"})
    assert r.ok, r.text
    by_root = {c["root"]: c for c in r.data["checkers"]}
    assert set(by_root) == {"backend/", "frontend/"}, r.text
    assert "in backend/" in r.text and "in frontend/" in r.text
    assert str(root) not in r.text  # paths relative to the root, as every other tool shows them
    python = by_root["backend/"]["output"]
    assert "error" in python.splitlines()[0], python  # errors before warnings
    s = await run.call("lsp", {"action": "symbols", "query": "handler"})
    assert s.ok and {"handler", "handlerView"} <= {x["name"] for x in s.data["symbols"]}, s.text


async def test_prestart_starts_the_roots_servers_before_the_first_query(tmp_path: Path) -> None:
    from lsp_support import make_run

    root = write(tmp_path / "mono", MONOREPO)
    async with make_run(root, prestart=True) as run:
        for _ in range(300):  # the servers start in the background; nothing was asked yet
            status = await run.call("lsp", {"action": "status"})
            if status.text.count("running (pid") >= 2:
                break
            await asyncio.sleep(0.1)
        assert "basedpyright" in status.text and "typescript-language-server" in status.text, status.text
        assert status.text.count("running (pid") >= 2, status.text
        r = await run.call("lsp", {"action": "hover", "file": "backend/api.py", "line": 4, "symbol": "handler"})
        assert r.ok and "handler" in r.text, r.text  # served by the server already running
    # closing right after entering leaves no server behind (a warm-up cancelled mid-start)
    before = _children()
    async with make_run(root, prestart=True):
        await asyncio.sleep(0.3)
    await asyncio.sleep(0.5)
    assert not _children() - before, _children() - before


def _children() -> set[int]:
    """The live child processes of this one (from /proc)."""
    import os

    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                out.add(int(entry))
    return out
