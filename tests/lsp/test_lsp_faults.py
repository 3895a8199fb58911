"""Faults: a server killed mid-request, a stub binary that exits, a missing root marker, a
missing binary, garbage on the wire, crash reported once then restarted, reload, status,
and no server process outliving Run.close()."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

from lsp_support import group_members, make_run


def stub(directory: Path, name: str, body: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


async def test_server_killed_mid_request_is_reported_once_then_restarted(py_project: Path) -> None:
    killed: list[int] = []
    run: Any = None

    def tracer(direction: str, peer: str, message: Any) -> None:
        # kill the server the moment the definition request is about to be written
        if direction == "send" and isinstance(message, dict) and message.get("method") == "textDocument/definition" and not killed:
            client = run.ctx.resources["lsp"].running()[0]
            killed.append(client.child.pid)
            client.child.kill_now()

    run = make_run(py_project, trace=tracer, lsp_servers={"python": ["pylsp"]})
    try:
        r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
        assert not r.ok
        assert "pylsp crashed while answering definition" in r.text and "signal 9" in r.text
        assert "restarted on the next call" in r.text
        r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
        assert r.ok, r.text
        assert "crashed" not in r.text  # reported once, not again
        assert [(loc["file"], loc["line"]) for loc in r.data["locations"]] == [("b.py", 1)]
        assert run.ctx.resources["lsp"].running()[0].child.pid != killed[0]
    finally:
        await run.close()


async def test_crash_between_calls_is_reported_on_the_next_call(py_project: Path, run_factory: Any) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["pylsp"]})
    assert (await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})).ok
    client = run.ctx.resources["lsp"].running()[0]
    client.child.kill_now()
    await asyncio.wait_for(client.child.wait(), 10)
    await asyncio.wait_for(client.rpc.connection.wait_closed(), 10)
    status = await run.call("lsp", {"action": "status"})
    assert "pylsp: crashed" in status.text
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.ok and r.text.startswith("pylsp crashed: pylsp was killed by signal 9") and "restarted it" in r.text
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.ok and "crashed" not in r.text


async def test_stub_binary_that_exits_is_not_a_server(py_project: Path, tmp_path: Path, run_factory: Any) -> None:
    bin_dir = tmp_path / "stubs"
    stub(bin_dir, "basedpyright-langserver", 'echo "error: toolchain not installed" >&2; exit 1')
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright", "pylsp"]})
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "helper"})
    assert r.ok and r.data["server"] == "pylsp", r.text  # fell through to the next candidate
    status = await run.call("lsp", {"action": "status"})
    row = next(c for c in status.data["languages"]["python"] if c["server"] == "basedpyright")
    assert row["state"] == "failed" and "exited with code 1" in row["reason"] and "toolchain not installed" in row["reason"]


async def test_only_a_stub_means_no_server(py_project: Path, tmp_path: Path, run_factory: Any) -> None:
    bin_dir = tmp_path / "stubs"
    stub(bin_dir, "basedpyright-langserver", "exit 1")
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "no python language server is usable for a.py" in r.text and "exited with code 1" in r.text


async def test_missing_root_marker(tmp_path: Path, run_factory: Any) -> None:
    root = tmp_path / "bare"
    root.mkdir()
    (root / "x.py").write_text("y = 1\n")
    run = run_factory(root, lsp_servers={"python": ["pylsp"]})
    r = await run.call("lsp", {"action": "hover", "file": "x.py", "line": 1, "symbol": "y"})
    assert not r.ok and "no root marker (pyproject.toml" in r.text and "lsp with action status" in r.text
    assert run.ctx.resources["lsp"].running() == []


async def test_missing_binary(py_project: Path, run_factory: Any, monkeypatch: Any) -> None:
    run = run_factory(py_project, lsp_servers={"python": ["pyright"]})
    monkeypatch.setenv("PATH", "/nonexistent")
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "pyright-langserver is not installed" in r.text


async def test_garbage_from_the_server(py_project: Path, tmp_path: Path, run_factory: Any, monkeypatch: Any,
                                       fake_server_argv: list[str]) -> None:
    bin_dir = tmp_path / "stubs"
    stub(bin_dir, "basedpyright-langserver", "exec " + " ".join(fake_server_argv))
    monkeypatch.setenv("FAKE_LSP_MODE", "garbage")
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]},
                      lsp_ready_timeout=0.2)
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "Content-Length is not a decimal number" in r.text


async def test_unknown_extension_and_bad_addressing(py_project: Path, run_factory: Any) -> None:
    (py_project / "notes.xyz").write_text("hello\n")
    run = run_factory(py_project, lsp_servers={"python": ["pylsp"]})
    r = await run.call("lsp", {"action": "hover", "file": "notes.xyz", "line": 1, "symbol": "hello"})
    assert not r.ok and "no language server in the catalog serves .xyz files" in r.text
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11})
    assert not r.ok and "needs `symbol`" in r.text and 's = "héllo😀"' in r.text
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 11, "symbol": "nothere"})
    assert not r.ok and '"nothere" is not on line 11' in r.text and "g.greet(s)" in r.text
    r = await run.call("lsp", {"action": "definition", "file": "a.py", "line": 99, "symbol": "x"})
    assert not r.ok and "past the end of a.py" in r.text
    r = await run.call("lsp", {"action": "definition", "file": "../outside.py", "line": 1, "symbol": "x"})
    assert not r.ok and "outside the workspace root" in r.text


async def test_reload_restarts_and_close_leaves_no_process(py_project: Path, ts_project: Path) -> None:
    (py_project / "web").mkdir()
    for name in ("tsconfig.json", "shapes.ts", "main.ts"):
        (py_project / "web" / name).write_text((ts_project / name).read_text())
    run = make_run(py_project)
    groups: list[int] = []
    try:
        r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
        assert r.ok and r.data["server"] == "basedpyright"
        r = await run.call("lsp", {"action": "hover", "file": "web/main.ts", "line": 3, "symbol": "makeSquare"})
        assert r.ok and r.data["server"] == "typescript-language-server"
        sup = run.ctx.resources["lsp"]
        status = await run.call("lsp", {"action": "status"})
        assert {(s["server"], s["root"]) for s in status.data["running"]} == {("basedpyright", "."), ("typescript-language-server", "web")}
        groups = [c.child.pid for c in sup.running()]
        assert all(group_members(g) for g in groups)
        r = await run.call("lsp", {"action": "reload"})
        assert r.ok and "basedpyright" in r.text and sup.running() == []
        assert not any(group_members(g) for g in groups)
        r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
        assert r.ok
        groups = [c.child.pid for c in sup.running()]
    finally:
        await run.close()
    # every process of every server group is gone (tsserver under typescript-language-server too)
    assert groups and not any(group_members(g) for g in groups)
    assert os.getpgid(0) not in groups


async def test_server_that_never_answers_times_out(py_project: Path, tmp_path: Path, run_factory: Any,
                                                    fake_server_argv: list[str]) -> None:
    bin_dir = tmp_path / "stubs"
    stub(bin_dir, "basedpyright-langserver", "exec " + " ".join(fake_server_argv))
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]},
                      lsp_timeout=0.5, lsp_ready_timeout=0.2)
    r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "did not answer hover within 0.5 s" in r.text and "not an empty one" in r.text
    r = await run.call("lsp", {"action": "references", "file": "a.py", "line": 11, "symbol": "helper"})
    assert not r.ok and "basedpyright does not support references" in r.text


async def test_build_starts_nothing_and_tiers(py_project: Path, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    run = make_run(py_project, trace=str(trace), lsp_servers={"python": ["pylsp"]})
    try:
        assert {"lsp", "lsp_rename"} <= {s.name for s in run.tools()}
        assert "lsp_rename" not in {s.name for s in run.tools("plan")} and "lsp" in {s.name for s in run.tools("plan")}
        assert run.ctx.resources["lsp"].clients == {}  # lazy: nothing started by building the tools
        r = await run.call("lsp", {"action": "hover", "file": "a.py", "line": 11, "symbol": "helper"})
        assert r.ok
    finally:
        await run.close()
    import json

    records = [json.loads(line) for line in trace.read_text().splitlines()]
    methods = {(r["direction"], r["message"].get("method")) for r in records if r["peer"] == "pylsp"}
    assert ("send", "initialize") in methods and ("send", "textDocument/hover") in methods and ("send", "shutdown") in methods
    assert any(r["direction"] == "recv" and "result" in r["message"] for r in records)
    disabled = make_run(py_project, resources={"lsp": False})
    assert "lsp" not in {s.name for s in disabled.tools()}
    await disabled.close()


async def test_a_server_that_never_publishes_ends_the_write_time_wait_when_it_goes_quiet(
        py_project: Path, tmp_path: Path, run_factory: Any, fake_server_argv: list[str]) -> None:
    # the wait ends by what the server does (nothing, for lsp_diagnostics_idle), not by the clock
    bin_dir = tmp_path / "stubs"
    stub(bin_dir, "basedpyright-langserver", "exec " + " ".join(fake_server_argv))
    run = run_factory(py_project, lsp_path=[str(bin_dir)], lsp_servers={"python": ["basedpyright"]},
                      lsp_ready_timeout=0.2, lsp_diagnostics_idle=1.0, lsp_diagnostics_timeout=30)
    r = await run.written(["a.py"])
    assert r.ok and r.data["unavailable"] and "went quiet for 1 s" in r.text, r.text  # not "within 30 s"
