"""The words a scan asks of a file before parsing it for a rule (`Rule.tokens`, rules/_scan.py): a
file holding none of a rule's word sets whole is not parsed for it, so each set must be in every
file the rule matches in. An `any` of patterns needs one alternative's words (not only those all
alternatives share); a `kind` the keyword every node of it writes (the language catalog's
`kind_words`); and where the catalog row says so (`whole_words`), a name or keyword as a whole
word, not inside a longer one. Both claims are checked here on real code; the findings stay those
of the `ast-grep` CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import corpora
from minitools.match import language_row, parse_source
from minitools.rules import RuleSet, load_rule_text
from reference_tools import ast_grep_cli

REPO = Path(__file__).resolve().parents[2]
DDTRACE_RULES = REPO / "benchmarks" / "rulesets" / "dd-trace-py" / "sgconfig.yml"

ENVIRON = """id: environ
language: python
rule:
  any:
    - pattern: from os import environ
    - pattern: from os import getenv
"""

FINALLY = """id: finally-return
language: python
rule:
  kind: return_statement
  inside:
    kind: finally_clause
    stopBy: end
"""


def _scan(rule: str, source: str) -> list[str]:
    (config,) = load_rule_text(rule, "r.yml")
    return [f.match.text for f in RuleSet([config]).scan_source(source.encode(), "python", "a.py")]


def test_a_file_is_searched_for_each_alternative_of_an_any() -> None:
    # one alternative's words suffice: `getenv` without `environ`, and the other way round
    assert _scan(ENVIRON, "from os import getenv\n") == ["from os import getenv"]
    assert _scan(ENVIRON, "from os import environ\n") == ["from os import environ"]
    assert _scan(ENVIRON, "from os import path\n") == []
    # `finally` and `return` both written: the kinds' keywords are in the file
    assert _scan(FINALLY, "def f():\n    try:\n        pass\n    finally:\n        return 1\n") == ["return 1"]
    assert _scan(FINALLY, "def f():\n    return 1\n") == []


def test_kind_words_are_written_by_every_node_of_their_kind() -> None:
    """The catalog's claim, on the standard library: a node of the kind has the keyword as a
    token of its own, so a file without the word holds none."""
    files = corpora.sample(corpora.python_stdlib(), (".py",), 150)
    kinds = dict(language_row("python").kind_words)
    seen = dict.fromkeys(kinds, 0)
    for path in files:
        stack = [parse_source("python", path.read_bytes()).root_node]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            word = kinds.get(node.type)
            if word is None or not node.is_named:  # (the keyword token of `lambda` is a `lambda` too)
                continue
            seen[node.type] += 1
            tokens = [c.type for c in node.children if not c.is_named]
            assert any(t.startswith(word) for t in tokens), f"{path}: a {node.type} without {word!r}: {tokens}"
    assert not [k for k, n in seen.items() if n == 0], f"kinds never met in the sample: {seen}"


def test_python_names_and_keywords_are_whole_words() -> None:
    """The catalog's `whole_words` for Python, on the standard library: no leaf token written
    like an identifier is followed by a letter, digit or `_`, or preceded by one that ends a word
    other than a number (strings and comments aside: their text is no token the check is made for)."""
    assert language_row("python").whole_words
    word = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
    glued = re.compile(rb"[A-Za-z0-9_]")
    checked = 0
    for path in corpora.sample(corpora.python_stdlib(), (".py",), 150):
        source = path.read_bytes()
        stack = [parse_source("python", source).root_node]
        while stack:
            node = stack.pop()
            if "string" in node.type or "comment" in node.type:
                continue
            if node.child_count:
                stack.extend(node.children)
                continue
            if not word.fullmatch(source[node.start_byte:node.end_byte]):
                continue
            checked += 1
            start = node.start_byte
            while start and glued.fullmatch(source[start - 1:start]):
                start -= 1
            before = source[start:node.start_byte]
            after = source[node.end_byte:node.end_byte + 1]
            assert (not before or before[:1].isdigit()) and not glued.fullmatch(after), (
                f"{path}:{node.start_point[0] + 1}: {node.type} {node.text!r} glued to {before!r} / {after!r}")
    assert checked > 10_000


def test_a_name_inside_a_longer_word_is_no_match() -> None:
    rule = "id: meta\nlanguage: python\nrule:\n  pattern: $S._meta\n"
    assert _scan(rule, "span._metadata = 1\n") == []
    assert _scan(rule, "span._metadata = 1\nspan._meta = 2\n") == ["span._meta"]
    # a keyword right after a number is a word of its own
    assert _scan(FINALLY, "def f():\n    try:\n        pass\n    finally:\n        return 1if x else 2\n") == [
        "return 1if x else 2"]
    assert _scan("id: i\nlanguage: python\nrule:\n  pattern: $A if $B else $C\n", "y = 1if x else 2\n") == [
        "1if x else 2"]


def _findings(argv: list[str], root: Path) -> list[tuple[str, str, int, int]]:
    proc = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr[-800:]
    found = [json.loads(line) for line in proc.stdout.splitlines()]
    return sorted((m["file"], m["ruleId"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"])
                  for m in found)


@pytest.mark.parametrize("corpus", ["ddtrace", "stdlib-3.11.7"])
def test_a_rule_project_finds_what_ast_grep_scan_finds(corpus: str) -> None:
    """dd-trace-py's own rules (most an `any` of patterns; one of kinds only) over the ddtrace
    wheel and the standard library: the same findings as the CLI's."""
    root = corpora.wide(corpus)
    config = str(DDTRACE_RULES)
    theirs = _findings([ast_grep_cli(), "scan", "-c", config, "--json=stream", "."], root)
    ours = _findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "-c", config, "--json=stream", "."], root)
    assert theirs, f"the CLI found nothing in {root}: the comparison says nothing"
    assert ours == theirs
