"""A rule's `regex` in linear time (rules/_regex.py): the same answers as `re.search`, and no
expression that makes a backtracking search take exponential time can hang a scan, as none
hangs ast-grep (whose Rust regexes are linear)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.match import Regex
from reference_tools import ast_grep_cli
from scan_cli import inline_rule, scan_findings

# expressions of the kinds rule files write (what Rust's syntax and Python's share)
ATOMS = ["a", "b", "ab", ".", "[ab]", "[^a]", "[a-c]", r"\d", r"\w", r"\s", r"\W", "x", "(?i:A)", "[A-Bx]"]
ANCHORS = ["^", "$", r"\b", r"\B", r"\A", r"\z"]


def _expressions() -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda t: f"(?:{t[0]}|{t[1]})"),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "*?", "{2}", "{1,3}", "{0,2}", "+?"])).map(
                lambda t: f"(?:{t[0]}){t[1]}"),
            st.tuples(st.sampled_from(ANCHORS), inner).map("".join),
            st.tuples(inner, st.sampled_from(ANCHORS)).map("".join),
        )

    return st.recursive(atom, grow, max_leaves=8)


@settings(max_examples=1500, deadline=None)
@given(_expressions(), st.text(alphabet="abxAB1 _\n-", max_size=14), st.sampled_from(["", "(?m)", "(?s)", "(?i)"]))
def test_the_states_answer_as_re_does(expression: str, text: str, flags: str) -> None:
    pattern = re.compile(flags + expression.replace(r"\z", r"\Z"))
    by_states = Regex(pattern).search_by_states(text)
    assert by_states is not None, expression
    assert by_states == (pattern.search(text) is not None), (pattern.pattern, text)


def test_what_rust_lacks_stays_on_re() -> None:
    assert Regex(re.compile(r"(a)\1")).search_by_states("aa") is None  # a back-reference
    assert Regex(re.compile(r"(a)\1")).search("aa")


@pytest.mark.parametrize("regex", ["^(a+)+$", ".*a.*a.*a.*a.*a.*a.*a.*b"])
def test_an_exponential_expression_scans_as_ast_grep_does(tmp_path: Path, regex: str) -> None:
    # `^(a+)+$` against a 31-character identifier that almost matches: 2^31 ways for a
    # backtracking search (the scan took minutes before); seven `.*` in a row split a
    # 200-character one in 200^7 ways; the Rust regex answers at once
    names = ["a" * 31 + "_b", "a" * 31, "b" + "a" * 40, "a" * 200]
    (tmp_path / "a.py").write_text("".join(f"{name} = 1\n" for name in names))
    rule = inline_rule("python", {"kind": "identifier", "regex": regex})
    theirs = scan_findings([ast_grep_cli(), "scan", "--inline-rules", rule, "--json=stream", "."], tmp_path)
    ours = scan_findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rule, "--json=stream", "."],
                         tmp_path, timeout=120)
    assert ours == theirs and len(ours) == (2 if regex.startswith("^") else 1)
