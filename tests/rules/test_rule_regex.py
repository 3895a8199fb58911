"""A rule's `regex` in linear time (rules/_regex.py): the same answers as `re.search`, and no
expression that makes a backtracking search take exponential time can hang a scan, as none
hangs ast-grep (whose Rust regexes are linear)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
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


@pytest.mark.parametrize(("regex", "said"), [
    (r"^(a+)+\1$", "backreferences are not supported"),  # on `re`: minutes on a 3,000-character name
    (r"(?P<n>a)(?P=n)", "backreferences are not supported"),
    ("a(?=b)", "look-around, including look-ahead and look-behind, is not supported"),
    ("(?<!a)b", "look-around, including look-ahead and look-behind, is not supported"),
    ("(?>a+)b", "atomic groups (?>...) are not supported"),
    ("(?:a{200}){200}", "needs more than 20,000 states"),
])
def test_what_rust_lacks_is_refused_by_name(regex: str, said: str) -> None:
    with pytest.raises(re.error, match=re.escape(said)):
        Regex(re.compile(regex))


HOSTILE_ATOMS = [*ATOMS, r"\1", "(?=a)", "(?!b)", "(?<=a)", "(?>a)", "a++", "a*+", "(a)", "a{300}", "(?:a+){40}"]


def _hostile() -> st.SearchStrategy[str]:
    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda t: f"({t[0]}|{t[1]})"),
            st.tuples(inner, st.sampled_from(["*", "+", "{2,}", "{90}", "{1,300}", "*?", "++"])).map(
                lambda t: f"(?:{t[0]}){t[1]}"),
        )

    return st.recursive(st.sampled_from(HOSTILE_ATOMS), grow, max_leaves=6)


@settings(max_examples=3000, deadline=None)
@given(_hostile())
def test_no_accepted_expression_backtracks_on_a_long_text(expression: str) -> None:
    """Whatever the expression, it is refused (re.error, saying why) or searched by the
    states wherever `re` could backtrack: a long text never goes to `re` with a repetition."""
    try:
        pattern = re.compile(expression)
    except re.error:
        return  # not an expression at all (`\1` with no group, `a++` repeated)
    try:
        regex = Regex(pattern)
    except re.error as exc:
        assert "not supported" in str(exc) or "states" in str(exc), (expression, str(exc))
        return
    repeats = any(op in (re._constants.MAX_REPEAT, re._constants.MIN_REPEAT, re._constants.POSSESSIVE_REPEAT)  # type: ignore[attr-defined]
                  for op, _ in _walk(list(re._parser.parse(expression, 0))))  # type: ignore[attr-defined]
    assert not regex.on_re("ab" * 3000) or not repeats, expression
    if repeats:
        assert regex.search_by_states("ab" * 50) is not None, expression


def _walk(items: list[tuple[object, object]]) -> list[tuple[object, object]]:
    out = []
    for op, av in items:
        out.append((op, av))
        if isinstance(av, tuple):
            for part in av:
                if isinstance(part, re._parser.SubPattern):  # type: ignore[attr-defined]
                    out += _walk(list(part))
                elif isinstance(part, list):
                    for alternative in part:
                        if isinstance(alternative, re._parser.SubPattern):  # type: ignore[attr-defined]
                            out += _walk(list(alternative))
    return out


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


GROUPED = ["(a)", "(?P<n>b)", "(?:a|(b))", "(x)?", "(a|ab)(c|bcd)?"]


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_expressions(), st.tuples(_expressions(), st.sampled_from(GROUPED)).map("".join),
                 _expressions().map(lambda e: f"({e})"), _expressions().map(lambda e: f"(?:({e})|x)+")),
       st.text(alphabet="abxAB1 _\n-", max_size=14), st.sampled_from(["", "(?m)", "(?s)", "(?i)"]),
       st.integers(min_value=0, max_value=14))
def test_the_states_find_what_re_finds(expression: str, text: str, flags: str, pos: int) -> None:
    """The leftmost-first match a `replace` transformation takes, by the states: the span and
    every group as `re.search(text, pos)` gives them (greedy and lazy repetitions, choices)."""
    from minitools.match._regex_sub import Found, find

    pattern = re.compile(flags + expression.replace(r"\z", r"\Z"))
    # a repetition of what can match nothing is where a backtracking search and the states
    # part ways (`(?:(a*)|x)+`: `re` keeps the empty last round's group, Rust's regexes and
    # the states the round before): only `re`'s own reading of it is checked here
    assume(not _repeats_nothing(list(re._parser.parse(pattern.pattern, pattern.flags))))  # type: ignore[attr-defined]
    program, start = Regex(pattern).capturing()
    assert program is not None, expression
    pos = min(pos, len(text))
    slots = find(program, start, pattern.groups, text, pos)
    theirs = pattern.search(text, pos)
    assert (slots is None) == (theirs is None), (pattern.pattern, text, pos)
    if slots is not None and theirs is not None:
        ours = Found(text, slots, dict(pattern.groupindex))
        assert ours.span() == theirs.span(), (pattern.pattern, text, pos)
        groups = range(pattern.groups + 1)
        assert [ours.group(g) for g in groups] == [theirs.group(g) for g in groups], (pattern.pattern, text, pos)


def _empty(items: list[tuple[object, object]]) -> bool:
    """Whether parsed `items` can match the empty text (anchors taken to hold)."""
    c = re._constants  # type: ignore[attr-defined]
    for op, av in items:
        if op is c.SUBPATTERN and not _empty(list(av[3])):  # type: ignore[index]
            return False
        if op is c.BRANCH and not any(_empty(list(alt)) for alt in av[1]):  # type: ignore[index]
            return False
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] > 0 and not _empty(list(av[2])):  # type: ignore[index]
            return False
        if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN):
            return False
    return True


def _repeats_nothing(items: list[tuple[object, object]]) -> bool:
    c = re._constants  # type: ignore[attr-defined]
    for op, av in items:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            body = list(av[2])  # type: ignore[index]
            inner = [body] if av[1] <= 1 or not _empty(body) else None  # type: ignore[index]
        else:
            inner = [list(av[3])] if op is c.SUBPATTERN else [list(a) for a in av[1]] if op is c.BRANCH else []  # type: ignore[index]
        if inner is None or any(_repeats_nothing(part) for part in inner):
            return True
    return False


def _replaced(tmp_path: Path, argv0: list[str], source: str, replace: str, by: str) -> list[str]:
    (tmp_path / "a.py").write_text(source)
    rule = inline_rule("python", {"pattern": "$A = $V"},
                       transform={"B": {"replace": {"source": "$A", "replace": replace, "by": by}}}, fix="$B")
    rows = scan_findings([*argv0, "scan", "--inline-rules", rule, "--json=stream", "."], tmp_path, timeout=120)
    return [str(row) for row in rows]


@pytest.mark.parametrize(("replace", "by"), [
    ("a*", "-"),  # an empty match where the last one ended is passed over: -b-b-, not re.sub's -b--b-
    ("x*?", "-"),
    ("(?<g>a)(b)?", "<$$|${g}|$2|$1a|$g_|$9|${2}x>"),  # Rust's group names, and its `$` in `by`
    ("(?i)A|$", "#"),
    ("[[:alpha:]]+", "w"),
])
def test_replace_finds_and_fills_in_as_ast_grep_does(tmp_path: Path, replace: str, by: str) -> None:
    source = "baaab = 1\nxaxb = 2\nab_12 = 3\n"
    theirs = _replaced(tmp_path, [ast_grep_cli()], source, replace, by)
    ours = _replaced(tmp_path, [sys.executable, "-m", "minitools", "ast-grep"], source, replace, by)
    assert ours == theirs and len(ours) == 3


def test_a_replace_that_backtracks_exponentially_runs_in_linear_time(tmp_path: Path) -> None:
    """`(a|aa)+$` over a 3,000-character identifier that almost matches: a backtracking
    `re.sub` takes exponential time at each of its positions (it ran for hours); Rust's
    regexes, and the states here, are linear for each match."""
    name = "a" * 3000 + "_b"
    theirs = _replaced(tmp_path, [ast_grep_cli()], f"{name} = 1\nb{'a' * 41} = 2\n", "(a|aa)+$", "<$1>")
    ours = _replaced(tmp_path, [sys.executable, "-m", "minitools", "ast-grep"], f"{name} = 1\nb{'a' * 41} = 2\n",
                     "(a|aa)+$", "<$1>")
    assert ours == theirs and len(ours) == 2


@pytest.mark.parametrize("regex", ["1$", "(?m)1$", r"1\n$", "[$]", r"\$x", r"= 1\z", "^x"])
def test_the_end_of_the_text_is_rusts(tmp_path: Path, regex: str) -> None:
    # a module's text ends with its final newline: Rust's `$` (ast-grep's) holds only at the
    # very end, where Python's also holds before that newline; `(?m)` makes them the same
    (tmp_path / "a.py").write_text("x = 1\ny = '$x'\nz = 1\n")
    rule = inline_rule("python", {"any": [{"kind": "module"}, {"kind": "string_content"}], "regex": regex})
    theirs = scan_findings([ast_grep_cli(), "scan", "--inline-rules", rule, "--json=stream", "."], tmp_path)
    ours = scan_findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rule, "--json=stream", "."],
                         tmp_path)
    assert ours == theirs
