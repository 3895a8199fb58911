"""symbol_edit by the parser's extent (no language server wired), and what it refuses: each bad
input gets an error quoting it, and nothing is staged or written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minitools import Run

GO = '''package main

import "fmt"

// Total adds them up.
func Total(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func main() {
	fmt.Println(Total([]int{1, 2}))
}
'''
PY = '''import functools


@functools.cache
def area(w: int, h: int) -> int:
    return w * h


def twice(n: int) -> int:
    return n + n  # twice n


print(area(2, 3), twice(area(1, 1)))
'''


def _run(root: Path) -> Run:
    return Run(root, strict=True, resources={"lsp": False}, approve=lambda spec, args: True)


async def _staged_and_accepted(run: Run, args: dict[str, Any]) -> Any:
    staged = await run.call("symbol_edit", args)
    assert staged.ok and staged.data["by"] == "parser", staged.text
    accepted = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
    assert accepted.ok, accepted.text
    return staged


async def test_go_function_replaced_by_the_parsers_extent(tmp_path: Path) -> None:
    (tmp_path / "main.go").write_text(GO)
    async with _run(tmp_path) as run:
        staged = await _staged_and_accepted(run, {
            "file": "main.go", "line": 6, "symbol": "Total", "action": "replace",
            "code": "func Total(xs []int) (t int) {\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn\n}"})
    assert staged.data["extent"] == {"start_line": 6, "end_line": 12} and staged.data["kind"] == "function_declaration"
    assert (tmp_path / "main.go").read_text() == GO.replace(
        "func Total(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}",
        "func Total(xs []int) (t int) {\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn\n}")


async def test_python_decorators_belong_to_the_definition_and_code_goes_around_it(tmp_path: Path) -> None:
    (tmp_path / "geo.py").write_text(PY)
    async with _run(tmp_path) as run:
        before = await _staged_and_accepted(run, {"file": "geo.py", "line": 5, "symbol": "area", "action": "insert_before",
                                                  "code": "UNIT = 1"})
        assert before.data["extent"] == {"start_line": 4, "end_line": 6}  # from the decorator
        await _staged_and_accepted(run, {"file": "geo.py", "line": 12, "symbol": "twice", "action": "insert_after",
                                         "code": "def thrice(n: int) -> int:\n    return 3 * n"})
    assert (tmp_path / "geo.py").read_text() == PY.replace("\n\n@functools", "\n\nUNIT = 1\n\n\n@functools").replace(
        "# twice n\n", "# twice n\n\n\ndef thrice(n: int) -> int:\n    return 3 * n\n")


async def test_a_crlf_file_stays_crlf(tmp_path: Path) -> None:
    (tmp_path / "geo.py").write_bytes(PY.replace("\n", "\r\n").encode())
    async with _run(tmp_path) as run:
        await _staged_and_accepted(run, {"file": "geo.py", "line": 9, "symbol": "twice", "action": "replace",
                                         "code": "def twice(n: int) -> int:\n    return 2 * n"})
    assert (tmp_path / "geo.py").read_bytes() == PY.replace("n + n  # twice n", "2 * n").replace("\n", "\r\n").encode()


BAD = {
    "not on the line": ({"line": 9, "symbol": "thrice"}, ['symbol "thrice" is not on line 9 of geo.py',
                                                         "9: def twice(n: int) -> int:"]),
    "ambiguous": ({"line": 13, "symbol": "area"}, ['symbol "area" is ambiguous on line 13 of geo.py',
                                                   '"t(area"', '"e(area"', "13: print(area(2, 3), twice(area(1, 1)))"]),
    "a use": ({"line": 13, "symbol": "print"}, ['"print" on line 13 of geo.py names no definition there',
                                                "lsp definition"]),
    "past the end": ({"line": 40, "symbol": "x"}, ["line 40 is past the end of geo.py, which has 13 lines"]),
    "does not parse": ({"line": 9, "symbol": "twice", "code": "def twice(n: int) -> int:\n    return (n"},
                       ["the code does not parse as python there", "10:     return (n", "Nothing was staged"]),
    "outside the root": ({"file": "../elsewhere.py"}, ['file "../elsewhere.py" is outside the workspace root']),
    "no parser": ({"file": "notes.unknownext", "line": 1, "symbol": "twice"},
                  ["no language server answers for notes.unknownext", "no parser reads notes.unknownext"]),
}


@pytest.mark.parametrize("case", list(BAD))
async def test_bad_input_is_refused_quoting_it_and_nothing_is_staged(tmp_path: Path, case: str) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "geo.py").write_text(PY)
    (root / "notes.unknownext").write_text("def twice(): pass\n")
    (tmp_path / "elsewhere.py").write_text("def f(): pass\n")
    given, expected = BAD[case]
    args = {"file": "geo.py", "line": 9, "symbol": "twice", "action": "replace", "code": "def twice(n): return n", **given}
    async with _run(root) as run:
        result = await run.call("symbol_edit", args)
        resolved = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
    assert not result.ok
    for text in expected:
        assert text in result.text, result.text
    assert not resolved.ok and "Open edits: none" in resolved.text
    assert (root / "geo.py").read_text() == PY and (tmp_path / "elsewhere.py").read_text() == "def f(): pass\n"


async def test_a_file_larger_than_a_search_reads_is_refused_before_it_is_read(tmp_path: Path) -> None:
    # a 200 MB file was split into lines and parsed twice: the process passed 7 GB and went on
    big = PY + "".join(f"print({i})\n" for i in range(400))
    (tmp_path / "geo.py").write_text(big)
    async with Run(tmp_path, strict=True, resources={"lsp": False}, approve=lambda spec, args: True,
                   search_max_file_kb=1) as run:
        result = await run.call("symbol_edit", {"file": "geo.py", "line": 9, "symbol": "twice", "action": "replace",
                                                "code": "def twice(n): return n"})
    assert not result.ok and f'file "geo.py" is {len(big):,} bytes, over the 1,024 a search reads' in result.text
    assert "search.max_file_size_kb" in result.text and "Nothing was staged" in result.text
    assert (tmp_path / "geo.py").read_text() == big
