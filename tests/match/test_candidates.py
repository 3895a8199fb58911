"""Candidates found from the rarest token the pattern writes are exactly those a whole-tree
query by kind finds: the same matches, over real code (the running interpreter's standard
library and the TypeScript compiler's own sources), for patterns that write tokens at
several depths, as leaves of strings, under nested nodes of one kind."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

import minitools.match._one_file as search
from minitools.match import compile_pattern, find_matches, load_language
from minitools.match._one_file import _anchor

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PYTHON_FILES = sorted([*(STDLIB / "json").glob("*.py"), *(STDLIB / "email").glob("*.py"),
                       *(STDLIB / "asyncio").glob("*.py"), STDLIB / "argparse.py", STDLIB / "typing.py"])

PYTHON_PATTERNS = [
    "self.$A = $A",
    "self",
    "if $X is None: $$$B",
    "$A.append($B)",
    "isinstance($X, str)",
    "raise ValueError($M)",
    "len($A) == 0",
    "len(str($A))",
    "getattr($A, $B, None)",
    "return None",
    "'utf-8'",
    "$F(*args, **kwargs)",
    "def __init__(self, $$$P): $$$B",
    "not $A",
    "$A[0]",
]


def _matches(pattern_source: str, language: str, source: bytes) -> list[tuple[int, int, dict[str, str]]]:
    pattern = compile_pattern(pattern_source, language)
    return [(m.start_byte, m.end_byte, {k: c.text for k, c in m.metavars.items()}) for m in find_matches(pattern, source)]


def _both_ways(monkeypatch: pytest.MonkeyPatch, pattern: str, language: str, source: bytes) -> tuple[list[object], list[object]]:
    monkeypatch.setattr(search, "BYTES_PER_ANCHOR", 0)  # always from the anchor
    anchored = _matches(pattern, language, source)
    monkeypatch.setattr(search, "BYTES_PER_ANCHOR", 1 << 40)  # always the whole-tree query
    queried = _matches(pattern, language, source)
    return anchored, queried  # type: ignore[return-value]


@pytest.mark.parametrize("pattern", PYTHON_PATTERNS)
def test_anchored_candidates_give_the_query_s_matches_on_the_stdlib(monkeypatch: pytest.MonkeyPatch, pattern: str) -> None:
    assert len(PYTHON_FILES) > 40
    total = 0
    for path in PYTHON_FILES:
        anchored, queried = _both_ways(monkeypatch, pattern, "python", path.read_bytes())
        assert anchored == queried, path
        total += len(queried)
    assert total > 0  # every pattern of the table occurs in these files


def test_anchored_candidates_on_typescript_sources(monkeypatch: pytest.MonkeyPatch, repo_root: Path) -> None:
    lib = repo_root / "node_modules" / "typescript" / "lib"
    sources = sorted(lib.glob("lib.es20*.d.ts"))[:40] + [repo_root / "examples" / "sample" / "web" / "cart.ts"]
    assert len(sources) > 10
    for pattern in ["interface $I { $$$B }", "$A(): $T;", "declare var $V: $T;", "type $A = $B;"]:
        total = 0
        for path in sources:
            anchored, queried = _both_ways(monkeypatch, pattern, "typescript", path.read_bytes())
            assert anchored == queried, (pattern, path)
            total += len(queried)
        assert total > 0, pattern


def _kinds(pattern_source: str, token: bytes) -> list[list[str]]:
    pattern = compile_pattern(pattern_source, "python")
    language = load_language("python")
    return [[language.node_kind_for_id(k) or "" for k in path] for path in dict(pattern.anchors)[token]]


def test_the_anchor_is_the_rarest_token_and_none_when_tokens_are_dense() -> None:
    pattern = compile_pattern("self.$A = $A", "python")
    # each token with the kinds from its leaf up to the pattern's root
    assert _kinds("self.$A = $A", b"self") == [["identifier", "attribute", "assignment"]]
    assert _kinds("self.$A = $A", b"=") == [["=", "assignment"]]
    source = b"x = 1\n" + b"self.a.b.c(self)\n" * 40
    assert _anchor(pattern, source) == (b"=", dict(pattern.anchors)[b"="])
    assert _anchor(pattern, b"self.x=x;" * 40) is None  # each token every 9 bytes: the query is cheaper
    # a token written at several places keeps every path
    assert _kinds("f(g($A))", b"(") == [["(", "argument_list", "call"], ["(", "argument_list", "call", "argument_list", "call"]]


def test_occurrences_inside_strings_comments_and_longer_tokens_are_not_candidates() -> None:
    source = b"x == y  # x = y\ns = 'x = y'\nxx = y\nx = y\n"
    last = source.rindex(b"x = y")
    assert _matches("x = $V", "python", source) == [(last, last + 5, {"V": "y"})]


def test_a_run_tried_only_beside_its_token_gives_the_whole_walk_s_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    # a run of siblings that starts with a metavariable is tried at the named siblings before
    # each of its tokens (TypeScript `$A; $B` read as class members `$A`, `;`, `$B`), not at
    # every named node
    from corpora import sample, typescript_packages

    language, pattern = "typescript", "$A; $B"
    compiled = compile_pattern(pattern, language)
    assert any(p.is_sequence for p in (compiled, *compiled.alternatives))
    paths = sample(typescript_packages(), (".ts",), 120)
    total = 0
    for path in paths:
        source = path.read_bytes()
        anchored = _matches(pattern, language, source)
        with monkeypatch.context() as patched:
            patched.setattr(search, "_run_token", lambda *_: None)  # every named node
            walked = _matches(pattern, language, source)
        assert anchored == walked, path
        total += len(walked)
    assert total > 100


@pytest.mark.parametrize("pattern", ["$A.append($B)", "not $A", "return None", "def __init__(self, $$$P): $$$B"])
def test_a_walked_tree_gives_the_query_s_candidates(monkeypatch: pytest.MonkeyPatch, pattern: str) -> None:
    # a search of a few small files walks the tree instead of compiling a kind query (start-up)
    monkeypatch.setattr(search, "BYTES_PER_ANCHOR", 1 << 40)  # by kind, not from an anchor
    for path in PYTHON_FILES[:12]:
        source = path.read_bytes()
        monkeypatch.setattr(search, "_walked", 0)
        monkeypatch.setattr(search, "_compiled", set())  # as if no query were compiled yet
        monkeypatch.setattr(search, "WALK_BYTES", 1 << 40)
        walked = _matches(pattern, "python", source)
        monkeypatch.setattr(search, "WALK_BYTES", 0)
        queried = _matches(pattern, "python", source)
        assert walked == queried, path
