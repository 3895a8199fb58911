"""Write-time diagnostics against a baseline, with real servers: which instance of a repeated
diagnostic is new, and the baseline a host takes before it writes (`Run.before_write`, `wrap`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minitools.tools.lsp._ledger import new_instances
from minitools.toolspec import ToolResult

PY_OLD = "def f() -> None:\n    print(undefined_thing)\n"
# basedpyright reports `print(<undefined>)` twice: the undefined name (its message names it) and
# "Argument type is unknown" (the same message for every such call: one key, two instances)
PY_BELOW = "import os\n\n\ndef f() -> None:\n    print(os.sep)\n    print(undefined_thing)\n    print(another_missing)\n"
PY_ABOVE = "def f() -> None:\n    print(another_missing)\n    print(undefined_thing)\n"
TS_OLD = 'export const a: number = "x";\n'
TS_BELOW = '\n\nexport const a: number = "x";\nexport const c: number = "y";\n'
TS_ABOVE = 'export const c: number = "y";\nexport const a: number = "x";\n'


def shown(r: ToolResult) -> list[tuple[int, str]]:
    return [(d["line"], d["text"]) for d in r.data["new"]]


@pytest.mark.parametrize("layout", ["below", "above"])
async def test_a_repeated_diagnostic_shows_the_new_line(py_project: Path, run_factory: Any, layout: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    mod = py_project / "mod.py"
    mod.write_text(PY_OLD)
    await run.written(["mod.py"])
    mod.write_text(PY_BELOW if layout == "below" else PY_ABOVE)
    r = await run.written(["mod.py"])
    line = 7 if layout == "below" else 2
    assert sorted(shown(r)) == [(line, "print(another_missing)")] * 2, r.text
    messages = sorted(d["message"].splitlines()[0] for d in r.data["new"])
    assert messages == ['"another_missing" is not defined', "Argument type is unknown"], r.text
    assert "print(undefined_thing)" not in r.text


@pytest.mark.parametrize("layout", ["below", "above"])
async def test_a_repeated_diagnostic_shows_the_new_line_typescript(ts_project: Path, run_factory: Any, layout: str) -> None:
    # tsserver's first publish for a file can be an empty one well before the real one on a
    # loaded machine: a longer quiet period and timeout than the defaults
    run = run_factory(ts_project, lsp_diagnostics_timeout=30, lsp_diagnostics_quiet=2)
    mod = ts_project / "more.ts"
    mod.write_text(TS_OLD)
    first = await run.written(["more.ts"])
    assert first.data["checked"] and first.data["files"][0]["total"] == 1, first.text
    mod.write_text(TS_BELOW if layout == "below" else TS_ABOVE)
    r = await run.written(["more.ts"])
    line = 4 if layout == "below" else 1
    assert shown(r) == [(line, 'export const c: number = "y";')], r.text
    assert r.data["new"][0]["message"] == "Type 'string' is not assignable to type 'number'.", r.text


async def test_first_check_without_baseline_says_so(py_project: Path, run_factory: Any) -> None:
    (py_project / "mod.py").write_text(PY_OLD)
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.written(["mod.py"])
    assert r.data["no_baseline"] == ["mod.py"] and r.data["files"][0]["baseline"] is False, r.text
    assert "no baseline" in r.text and "these are all its current diagnostics" in r.text
    assert any("undefined_thing" in d["message"] for d in r.data["new"]), r.text
    # the next write has one: it says "new" again
    (py_project / "mod.py").write_text(PY_ABOVE)
    r = await run.written(["mod.py"])
    assert r.data["no_baseline"] == [] and "no baseline" not in r.text and "2 new diagnostics" in r.text, r.text


@pytest.mark.parametrize("language", ["python", "typescript"])
async def test_before_write_keeps_existing_diagnostics_out(py_project: Path, ts_project: Path, run_factory: Any,
                                                            language: str) -> None:
    if language == "python":
        root, name, old, new, gone = py_project, "mod.py", PY_OLD, PY_OLD + "\n\nx: int = 'text'\n", "undefined_thing"
        run = run_factory(root, lsp_servers={"python": ["basedpyright"]})
    else:
        root, name, old, new, gone = ts_project, "more.ts", TS_OLD, TS_OLD + "export const s: string = 1;\n", "type 'number'."
        run = run_factory(root, lsp_diagnostics_timeout=30, lsp_diagnostics_quiet=2)  # as above
    (root / name).write_text(old)  # its errors are there before the run starts
    r = await run.before_write([name])
    assert r.data["files"] == [{"file": name, "server": r.data["files"][0]["server"], "baseline": True, "from": "server",
                                "total": r.data["files"][0]["total"]}] and r.data["files"][0]["total"] >= 1, r.text
    (root / name).write_text(new)
    r = await run.written([name])
    assert r.data["no_baseline"] == [] and r.data["new"], r.text
    assert all(d["text"] == new.splitlines()[-1] for d in r.data["new"]), r.text
    assert gone not in " ".join(d["message"] for d in r.data["new"])


async def test_wrap_takes_the_baseline_itself(py_project: Path, run_factory: Any) -> None:
    (py_project / "mod.py").write_text(PY_OLD)
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})

    def write(path: str, text: str) -> str:
        (py_project / path).write_text(text)
        return f"wrote {path}"

    wrapped = run.wrap(write)
    out = await wrapped("mod.py", PY_OLD + "\n\nx: int = 'text'\n")
    assert out.startswith("wrote mod.py\n\nmod.py: 1 new diagnostic") and "x: int = 'text'" in out, out
    assert "undefined_thing" not in out and "no baseline" not in out, out
    # a file the write creates has an empty baseline: everything in it is new, and said to be
    out = await wrapped("fresh.py", "y: int = 'text'\n")
    assert "fresh.py: 1 new diagnostic" in out and "no baseline" not in out, out


async def test_before_write_on_files_it_cannot_check(py_project: Path, run_factory: Any) -> None:
    (py_project / "notes.txt").write_text("hello\n")
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.before_write(["notes.txt", "../elsewhere.py"])
    reasons = {f["file"]: f.get("reason", "") for f in r.data["files"]}
    assert "no language server" in reasons["notes.txt"] and not any(f["baseline"] for f in r.data["files"]), r.text
    assert any("outside the workspace root" in why for why in reasons.values()), r.text
    assert "baseline taken for 0 of 2 files" in r.text


async def test_rename_takes_the_baseline_of_files_never_checked(py_project: Path, run_factory: Any) -> None:
    # c.py's error is there before the rename and was never checked: the rename did not cause it
    (py_project / "c.py").write_text("from b import helper\n\nhelper(1)\nhelper(undefined_x)\n")
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert r.ok and (py_project / "c.py").read_text().endswith("twice(undefined_x)\n"), r.text
    assert not any("undefined_x" in d["message"] for d in r.data["diagnostics"]["new"]), r.text
    assert r.data["diagnostics"]["no_baseline"] == [] and "no baseline" not in r.text


async def test_accepted_ast_edit_takes_the_baseline(py_project: Path, run_factory: Any) -> None:
    (py_project / "mod.py").write_text("def f() -> int:\n    return undefined_thing\n\n\nvalue: int = f()\n")
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("ast_edit", {"pattern": "value: int = f()", "rewrite": "value: str = f()", "language": "python",
                                    "path": "mod.py"})
    assert r.ok, r.text
    r = await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "accept"})
    assert r.ok and "mod.py: 1 new diagnostic" in r.text, r.text
    assert [d["text"] for d in r.data["diagnostics"]["new"]] == ["value: str = f()"], r.text


def test_a_duplicated_line_reports_the_copy() -> None:
    def row(line: int, text: str, message: str = "Argument type is unknown") -> dict[str, Any]:
        return {"file": "m.py", "line": line, "column": 11, "severity": "warning", "code": "reportUnknownArgumentType",
                "message": message, "source": "basedpyright", "text": text}

    before = [row(3, "print(x)")]
    # the same line copied below itself: the instance on the unchanged line is the old one
    assert [r["line"] for r in new_instances([row(3, "print(x)"), row(4, "print(x)")], before)] == [4]
    # a new line above moves the old one down: the new text is reported, wherever it is
    assert [r["text"] for r in new_instances([row(3, "print(y)"), row(4, "print(x)")], before)] == ["print(y)"]
    # new text first, then (when the count needs more) a copy of an old line
    rows = [row(3, "print(x)"), row(5, "print(x)"), row(9, "print(z)")]
    assert [(r["line"], r["text"]) for r in new_instances(rows, before)] == [(9, "print(z)"), (5, "print(x)")]
    # fewer instances than before, or the same: nothing is new
    assert new_instances([row(8, "print(x)")], before) == [] and new_instances([], before) == []
