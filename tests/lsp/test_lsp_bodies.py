"""A definition with its body, on real servers: definition, type_definition and implementation
show the source of the symbol where they lead (the server's extent: a LocationLink's target
range, else the document symbol named there), bounded; symbols with file, line and body too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsp_support import write

LONG = "def long_one(x: int) -> int:\n" + "".join(f"    x += {k}\n" for k in range(60)) + "    return x\n"


async def test_python_definition_shows_the_function_and_method_bodies(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project)
    helper = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
    assert helper.ok, helper.text
    (body,) = helper.data["bodies"]
    assert (body["file"], body["start_line"], body["end_line"], body["cut"]) == ("b.py", 1, 3, False)
    assert '"""Double it."""' in body["text"] and "return x * 2" in helper.text
    greet = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "g.greet"})
    (body,) = greet.data["bodies"]
    assert (body["start_line"], body["end_line"]) == (5, 6)  # the method, not the class around it
    plain = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper", "body": False})
    assert plain.ok and plain.data["bodies"] == [] and "Double it" not in plain.text
    outline = await run.call("lsp", {"action": "symbols", "file": "a.py", "line": 5, "body": True})
    assert outline.ok and [(b["start_line"], b["end_line"]) for b in outline.data["bodies"]] == [(5, 6)]


async def test_a_long_body_is_cut_and_says_where_the_rest_is(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "long.py": LONG,
                                     "use.py": "from long import long_one\n\nlong_one(1)\n"})
    run = run_factory(root)
    r = await run.call("lsp", {"action": "definition", "file": "use.py", "line": 3, "symbol": "long_one"})
    (body,) = r.data["bodies"]
    assert (body["start_line"], body["end_line"], body["cut"]) == (1, 62, True)
    assert len(body["text"].splitlines()) == 40
    assert "22 more lines (to 62)" in r.text and "return x" not in r.text


async def test_typescript_and_c_definitions_come_with_their_bodies(ts_project: Path, c_project: Path,
                                                                   run_factory: Any) -> None:
    ts = run_factory(ts_project)
    r = await ts.call("lsp", {"action": "definition", "file": "main.ts", "line": 3, "symbol": "makeSquare"})
    assert r.ok, r.text
    (body,) = r.data["bodies"]
    assert body["file"] == "shapes.ts" and "return new Square(side);" in body["text"]
    impl = await ts.call("lsp", {"action": "implementation", "file": "shapes.ts", "line": 2, "symbol": "area"})
    assert impl.ok and any("return this.side * this.side;" in b["text"] for b in impl.data["bodies"])
    c = run_factory(c_project)
    r = await c.call("lsp", {"action": "definition", "file": "main.c", "line": 3, "symbol": "add"})
    assert r.ok, r.text
    # clangd leads to the declaration (util.c is not indexed until opened): its one line is its body
    assert [(b["file"], b["start_line"], b["text"]) for b in r.data["bodies"]] == [("util.h", 5, "int add(int a, int b);")]
