"""Hostile files with a language server wired: a FIFO where a file was (or where a server's edit
puts one) is never opened for reading — a read would block the event loop and every later
call — and the tools say what it is (docs/tools.md, "Hostile peers and files")."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from lsp_support import FIFOWatch
from minitools.lsp import MAX_DOCUMENT_BYTES


def fifo_in_place(path: Path) -> Path:
    path.unlink()
    os.mkfifo(path)
    return path


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


HOVER = {"textDocument/hover": {"contents": {"kind": "plaintext", "value": "def helper(x: int) -> int"}}}


async def test_resolve_accept_on_a_file_turned_into_a_fifo(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, {"answers": HOVER})
    staged = await run.call("ast_edit", {"pattern": "helper(1)", "rewrite": "helper(2)", "language": "python", "path": "a.py"})
    assert staged.ok and staged.data["edit_id"], staged.text
    fifo = fifo_in_place(py_project / "a.py")
    with FIFOWatch(fifo) as watch:
        r = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
    assert not watch.fired, "resolve accept opened the FIFO for reading and blocked"
    assert not r.ok and "a.py (now a FIFO, not the regular file that was staged)" in r.text, r.text
    assert is_fifo(fifo)


async def test_before_write_on_a_fifo_takes_no_baseline_and_says_why(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, {"answers": HOVER})
    fifo = fifo_in_place(py_project / "a.py")
    with FIFOWatch(fifo) as watch:
        r = await run.before_write(["a.py", "b.py"])
        written = await run.written(["a.py"])
    assert not watch.fired, "before_write opened the FIFO for reading and blocked"
    assert "a.py: no baseline: a FIFO, not a regular file (never opened for reading)" in r.text, r.text
    assert "a.py: not checked: a FIFO, not a regular file" in written.text, written.text


async def test_a_document_turned_into_a_fifo_does_not_block_later_calls(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, {"answers": HOVER})
    assert (await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})).ok
    fifo = fifo_in_place(py_project / "a.py")  # a.py is open in the server: the next call re-syncs it
    with FIFOWatch(fifo) as watch:
        other = await run.call("lsp", {"action": "hover", "file": "b.py", "line": 1, "symbol": "helper"})
        same = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not watch.fired, "an lsp call opened the FIFO for reading and blocked"
    assert other.ok and "def helper" in other.text, other.text
    assert not same.ok and same.text == 'file "a.py" is a FIFO, not a regular file; hover needs a source file.', same.text


def _create_edit(name: str) -> dict[str, Any]:
    uri = f"$ROOT/{name}"
    return {"documentChanges": [{"kind": "create", "uri": uri},
                                {"textDocument": {"uri": uri, "version": None},
                                 "edits": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                                            "newText": "x = 1\n"}]}]}


async def test_a_rename_whose_new_file_is_made_a_fifo_writes_nothing(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, {"capabilities": {"renameProvider": True},
                               "answers": {"textDocument/rename": _create_edit("made.py")},
                               "fifos": {"textDocument/rename": ["made.py"]}})
    before = (py_project / "a.py").read_text()
    with FIFOWatch(py_project / "made.py") as watch:
        r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "helper", "new_name": "h"})
    assert not watch.fired, "lsp_rename opened the FIFO for reading and blocked"
    assert not r.ok and "made.py is a FIFO, not a regular file; nothing was written" in r.text, r.text
    assert is_fifo(py_project / "made.py") and (py_project / "a.py").read_text() == before


async def test_a_code_action_whose_new_file_is_made_a_fifo_stages_nothing(py_project: Path, hostile: Any) -> None:
    action = {"title": "Make a file", "kind": "refactor", "edit": _create_edit("made.py")}
    run = hostile(py_project, {"capabilities": {"codeActionProvider": True},
                               "answers": {"textDocument/codeAction": [action]},
                               "fifos": {"textDocument/codeAction": ["made.py"]}})
    with FIFOWatch(py_project / "made.py") as watch:
        r = await run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})
    assert not watch.fired, "lsp_code_action opened the FIFO for reading and blocked"
    assert not r.ok and "made.py is a FIFO, not a regular file" in r.text and "Nothing was changed" in r.text, r.text
    assert run.ctx.edits.open_ids() == []


def _command_action(name: str, when: str) -> dict[str, Any]:
    """A code action whose command edits `name`, a file made empty by someone (`when`: the
    codeAction answer, before the command starts; or the command itself), a tick apart."""
    uri = f"$ROOT/{name}"
    return {
        "capabilities": {"codeActionProvider": True, "executeCommandProvider": {"commands": ["move"]}},
        "answers": {"textDocument/codeAction": [{"title": "Move", "command": {"title": "Move", "command": "move"}}]},
        "pause": {when: 0.02}, "writes": {when: {name: ""}},
        "apply_edits": [{"edit": {"documentChanges": [{"textDocument": {"uri": uri, "version": None}, "edits": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "newText": "x = 1\n"}]}]}}],
    }


async def test_a_code_action_leaves_an_empty_file_made_before_its_command_alone(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, _command_action("other.py", "textDocument/codeAction"))
    r = await run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})
    assert r.ok and r.data["files"] == [{"file": "other.py", "edits": 1}], r.text  # an edit of it, not a create
    assert (py_project / "other.py").exists()  # not taken off the disk
    await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "discard"})
    assert (py_project / "other.py").read_text() == ""


async def test_a_code_action_takes_back_the_empty_file_its_command_made(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, _command_action("made.py", "workspace/executeCommand"))
    r = await run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})
    assert r.ok and r.data["files"] == [{"file": "made.py", "edits": 1, "operation": "create"}], r.text
    await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "discard"})
    assert not (py_project / "made.py").exists()


async def test_written_says_why_each_file_was_not_checked(py_project: Path, hostile: Any, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    (py_project / "notes.txt").write_text("notes\n")
    run = hostile(py_project, {})
    r = await run.written([str(outside), "notes.txt"])
    assert r.text == ("no file was checked (2 files left out)\n"
                      f"{outside}: not checked: outside the workspace root\n"
                      "notes.txt: not checked: no language server serves this kind of file"), r.text


async def test_a_file_too_large_for_a_language_server_is_not_opened(py_project: Path, hostile: Any) -> None:
    # a 200 MB file was read, framed and sent: basedpyright passed its 4 GB heap and crashed
    big = "x = 1\n" * (MAX_DOCUMENT_BYTES // 6 + 1)
    (py_project / "big.py").write_text(big)
    run = hostile(py_project, {"answers": HOVER})
    r = await run.call("lsp", {"action": "hover", "file": "big.py", "line": 1, "symbol": "x"})
    written = await run.written(["big.py"])
    assert not r.ok and f"big.py is {len(big):,} bytes, over the {MAX_DOCUMENT_BYTES:,} a language server" in r.text, r.text
    assert "not opened" in r.text
    assert f"big.py: not checked: {len(big):,} bytes, over the" in written.text, written.text
    assert (await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})).ok


async def test_a_file_named_many_times_is_checked_once(py_project: Path, hostile: Any) -> None:
    # each naming was sent, saved and waited for in turn: 200 namings of one file took 45 s
    run = hostile(py_project, {"answers": HOVER})
    names = ["a.py", "./a.py", str(py_project / "a.py"), "b/../a.py"] * 25
    (py_project / "b").mkdir(exist_ok=True)
    before = await run.before_write(names)
    written = await run.written(names)
    assert [e["file"] for e in before.data["files"]] == ["a.py"], before.text
    assert [e["file"] for e in written.data["files"]] == ["a.py"], written.text
