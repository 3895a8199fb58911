"""lsp_code_action on the real servers: an action from code_actions is staged like ast_edit (a
diff and an edit_id, nothing written), then resolve writes it; a bad choice changes nothing.
typescript-language-server's quick fixes are server commands whose edit comes back as a
workspace/applyEdit request: it is kept and staged, never applied by the server's say-so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsp_support import write


async def _apply(run: Any, file: str, line: int, action: Any, **where: Any) -> Any:
    staged = await run.call("lsp_code_action", {"file": file, "line": line, "action": action, **where})
    assert staged.ok and staged.data["edit_id"], staged.text
    assert "(proposed)" in staged.text and "--- a/" in staged.text
    return staged


async def test_typescript_add_import_through_its_command(ts_project: Path, run_factory: Any) -> None:
    (ts_project / "more.ts").write_text("const sq = makeSquare(3);\nconsole.log(sq.area());\n")
    run = run_factory(ts_project)
    listed = await run.call("lsp", {"action": "code_actions", "file": "more.ts", "line": 1, "symbol": "makeSquare"})
    assert listed.ok and '1. Add import from "./shapes"' in listed.text, listed.text
    staged = await _apply(run, "more.ts", 1, 'Add import from "./shapes"', symbol="makeSquare")
    assert (ts_project / "more.ts").read_text().startswith("const sq")  # staged, not written
    assert '+import { makeSquare } from "./shapes";' in staged.text
    done = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
    assert done.ok, done.text
    assert (ts_project / "more.ts").read_text().startswith('import { makeSquare } from "./shapes";')
    after = await run.call("lsp", {"action": "diagnostics", "file": "more.ts"})
    assert after.ok and "0 errors" in after.text, after.text


async def test_clangd_fix_it_and_basedpyright_quick_fix(tmp_path: Path, c_project: Path, run_factory: Any) -> None:
    (c_project / "semi.c").write_text("int semi(void) {\n    int x = 1\n    return x;\n}\n")
    run = run_factory(c_project)
    staged = await _apply(run, "semi.c", 3, 1)
    assert "insert ';'" in staged.text
    assert (await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})).ok
    assert (c_project / "semi.c").read_text().splitlines()[1] == "    int x = 1;"
    root = write(tmp_path / "py", {"pyproject.toml": '[project]\nname = "fix"\n', "a.py": 'x: int = "s"\n'})
    run = run_factory(root)
    staged = await _apply(run, "a.py", 1, "pyright: ignore")  # a unique part of the title
    assert (await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})).ok
    assert "# pyright: ignore[reportAssignmentType]" in (root / "a.py").read_text()


async def test_a_choice_that_names_no_action_changes_nothing(ts_project: Path, run_factory: Any) -> None:
    (ts_project / "more.ts").write_text("const sq = makeSquare(3);\n")
    run = run_factory(ts_project)
    r = await run.call("lsp_code_action", {"file": "more.ts", "line": 1, "symbol": "makeSquare", "action": 9})
    assert not r.ok and "there is no action 9" in r.text and "1. Add import" in r.text
    r = await run.call("lsp_code_action", {"file": "more.ts", "line": 1, "symbol": "makeSquare", "action": "Frobnicate"})
    assert not r.ok and "no action has that title" in r.text
    assert (ts_project / "more.ts").read_text() == "const sq = makeSquare(3);\n"


async def test_a_refactor_that_makes_a_file_stages_it_and_leaves_nothing_when_discarded(ts_project: Path,
                                                                                      run_factory: Any) -> None:
    """typescript-language-server's "Move to a new file" writes the new file, empty, before it
    sends the edit that fills it: the file is taken back off the disk and staged as a file the
    edit creates, so a discard leaves the tree as it was and an accept makes it."""
    run = run_factory(ts_project)
    before = {p.name: p.read_bytes() for p in ts_project.iterdir()}
    line = (ts_project / "shapes.ts").read_text().splitlines().index(
        "export function makeSquare(side: number): Shape {") + 1
    staged = await _apply(run, "shapes.ts", line, "Move to a new file", symbol="makeSquare")
    assert "--- /dev/null\n+++ b/makeSquare.ts" in staged.text, staged.text
    assert {"file": "makeSquare.ts", "edits": 1, "operation": "create"} in staged.data["files"]
    assert {p.name: p.read_bytes() for p in ts_project.iterdir()} == before  # nothing written, nothing left
    discarded = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "discard"})
    assert discarded.ok and {p.name: p.read_bytes() for p in ts_project.iterdir()} == before
    staged = await _apply(run, "shapes.ts", line, "Move to a new file", symbol="makeSquare")
    done = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
    assert done.ok and "makeSquare.ts: created" in done.text, done.text
    assert "export function makeSquare(side: number): Shape" in (ts_project / "makeSquare.ts").read_text()
    assert 'import { makeSquare } from "./makeSquare";' in (ts_project / "main.ts").read_text()
    assert "makeSquare" not in (ts_project / "shapes.ts").read_text()
