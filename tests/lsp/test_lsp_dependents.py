"""Write-time diagnostics of the files a write breaks besides those it wrote (docs/tools.md,
"Write-time diagnostics"), with real servers: a.py's `area` loses a parameter, and b.py, which
calls it, is reported under its own heading; nothing twice, nothing already there."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lsp_support import write
from minitools.lsp import path_to_uri
from minitools.toolspec import ToolResult

AREA = "def area(w: int, h: int) -> int:\n    return w * h\n"
NARROW = "def area(w: int) -> int:\n    return w\n"
BODY_ONLY = "def area(w: int, h: int) -> int:\n    return h * w\n"
PY_FILES = {
    "pyproject.toml": '[project]\nname = "shapes"\n',
    "a.py": AREA,
    "b.py": "from a import area\n\nprint(area(2, 3))\n",
    # an error of its own before any write: never reported as the write's
    "c.py": "from a import area\n\nx: str = 1\nprint(area(4, 5))\n",
    "d.py": "def unrelated() -> int:\n    return 1\n",  # names nothing of a.py
}
TS_FILES = {
    "tsconfig.json": '{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs"}, "include": ["*.ts"]}',
    "geometry.ts": "export function area(w: number, h: number): number {\n  return w * h;\n}\n",
    "main.ts": 'import { area } from "./geometry";\n\nconsole.log(area(2, 3));\n',
}
TS_NARROW = "export function area(w: number): number {\n  return w;\n}\n"
# the servers' checks end the waits; a long bound only keeps a loaded machine from failing them
PYRIGHT = {"lsp_servers": {"python": ["basedpyright"]}, "lsp_dependents_wait": 15}


@pytest.fixture
def shapes(tmp_path: Path) -> Path:
    return write(tmp_path / "shapes", PY_FILES)


def other_errors(r: ToolResult, file: str) -> list[tuple[int, str]]:
    """The errors the write broke in `file`, another file (data["others"]["new"])."""
    others = r.data["others"] if "others" in r.data else r.data["diagnostics"]["others"]
    return [(d["line"], d["message"]) for d in others["new"] if d["file"] == file and d["severity"] == "error"]


def client_of(run: Any) -> Any:
    return run.ctx.resources["lsp"].running()[0]


async def test_a_removed_parameter_reports_the_callers(shapes: Path, run_factory: Any) -> None:
    # e.py names `area` but its own: the server does not check it again after a.py's change, and
    # it is as it was (checked, nothing new), not waited for until the time runs out
    (shapes / "e.py").write_text("def area() -> int:\n    return 0\n\n\nprint(area())\n")
    run = run_factory(shapes, **PYRIGHT)
    base = await run.before_write(["a.py"])
    assert sorted(f["file"] for f in base.data["others"]["files"]) == ["b.py", "c.py", "e.py"], base.text
    assert "and for 3 other files that may depend on them: b.py, c.py, e.py" in base.text
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert r.ok and [d for d in r.data["new"] if d["file"] != "a.py"] == [], r.text  # the written file's list is its own
    assert other_errors(r, "b.py") == [(3, "Expected 1 positional argument")], r.text
    assert other_errors(r, "c.py") == [(4, "Expected 1 positional argument")], r.text  # not its old `x: str = 1`
    assert "new in other files (this write broke them):" in r.text and "b.py:3:15: error" in r.text, r.text
    assert "d.py" not in r.text and "not checked" not in r.text, r.text
    assert {f["file"]: f["checked"] for f in r.data["others"]["files"]} == {"b.py": True, "c.py": True, "e.py": True}
    # the same text written again breaks nothing more: nothing is reported twice
    await run.before_write(["a.py"])
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert r.data["others"]["new"] == [] and "new in other files" not in r.text, r.text
    assert "checked 3 other files that may depend on it (b.py, c.py, e.py): no new diagnostics" in r.text, r.text


async def test_a_write_that_breaks_nothing_reports_no_other_file(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT)
    await run.before_write(["a.py"])
    (shapes / "a.py").write_text(BODY_ONLY)
    r = await run.written(["a.py"])
    assert r.data["others"]["new"] == [] and all(f["checked"] for f in r.data["others"]["files"]), r.text
    assert "new in other files" not in r.text and "x: str" not in r.text, r.text
    assert "checked 2 other files that may depend on it (b.py, c.py): no new diagnostics" in r.text, r.text


async def test_typescript_importers_are_checked(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "ts", TS_FILES)
    # tsserver can be slow on a loaded machine: longer waits than the defaults (as test_lsp_baseline.py)
    run = run_factory(root, lsp_diagnostics_timeout=30, lsp_diagnostics_quiet=2, lsp_dependents_wait=20)
    base = await run.before_write(["geometry.ts"])
    assert [f["file"] for f in base.data["others"]["files"]] == ["main.ts"], base.text
    (root / "geometry.ts").write_text(TS_NARROW)
    r = await run.written(["geometry.ts"])
    assert other_errors(r, "main.ts") == [(3, "Expected 1 arguments, but got 2.")], r.text
    assert [d for d in r.data["new"] if d["file"] == "main.ts"] == [], r.text
    assert "new in other files" in r.text and "main.ts:3:" in r.text, r.text
    await run.before_write(["geometry.ts"])
    (root / "geometry.ts").write_text(TS_NARROW)
    r = await run.written(["geometry.ts"])
    assert r.data["others"]["new"] == [] and "new in other files" not in r.text, r.text


async def test_a_header_change_reports_the_files_that_include_it(c_project: Path, run_factory: Any) -> None:
    run = run_factory(c_project, lsp_dependents_wait=15)
    base = await run.before_write(["util.h"])
    assert sorted(f["file"] for f in base.data["others"]["files"]) == ["main.c", "util.c"], base.text
    (c_project / "util.h").write_text((c_project / "util.h").read_text().replace("int add(int a, int b);", "int add(int a);"))
    r = await run.written(["util.h"])
    assert [line for line, _ in other_errors(r, "main.c")] == [3], r.text  # add(p.x, p.y): one argument too many
    assert [line for line, _ in other_errors(r, "util.c")] == [2], r.text  # the definition no longer matches
    assert "new in other files (this write broke them):" in r.text and "main.c:3:" in r.text, r.text


async def test_documents_opened_for_the_baseline_are_closed(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT)
    # c.py is open before (a query opened it): it stays open; b.py is opened for its baseline only
    assert (await run.call("lsp", {"action": "diagnostics", "file": "c.py"})).ok
    await run.before_write(["a.py"])
    client = client_of(run)
    b, c = path_to_uri(shapes / "b.py"), path_to_uri(shapes / "c.py")
    assert b in client.documents and c in client.documents
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert other_errors(r, "b.py") and other_errors(r, "c.py"), r.text
    assert b not in client.documents and c in client.documents


async def test_the_cap(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT, lsp_dependents=0)
    base = await run.before_write(["a.py"])
    assert "others" not in base.data and "other file" not in base.text, base.text
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert r.data["others"] == {"files": [], "new": [], "notes": []} and "other file" not in r.text, r.text
    assert set(client_of(run).documents) == {path_to_uri(shapes / "a.py")}  # nothing else was opened
    # a cap of one: the first of the two is checked, and the result says one was left out
    (shapes / "a.py").write_text(AREA)
    run = run_factory(shapes, **PYRIGHT, lsp_dependents=1)
    base = await run.before_write(["a.py"])
    note = "other files of a.py: 1 more file may depend on it; the first 1 were checked (lsp_dependents)"
    assert note in base.text and [f["file"] for f in base.data["others"]["files"]] == ["b.py"], base.text
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert other_errors(r, "b.py") and not other_errors(r, "c.py") and note in r.text, r.text
    # the time cap: a workspace read for no time at all finds nothing, and says so
    run = run_factory(shapes, **PYRIGHT, lsp_dependents_scan=1e-9)
    base = await run.before_write(["a.py"])
    assert "others" not in base.data or base.data["others"]["files"] == [], base.text
    assert "other files of a.py: the workspace was read for 1e-09 s (lsp_dependents_scan); 3 files not read" in base.text


async def test_a_single_file_server_checks_no_other_file(shapes: Path, run_factory: Any) -> None:
    # pylsp's diagnostics (pyflakes) of a file depend on that file alone: nothing else is opened
    run = run_factory(shapes, lsp_servers={"python": ["pylsp"]})
    base = await run.before_write(["a.py"])
    assert "others" not in base.data, base.text
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])
    assert r.ok and r.data["others"]["files"] == [], r.text
    assert set(client_of(run).documents) == {path_to_uri(shapes / "a.py")}


async def test_wrap_carries_the_other_files(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT)

    def write_file(path: str, text: str) -> str:
        (shapes / path).write_text(text)
        return f"wrote {path}"

    out = await run.wrap(write_file)("a.py", NARROW)
    assert out.startswith("wrote a.py\n\n") and "new in other files (this write broke them):" in out, out
    assert "b.py:3:15: error [reportCallIssue]: Expected 1 positional argument" in out, out
    # a write that breaks nothing says nothing
    assert await run.wrap(write_file)("d.py", "def unrelated() -> int:\n    return 2\n") == "wrote d.py"


async def test_an_accepted_ast_edit_reports_the_callers(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT)
    r = await run.call("ast_edit", {"pattern": "def area($W, $H) -> int:\n    $$$BODY",
                                    "rewrite": "def area($W) -> int:\n    $$$BODY", "language": "python", "path": "a.py"})
    assert r.ok, r.text
    r = await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "accept"})
    assert r.ok and (shapes / "a.py").read_text() == "def area(w: int) -> int:\n    return w * h\n", r.text
    assert other_errors(r, "b.py") == [(3, "Expected 1 positional argument")], r.text
    assert "new in other files (this write broke them):" in r.text and "b.py:3:15" in r.text, r.text


async def test_a_server_that_never_answers_does_not_fail_the_write(py_project: Path, hostile: Any) -> None:
    # the scripted server publishes nothing: a.py (it imports from b) gets no baseline in time,
    # which is said in one line; it is closed again; the write's result is still a result
    run = hostile(py_project, {}, lsp_dependents_wait=0.5)
    base = await run.before_write(["b.py"])
    said = "other files: no baseline for a.py: basedpyright was not done checking them within 0.5 s (lsp_dependents_wait)"
    assert base.ok and said in base.text, base.text
    assert path_to_uri(py_project / "a.py") not in client_of(run).documents
    (py_project / "b.py").write_text("def helper(x: int, y: int) -> int:\n    return x * y\n")
    r = await run.written(["b.py"])
    assert r.ok and r.data["others"]["files"] == [] and "diagnostics unavailable" in r.text, r.text


async def test_a_server_crash_between_baseline_and_check_does_not_fail_the_write(shapes: Path, run_factory: Any) -> None:
    run = run_factory(shapes, **PYRIGHT)
    await run.before_write(["a.py"])
    client = client_of(run)
    client.child.kill_now()
    await asyncio.wait_for(client.rpc.connection.wait_closed(), 10)
    (shapes / "a.py").write_text(NARROW)
    r = await run.written(["a.py"])  # a.py goes to a new server; the old one's files are said to be lost
    assert r.ok and "other files: b.py: not checked: basedpyright crashed after their baseline was taken" in r.text, r.text
    assert {f["file"]: f["checked"] for f in r.data["others"]["files"]} == {"b.py": False, "c.py": False}, r.text
