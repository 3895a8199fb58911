"""Every lsp action and lsp_rename against typescript-language-server (typescript@5) and clangd."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def places(r: Any) -> list[tuple[str, int]]:
    return sorted((loc["file"], loc["line"]) for loc in r.data["locations"])


async def test_typescript_navigation(ts_project: Path, run_factory: Any) -> None:
    run = run_factory(ts_project)
    r = await run.call("lsp", {"action": "references", "file": "shapes.ts", "line": 1, "symbol": "Shape"})
    assert r.ok, r.text
    assert r.data["server"] == "typescript-language-server"
    assert places(r) == [("main.ts", 1), ("main.ts", 3), ("shapes.ts", 1), ("shapes.ts", 5), ("shapes.ts", 13)]
    # after "héllo😀" on the same line: UTF-16 columns
    r = await run.call("lsp", {"action": "type_definition", "file": "main.ts", "line": 4, "symbol": "label, s"})
    assert places(r) == [("shapes.ts", 1)]
    # a qualified name means its last identifier: `s.area` is the method, not `s`
    r = await run.call("lsp", {"action": "definition", "file": "main.ts", "line": 4, "symbol": "s.area"})
    assert places(r) == [("shapes.ts", 2)] and r.data["position"]["name"] == "area"
    r = await run.call("lsp", {"action": "implementation", "file": "shapes.ts", "line": 1, "symbol": "Shape"})
    assert places(r) == [("shapes.ts", 5)]
    r = await run.call("lsp", {"action": "definition", "file": "shapes.ts", "line": 14, "symbol": "Square"})
    assert places(r) == [("shapes.ts", 5), ("shapes.ts", 6)]  # the class and its constructor
    r = await run.call("lsp", {"action": "hover", "file": "main.ts", "line": 3, "symbol": "makeSquare"})
    assert "makeSquare(side: number): Shape" in r.text and "Makes a square." in r.text


async def test_typescript_symbols_diagnostics_actions(ts_project: Path, run_factory: Any) -> None:
    (ts_project / "bad.ts").write_text('const label = "😀😀"; const bad: number = "nope";\nexport {};\n')
    run = run_factory(ts_project)
    r = await run.call("lsp", {"action": "symbols", "file": "shapes.ts"})
    assert {("Shape", "interface"), ("Square", "class"), ("makeSquare", "function")} <= {(s["name"], s["kind"]) for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "symbols", "query": "Square"})
    assert ("Square", "shapes.ts", 5) in {(s["name"], s["file"], s["line"]) for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "diagnostics", "file": "bad.ts"})
    errors = [d for d in r.data["diagnostics"] if d["severity"] == "error"]
    # "bad" starts at code point 27 (UTF-16 unit 29) after the two emoji
    assert [(d["line"], d["column"], d["code"]) for d in errors] == [(1, 27, "2322")]
    r = await run.call("lsp", {"action": "code_actions", "file": "bad.ts", "line": 1, "symbol": "bad"})
    assert r.ok and r.data["actions"], r.text
    r = await run.call("lsp", {"action": "diagnostics", "file": "*"})
    assert r.ok and "TS2322" in r.text and "bad.ts(1," in r.text


async def test_typescript_rename_across_files(ts_project: Path, run_factory: Any) -> None:
    run = run_factory(ts_project)
    r = await run.call("lsp_rename", {"file": "shapes.ts", "line": 13, "symbol": "makeSquare", "new_name": "square"})
    assert r.ok, r.text
    assert {f["file"] for f in r.data["files"]} == {"shapes.ts", "main.ts"}
    main = (ts_project / "main.ts").read_text()
    assert 'import { square, Shape } from "./shapes";' in main and "= square(2);" in main
    assert "export function square(side: number)" in (ts_project / "shapes.ts").read_text()


async def test_clangd_every_action(c_project: Path, run_factory: Any) -> None:
    (c_project / "broken.c").write_text('#include "util.h"\nint f(void) { const char *e = "😀"; return undefined_var; }\n')
    run = run_factory(c_project)
    r = await run.call("lsp", {"action": "definition", "file": "main.c", "line": 3, "symbol": "add"})
    assert r.ok and r.data["server"] == "clangd" and places(r) == [("util.h", 5)], r.text
    r = await run.call("lsp", {"action": "type_definition", "file": "main.c", "line": 3, "symbol": "p = "})
    assert places(r) == [("util.h", 3)]
    r = await run.call("lsp", {"action": "references", "file": "main.c", "line": 3, "symbol": "point p"})
    assert [(loc["line"], loc["column"]) for loc in r.data["locations"]] == [(3, 44), (3, 68), (3, 73)]
    # `p.x` is the field x, not p
    r = await run.call("lsp", {"action": "references", "file": "main.c", "line": 3, "symbol": "p.x"})
    assert (3, 70) in [(loc["line"], loc["column"]) for loc in r.data["locations"]] and r.data["position"]["name"] == "x"
    r = await run.call("lsp", {"action": "hover", "file": "main.c", "line": 3, "symbol": "add"})
    assert "int add(int a, int b)" in r.text and "Adds two ints." in r.text
    r = await run.call("lsp", {"action": "implementation", "file": "util.h", "line": 5, "symbol": "add"})
    assert r.ok, r.text  # clangd offers it; C has nothing to implement
    r = await run.call("lsp", {"action": "symbols", "file": "util.h"})
    assert {"point", "add"} <= {s["name"] for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "symbols", "query": "add"})
    assert ("add", "util.h") in {(s["name"], s["file"]) for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "diagnostics", "file": "broken.c"})
    assert [(d["line"], d["column"]) for d in r.data["diagnostics"] if d["severity"] == "error"] == [(2, 43)]
    r = await run.call("lsp", {"action": "code_actions", "file": "broken.c", "line": 2, "symbol": "undefined_var"})
    assert r.ok, r.text
    r = await run.call("lsp", {"action": "diagnostics", "file": "*"})
    assert not r.ok and "no project checker" in r.text


async def test_clangd_rename_after_emoji(c_project: Path, run_factory: Any) -> None:
    run = run_factory(c_project)
    r = await run.call("lsp_rename", {"file": "main.c", "line": 3, "symbol": "point p", "new_name": "pt"})
    assert r.ok, r.text
    assert r.data["edits"] == 3
    assert (c_project / "main.c").read_text().splitlines()[2] == \
        '    const char *s = "héllo😀"; struct point pt = {1, 2}; int r = add(pt.x, pt.y);'


async def test_typescript_rename_at_an_import_site_renames_the_symbol(ts_project: Path, run_factory: Any) -> None:
    # by default typescript-language-server only aliases the import (`makeSquare as mk`)
    run = run_factory(ts_project)
    r = await run.call("lsp_rename", {"file": "main.ts", "line": 1, "symbol": "makeSquare", "new_name": "mk"})
    assert r.ok, r.text
    main = (ts_project / "main.ts").read_text()
    assert 'import { mk, Shape } from "./shapes";' in main and " as " not in main
    assert "export function mk(side: number)" in (ts_project / "shapes.ts").read_text()
