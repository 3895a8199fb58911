"""The words a scan asks of a file before parsing it for a rule (`Rule.tokens`, rules/_scan.py): a
file holding none of a rule's word sets whole is not parsed for it, so each set must be in every
file the rule matches in. An `any` of patterns needs one alternative's words (not only those all
alternatives share); a `kind` the keyword every node of it writes (the language catalog's
`kind_words`, checked here on real code). The findings stay those of the `ast-grep` CLI."""

from __future__ import annotations

import json
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
