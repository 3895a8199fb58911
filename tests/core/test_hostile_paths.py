"""Path strings no file system takes (a NUL byte, a name or a path over the system's limits) are
the caller's error in every path argument: a clear refusal quoting the path, never a bug report.
The Run is strict, so a bug would raise here instead of being reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from minitools import Run

BAD = {
    "nul": ("app.py\x00.txt", "NUL byte"),
    "long name": ("a" * 300 + ".py", "more than a file name may be"),
    "long path": ("/".join(["d" * 200] * 30) + "/x.py", "more than a path may be"),
}
CALLS = {
    "ast_grep": lambda p: ("ast_grep", {"pattern": "print($A)", "language": "python", "path": p}),
    "ast_edit": lambda p: ("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python", "path": p}),
    "lsp": lambda p: ("lsp", {"action": "diagnostics", "file": p}),
    "lsp_rename": lambda p: ("lsp_rename", {"file": p, "line": 1, "symbol": "x", "new_name": "y"}),
    "debug breakpoints": lambda p: ("debug", {"op": "breakpoints", "file": p, "lines": [1]}),
    "debug launch": lambda p: ("debug", {"op": "launch", "program": p}),
    "lsp_code_action": lambda p: ("lsp_code_action", {"file": p, "line": 1, "action": 1}),
    "lsp symbols": lambda p: ("lsp", {"action": "symbols", "file": p}),
    "symbol_edit": lambda p: ("symbol_edit", {"file": p, "line": 1, "symbol": "print", "action": "replace", "code": "x"}),
}


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("call", list(CALLS))
async def test_unusable_paths_are_refused_as_the_callers_error(tmp_path: Path, bad: str, call: str) -> None:
    (tmp_path / "app.py").write_text("print(1)\n")
    path, reason = BAD[bad]
    name, args = CALLS[call](path)
    async with Run(tmp_path, strict=True, approve=lambda spec, a: True) as run:
        result = await run.call(name, args)
    assert not result.ok and reason in result.text, result.text
    assert "internal error" not in result.text and "bug" not in result.text


@pytest.mark.parametrize("bad", list(BAD))
async def test_written_names_an_unusable_path_and_checks_the_rest(tmp_path: Path, bad: str) -> None:
    path, reason = BAD[bad]
    async with Run(tmp_path, strict=True) as run:
        result = await run.written([path])
    assert result.ok and "not a usable path" in str(result.data) and reason in str(result.data)


async def test_a_program_argument_with_a_nul_byte_is_the_callers_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "app.py").write_text("import sys\nprint(sys.argv)\n")
    async with Run(tmp_path, strict=True, approve=lambda spec, a: True) as run:
        result = await run.call("debug", {"op": "launch", "program": "app.py", "args": ["ok", "x\x00y"]})
        status = await run.call("debug", {"op": "status"})
    assert not result.ok and "'x\\x00y' contains a NUL byte" in result.text and "remove it" in result.text, result.text
    assert "adapter stderr" not in result.text
    assert "No debug session" in status.text or "no session" in status.text.lower(), status.text
