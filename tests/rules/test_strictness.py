"""A pattern at a strictness other than smart, outside a rule file: `minitools ast-grep
--strictness` (search, and rewrite with --apply) against `ast-grep run --strictness`, and the
`strictness` argument of the ast_grep tool. (Rules with `pattern: {context, strictness}` are
compared with `ast-grep scan` in test_rule_semantics.py.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minitools import Run
from reference_tools import ast_grep_cli

TS = """foo(/* A*/bar);
foo(bar);
foo(bar, baz);
print(123);
print(123,);
function f() { let a = 1; }
if (x) { y(); } else { z(); }
"""
PATTERNS = ["print($A,)", "foo(bar)", "function $F() { let $X = 1 }", "if ($C) { $$$ }", "foo($A, $B)"]


def _theirs(root: Path, pattern: str, level: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ast_grep_cli(), "run", "-l", "ts", "--strictness", level, "-p", pattern, *extra, "."],
                          cwd=root, capture_output=True, text=True, timeout=60)


def _ours(root: Path, pattern: str, level: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", "ast-grep", "-l", "typescript", "--strictness", level,
                           pattern, *extra, "."], cwd=root, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("level", ["cst", "smart", "ast", "relaxed", "signature"])
def test_the_same_matches_as_ast_grep_run_at_each_strictness(tmp_path: Path, level: str) -> None:
    (tmp_path / "a.ts").write_text(TS)
    seen = set()
    for pattern in PATTERNS:
        theirs = _theirs(tmp_path, pattern, level, "--json=stream")
        ours = _ours(tmp_path, pattern, level, "--json=stream")
        assert ours.returncode == theirs.returncode, (pattern, ours.stderr)
        want = [(m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]) for m in map(json.loads, theirs.stdout.splitlines())]
        got = [(m["start_byte"], m["end_byte"]) for m in map(json.loads, ours.stdout.splitlines())]
        assert sorted(got) == sorted(want), pattern
        seen.add(tuple(sorted(want)))
    assert len(seen) > 2  # the patterns tell the levels apart


def test_a_rewrite_at_a_strictness_writes_what_ast_grep_writes(tmp_path: Path) -> None:
    for side in ("theirs", "ours"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.ts").write_text(TS)
    assert _theirs(tmp_path / "theirs", "print($A,)", "relaxed", "-r", "log($A)", "-U").returncode == 0
    preview = _ours(tmp_path / "ours", "print($A,)", "relaxed", "-r", "log($A)")
    assert preview.returncode == 0 and "+log(123);" in preview.stdout
    assert (tmp_path / "ours" / "a.ts").read_text() == TS  # a preview writes nothing
    applied = _ours(tmp_path / "ours", "print($A,)", "relaxed", "-r", "log($A)", "--apply")
    assert applied.returncode == 0, applied.stderr
    assert "applied 2 replacements in 1 files" in applied.stderr
    assert (tmp_path / "ours" / "a.ts").read_text() == (tmp_path / "theirs" / "a.ts").read_text()
    assert (tmp_path / "ours" / "a.ts").read_text().count("log(123)") == 2


def test_an_unparseable_pattern_at_a_strictness_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text(TS)
    proc = _ours(tmp_path, "print(", "ast")
    assert proc.returncode == 8 and 'pattern "print(" is unparseable as typescript' in proc.stderr


async def test_the_ast_grep_tool_takes_a_strictness(tmp_path: Path) -> None:
    shutil.copyfile(Path(__file__), tmp_path / "unrelated.py")
    (tmp_path / "a.ts").write_text(TS)
    async with Run(tmp_path, resources={"lsp": False}) as run:
        smart = await run.call("ast_grep", {"pattern": "print($A,)", "language": "typescript"})
        relaxed = await run.call("ast_grep", {"pattern": "print($A,)", "language": "typescript", "strictness": "relaxed"})
        wrong = await run.call("ast_grep", {"rule": {"pattern": "print($A)"}, "language": "typescript",
                                            "strictness": "relaxed"})
    assert smart.ok and [m["text"] for m in smart.data["matches"]] == ["print(123,)"]
    assert relaxed.ok, relaxed.text
    assert [m["text"] for m in relaxed.data["matches"]] == ["print(123)", "print(123,)"]
    assert relaxed.text.startswith('2 matches of "print($A,)" (typescript, strictness relaxed) in 1 of 1 file')
    assert relaxed.data["pattern"] == "print($A,)" and relaxed.data["matches"][0]["metavars"]["A"]["text"] == "123"
    assert not wrong.ok and "strictness goes with pattern" in wrong.text
