"""Patterns whose `$$$` runs can split a long list in very many ways: a run of distinct
`$$$` costs the product of the places, not of the splits (a failed rest is not tried again),
and one with repeated names, which must be tried split by split, is ended by the search's
budget in the middle of the match, with the budget's message, at every strictness.
No timings: each search runs in a process of its own with a budget and must end clearly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from minitools.match import compile_pattern, find_matches

CALL = "f(1, " + ", ".join(["0"] * 300) + ");\n"  # the `1` is there, but not last


def _cli(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", "ast-grep", "-l", "javascript", *argv, "."],
                          cwd=root, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("strictness", ["smart", "relaxed"])
def test_a_run_of_distinct_sequences_is_answered_in_full(tmp_path: Path, strictness: str) -> None:
    (tmp_path / "a.js").write_text(CALL)
    (tmp_path / "b.js").write_text(CALL.replace(");", ", 1);"))
    done = _cli(tmp_path, "--strictness", strictness, "--json=stream", "f($$$A, $$$B, $$$C, $$$D, 1)")
    assert done.returncode == 0 and "stopped" not in done.stderr, done.stderr
    assert [line.count('"file": "b.js"') for line in done.stdout.splitlines()] == [1]  # a.js has no match


def test_what_a_sequence_takes_is_the_same_with_the_failures_remembered() -> None:
    pattern = compile_pattern("f($$$A, $$$B, 9, $$$C)", "javascript")
    (m,) = find_matches(pattern, b"f(1, 2, 9, 3, 9, 4);")
    assert {k: v.text for k, v in m.metavars.items()} == {"A": "", "B": "1, 2", "C": "3, 9, 4"}


@pytest.mark.parametrize("strictness", ["smart", "relaxed"])
def test_repeated_sequences_end_with_the_budget_inside_one_match(tmp_path: Path, strictness: str) -> None:
    (tmp_path / "a.js").write_text(CALL)
    done = _cli(tmp_path, "--strictness", strictness, "--time-budget", "2", "f($$$A, $$$B, $$$A, $$$B, 1)")
    assert done.returncode == 1, done.stderr
    assert "stopped after 2 s: narrow the path or the pattern, or raise --time-budget" in done.stderr
