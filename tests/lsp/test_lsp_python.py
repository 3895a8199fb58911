"""Every lsp action, and lsp_rename, against real Python servers: basedpyright and pylsp."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SERVERS = ["basedpyright", "pylsp"]


@pytest.fixture(params=SERVERS)
def server(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def test_definition_after_emoji_columns(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    # line 11 has "héllo😀" before g.greet: a code-point column sent as UTF-16 lands elsewhere
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "greet"})
    assert r.ok, r.text
    assert r.data["server"] == server
    assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("a.py", 5)]
    assert "a.py:5: def greet(self, name: str) -> str:" in r.text
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
    assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("b.py", 1)]


async def test_references_hover_type_definition(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "references", "file": "b.py", "line": 1, "symbol": "helper"})
    assert r.ok, r.text
    assert sorted((loc["file"], loc["line"]) for loc in r.data["locations"]) == [("a.py", 1), ("a.py", 11), ("b.py", 1)]
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.ok and "helper(x: int) -> int" in r.text and "Double it." in r.text
    r = await run.call("lsp", {"action": "type_definition", "file": "a.py", "line": 10, "symbol": "g"})
    assert r.ok, r.text
    assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("a.py", 4)]


async def test_implementation(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "implementation", "file": "a.py", "line": 5, "symbol": "greet"})
    if server == "pylsp":
        assert not r.ok and "pylsp does not support implementation" in r.text
    else:
        assert r.ok and [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("a.py", 5)]


async def test_symbols(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "symbols", "file": "a.py"})
    assert r.ok, r.text
    names = {(s["name"], s["kind"], s["line"]) for s in r.data["symbols"]}
    assert {("Greeter", "class", 4), ("greet", "method", 5), ("main", "function", 9)} <= names
    r = await run.call("lsp", {"action": "symbols", "query": "Greet"})
    if server == "pylsp":
        assert not r.ok and "pylsp does not support workspace symbol search" in r.text
    else:
        assert r.ok and ("Greeter", "a.py", 4) in {(s["name"], s["file"], s["line"]) for s in r.data["symbols"]}


async def test_diagnostics_and_code_actions(py_project: Path, run_factory: Any, server: str) -> None:
    (py_project / "c.py").write_text("import os\n\n\ndef f():\n    return undefined_thing\n")
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "diagnostics", "file": "c.py"})
    assert r.ok, r.text
    undefined = [d for d in r.data["diagnostics"] if "undefined_thing" in d["message"]]
    assert undefined and undefined[0]["line"] == 5 and undefined[0]["column"] == 12 and undefined[0]["severity"] == "error"
    assert "c.py:5:12: error" in r.text
    r = await run.call("lsp", {"action": "code_actions", "file": "c.py", "line": 5, "symbol": "undefined_thing"})
    assert r.ok, r.text
    if server == "basedpyright":
        assert r.data["actions"] and r.data["diagnostics"]


async def test_project_checker(py_project: Path, run_factory: Any, server: str) -> None:
    (py_project / "c.py").write_text("def f():\n    return undefined_thing\n")
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "diagnostics", "file": "*"})
    assert r.ok, r.text
    assert "undefined_thing" in r.text and r.data["checkers"][0]["returncode"] != 0


async def test_rename_across_files(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert r.ok, r.text
    edits = {f["file"]: f["edits"] for f in r.data["files"]}
    # basedpyright sends one edit per occurrence, pylsp (jedi) one whole-file edit per file
    assert set(edits) == {"a.py", "b.py"} and all(n >= 1 for n in edits.values())
    assert f"a.py: {edits['a.py']} edit" in r.text and r.data["edits"] == sum(edits.values())
    a = (py_project / "a.py").read_text()
    assert "from b import twice" in a and 'g.greet(s); twice(1)' in a and "helper" not in a
    assert (py_project / "b.py").read_text().startswith("def twice(x: int) -> int:")
    # the servers saw the new text: the new name resolves
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "twice"})
    assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("b.py", 1)]


async def test_rename_keeps_each_files_line_endings(py_project: Path, run_factory: Any, server: str) -> None:
    # a.py written with CRLF, b.py with LF: each stays as it was, only the name changes
    # (pylsp sends the whole file back with LF; basedpyright one edit per occurrence)
    a = py_project / "a.py"
    a.write_bytes(a.read_bytes().replace(b"\n", b"\r\n"))
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert r.ok, r.text
    a_bytes, b_bytes = a.read_bytes(), (py_project / "b.py").read_bytes()
    assert b"helper" not in a_bytes and b"from b import twice\r\n" in a_bytes
    assert a_bytes.count(b"\n") == a_bytes.count(b"\r\n") > 5
    assert b_bytes.startswith(b"def twice(x: int) -> int:\n") and b"\r" not in b_bytes


async def test_rename_with_emoji_before_the_symbol(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp_rename", {"file": "a.py", "line": 11, "symbol": "s)", "new_name": "text"})
    assert r.ok, r.text
    line = (py_project / "a.py").read_text().splitlines()[10]
    assert line == '    text = "héllo😀"; g.greet(text); helper(1)'


async def test_rename_touching_a_read_only_file_writes_nothing(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    before = {name: (py_project / name).read_text() for name in ("a.py", "b.py")}
    (py_project / "a.py").chmod(0o444)
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert not r.ok and "a.py is read-only (mode 444)" in r.text and "make it writable" in r.text, r.text
    assert {name: (py_project / name).read_text() for name in before} == before
    assert (py_project / "a.py").stat().st_mode & 0o777 == 0o444


async def test_rename_refuses_a_folder_swapped_for_a_symlink_before_the_write(
    py_project: Path, run_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sub/c.py uses helper; while the rename waits for the diagnostics baseline, sub/ becomes
    # a symlink to a folder outside the root holding the same c.py: nothing may be written there
    (py_project / "sub").mkdir()
    (py_project / "sub" / "c.py").write_text("from b import helper\n\nhelper(2)\n")
    outside = py_project.parent / "outside"
    outside.mkdir()
    before = {p: p.read_bytes() for p in (py_project / "a.py", py_project / "b.py")}
    from minitools.tools.lsp._written import WriteDiagnostics

    async def swap(self: Any, paths: Any) -> None:
        (py_project / "sub").rename(py_project / "sub_real")
        (outside / "c.py").write_bytes((py_project / "sub_real" / "c.py").read_bytes())
        (py_project / "sub").symlink_to(outside, target_is_directory=True)

    monkeypatch.setattr(WriteDiagnostics, "before_write", swap)
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp_rename", {"file": "b.py", "line": 1, "symbol": "helper", "new_name": "twice"})
    assert not r.ok and "is now a symlink" in r.text and "No file was written" in r.text, r.text
    assert (outside / "c.py").read_text() == "from b import helper\n\nhelper(2)\n"
    assert {p: p.read_bytes() for p in before} == before


async def test_rename_that_changes_nothing_is_an_error(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    before = (py_project / "a.py").read_text()
    r = await run.call("lsp_rename", {"file": "a.py", "line": 6, "symbol": '"héllo', "new_name": "x"})
    assert not r.ok
    assert (py_project / "a.py").read_text() == before


async def test_file_changed_on_disk_is_resynced(py_project: Path, run_factory: Any, server: str) -> None:
    run = run_factory(py_project, lsp_servers={"python": [server]})
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.data["locations"][0]["line"] == 1
    # another tool rewrites b.py behind the server's back: helper moves down two lines
    (py_project / "b.py").write_text("import math\n\n" + (py_project / "b.py").read_text())
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
    assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("b.py", 3)]
    assert "b.py:3: def helper(x: int) -> int:" in r.text


async def test_workspace_search_starts_the_server_for_the_root(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp", {"action": "symbols", "query": "helper"})
    assert r.ok, r.text
    assert ("helper", "function", "b.py", 1) in {(s["name"], s["kind"], s["file"], s["line"]) for s in r.data["symbols"]}
    status = await run.call("lsp", {"action": "status"})
    assert [(s["server"], s["root"]) for s in status.data["running"]] == [("basedpyright", ".")]
    ts = status.data["languages"]["typescript"][0]
    assert ts["state"] == "no-root" and "tsconfig.json" in ts["reason"]
