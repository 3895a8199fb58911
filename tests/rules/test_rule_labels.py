"""Labels in `scan --json` against the `ast-grep` CLI (0.51.1): without a `labels` key a
finding's labels are the match (primary) and the nodes its relational rules found
(secondary, also listed as the metavariable "secondary"); with one, the rule's own labels for
the metavariables the match bound."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from minitools.rules import RuleError, read_config
from reference_tools import ast_grep_cli
from scan_cli import inline_rule, scan_both

JS = """import { readFile } from "fs";
function load(path, mode) {
  const data = readFile(path, "utf8");
  if (mode) { check(data, mode, 3); }
  return data;
}
check(1, 2);
"""

CASES = [
    # which node a relational rule labels: the node its inner rule gives back, so an `inside`
    # around a `follows` labels what `follows` found
    {"kind": "identifier", "regex": "^data$", "inside": {"stopBy": "end", "kind": "function_declaration",
                                                          "follows": {"stopBy": "end", "kind": "import_statement"}}},
    {"kind": "identifier", "regex": "^mode$", "inside": {"stopBy": "end", "follows": {"stopBy": "end", "kind": "import_statement"}}},
    # a utility's labels come before the rule object's relational keys'
    {"kind": "number", "matches": "in-call", "inside": {"kind": "arguments"}},
    # an nthChild's ofRule labels what it finds at the node (not at the siblings it counts)
    {"kind": "identifier", "nthChild": {"position": 2, "ofRule": {"kind": "identifier", "follows": {"regex": "^[(,]$"}}}},
    {"kind": "identifier", "nthChild": {"position": 1, "ofRule": {"any": [{"kind": "identifier", "follows": {"regex": "^[(,]$"}}]}}},
    {"kind": "identifier", "nthChild": {"position": 2, "reverse": True, "ofRule": {"kind": "identifier", "follows": {"regex": "^[(,]$"}}}},
    # `not` and stopBy label nothing; `any` labels only for the branch that matched
    {"kind": "call_expression", "not": {"inside": {"kind": "if_statement", "stopBy": "end"}},
     "any": [{"has": {"kind": "string", "stopBy": "end"}}, {"has": {"kind": "number", "stopBy": {"kind": "arguments"}}}]},
]


@pytest.mark.parametrize("rule", CASES, ids=[json.dumps(c)[:70] for c in CASES])
def test_same_labels_as_ast_grep_scan(tmp_path: Path, rule: dict[str, object]) -> None:
    utils = {"in-call": {"inside": {"kind": "call_expression", "stopBy": "end"}}}
    theirs, ours = scan_both(tmp_path, "a.js", JS, inline_rule("javascript", rule, utils=utils))
    assert theirs, "the case should find something in the reference tool, or it tests nothing"
    assert any('"secondary"' in str(f[7]) for f in theirs), "the case should have secondary labels"
    assert ours == theirs


def test_constraints_bind_and_label_as_in_ast_grep(tmp_path: Path) -> None:
    # a constraint starts from the match's metavariables, may bind more, and labels what its
    # relational parts find
    rule = inline_rule("javascript", {"pattern": "check($A, $$$REST)"},
                       constraints={"A": {"pattern": "$X", "inside": {"kind": "statement_block", "stopBy": "end"}}})
    theirs, ours = scan_both(tmp_path, "a.js", JS, rule)
    assert len(theirs) == 1 and '"X": "data"' in str(theirs[0][6])
    assert ours == theirs


def test_a_rules_own_labels_as_ast_grep_shows_them(tmp_path: Path) -> None:
    labels = {"F": {"style": "primary", "message": "the call"}, "ARGS": {"style": "secondary", "message": "its arguments"},
              "M": {"style": "secondary"}}
    rule = inline_rule("javascript", {"any": [{"pattern": "check($$$ARGS)"}, {"pattern": "$F($P, $M)"}]}, labels=labels)
    theirs, ours = scan_both(tmp_path, "a.js", JS, rule)
    assert len(theirs) == 3
    assert ours == theirs


@pytest.mark.parametrize(("labels", "expected"), [
    ({"Z": {"style": "primary"}}, "rule.labels.Z: the rule binds no $Z (it binds: A, REST)"),
    ({"A": {"style": "bold"}}, 'rule.labels.A.style: expected primary or secondary, got "bold"'),
    ({"A": {"style": "primary", "color": "red"}}, 'rule.labels.A: unknown key "color"; a label takes style, message'),
    ({"A": {"style": "primary", "message": 3}}, "rule.labels.A.message: expected text, got 3"),
    (["A"], "rule.labels: expected an object of labels by metavariable name, got a list of 1"),
])
def test_bad_labels_are_refused_by_key(labels: object, expected: str) -> None:
    with pytest.raises(RuleError) as err:
        read_config({"id": "r", "language": "javascript", "rule": {"pattern": "check($A, $$$REST)"}, "labels": labels})
    assert str(err.value).startswith(expected)


def test_stream_output_is_ast_grep_s_byte_for_byte(tmp_path: Path) -> None:
    # one capture per map (ast-grep orders several captures differently from run to run)
    rule = inline_rule("javascript", {"pattern": "check($A, $$$)", "inside": {"kind": "if_statement", "stopBy": "end"}},
                       note="n", transform={"B": "convert($A, toCase=upperCase)"}, fix="verify($B)")
    (tmp_path / "a.js").write_text(JS)
    outputs = []
    for argv in ([ast_grep_cli()], [sys.executable, "-m", "minitools", "ast-grep"]):
        proc = subprocess.run([*argv, "scan", "--inline-rules", rule, "--json=stream", "a.js"], cwd=tmp_path,
                              capture_output=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0].count(b"\n") == 1 and b'"labels"' in outputs[0]
    assert outputs[1] == outputs[0]
