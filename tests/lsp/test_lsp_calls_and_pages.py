"""Call hierarchy (incoming_calls, outgoing_calls) on basedpyright, typescript-language-server and
clangd, and capped lists that continue with `offset` (references, workspace symbols, outlines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsp_support import write

PY_CALLS = {
    "pyproject.toml": '[project]\nname = "calls"\n',
    "lib.py": "def leaf(x: int) -> int:\n    return x + 1\n\n\ndef middle(x: int) -> int:\n    return leaf(x) * leaf(x + 1)\n",
    "app.py": "from lib import leaf, middle\n\n\ndef run() -> int:\n    return middle(2) + leaf(3)\n\n\ndef other() -> int:\n    return middle(5)\n",
}


async def test_python_incoming_and_outgoing_calls(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", PY_CALLS)
    run = run_factory(root)
    r = await run.call("lsp", {"action": "incoming_calls", "file": "lib.py", "line": 5, "symbol": "middle"})
    assert r.ok, r.text
    assert [(c["name"], c["file"], c["line"]) for c in r.data["callers"]] == [("run", "app.py", 5), ("other", "app.py", 9)]
    assert "callers of \"middle\" at lib.py:5" in r.text and "app.py:5: function run" in r.text
    r = await run.call("lsp", {"action": "outgoing_calls", "file": "lib.py", "line": 5, "symbol": "middle"})
    assert r.ok and [(c["name"], c["calls"]) for c in r.data["calls"]] == [("leaf", 2)], r.text
    r = await run.call("lsp", {"action": "incoming_calls", "file": "lib.py", "line": 2, "symbol": "x + 1"})
    assert not r.ok and "no function or method" in r.text


async def test_typescript_and_c_call_hierarchy(ts_project: Path, c_project: Path, run_factory: Any) -> None:
    run = run_factory(ts_project)
    r = await run.call("lsp", {"action": "incoming_calls", "file": "shapes.ts", "line": 13, "symbol": "makeSquare"})
    assert r.ok and [(c["file"], c["line"]) for c in r.data["callers"]] == [("main.ts", 3)], r.text
    r = await run.call("lsp", {"action": "outgoing_calls", "file": "shapes.ts", "line": 13, "symbol": "makeSquare"})
    assert r.ok and "Square" in {c["name"] for c in r.data["calls"]}, r.text
    run = run_factory(c_project)
    r = await run.call("lsp", {"action": "outgoing_calls", "file": "main.c", "line": 2, "symbol": "main"})
    if r.ok:  # clangd 20 lists outgoing calls; the clangd of Debian 12 (14) has incoming calls only
        assert [c["name"] for c in r.data["calls"]] == ["add"], r.text
    else:
        assert "does not answer outgoing_calls" in r.text and "incoming_calls" in r.text, r.text
    # without a compile_commands.json clangd indexes only the files it has opened: main.c is, now
    r = await run.call("lsp", {"action": "incoming_calls", "file": "util.c", "line": 2, "symbol": "add"})
    assert r.ok and [(c["name"], c["file"], c["line"]) for c in r.data["callers"]] == [("main", "main.c", 3)], r.text


async def test_capped_lists_continue_with_offset(tmp_path: Path, run_factory: Any) -> None:
    # 230 uses of one function: references cap at 50 a page and say how to get the next
    uses = "".join(f"def use_{i}() -> int:\n    return target({i})\n\n\n" for i in range(230))
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "pages"\n',
                                     "lib.py": "def target(x: int) -> int:\n    return x\n",
                                     "uses.py": "from lib import target\n\n\n" + uses})
    run = run_factory(root)
    ask = {"action": "references", "file": "lib.py", "line": 1, "symbol": "target"}
    first = await run.call("lsp", ask)
    assert first.ok and first.data["total"] == 232 and len(first.data["locations"]) == 50, first.text
    assert "showing 1-50 of 232; offset 50 for the next" in first.text
    second = await run.call("lsp", {**ask, "offset": 50})
    assert "showing 51-100 of 232; offset 100 for the next" in second.text
    pages, offset = [first, second], 100
    while "for the next" in pages[-1].text:
        pages.append(await run.call("lsp", {**ask, "offset": offset}))
        offset += 50
    assert "showing 201-232 of 232" in pages[-1].text
    seen = [(loc["file"], loc["line"]) for r in pages for loc in r.data["locations"]]
    assert len(seen) == len(set(seen)) == 232  # every place once across the pages
    symbols = await run.call("lsp", {"action": "symbols", "query": "use_", "offset": 100})
    assert symbols.ok and "showing 101-" in symbols.text, symbols.text
    outline = await run.call("lsp", {"action": "symbols", "file": "uses.py"})
    assert outline.data["total"] > 200 and "offset 200 for the next" in outline.text, outline.text.splitlines()[0]
    rest = await run.call("lsp", {"action": "symbols", "file": "uses.py", "offset": 200})
    names = {s["name"] for s in outline.data["symbols"]} | {s["name"] for s in rest.data["symbols"]}
    assert {f"use_{i}" for i in range(230)} <= names
