"""`rewriters` and the `rewrite` transformation against the `ast-grep` CLI (0.51.1): each
rule runs through both `scan`s over the same file, and the findings (with their fixes and
transformed metavariables) and the files `--update-all` leaves must be the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from minitools.rules import RuleError, RuleSet, read_config
from scan_cli import inline_rule, scan_both, update_both

PY = """d = dict(a=1, b=2)
e = dict(name="x", value=compute(1, 2))
f = dict()

def handler(event):
    print("start", event)
    if event.ok:
        print("ok")
        print(event.payload, sep=", ")
    return print
"""
JS = """log(t(1, 2, 3));
log([1, [2, [3, [4]]]]);
pair([1, 1]);
pair([1, 2]);
function run(task) {
  console.log("start", task);
  if (task.ready) {
    console.log(task.name);
    task.go();
  }
}
"""

NUMBER = {"id": "num", "rule": {"kind": "number"}, "fix": "N"}


def _rewrite(source: str, rewriters: list[str], join_by: str | None = None) -> dict[str, object]:
    args: dict[str, object] = {"source": source, "rewriters": rewriters}
    if join_by is not None:
        args["joinBy"] = join_by
    return {"rewrite": args}


CASES = [
    # the documented example: a dict call to a dict literal, the pairs joined
    ("python", PY, {"pattern": "dict($$$ARGS)"}, {
        "rewriters": [{"id": "pair", "rule": {"kind": "keyword_argument", "all": [
            {"has": {"field": "name", "pattern": "$KEY"}}, {"has": {"field": "value", "pattern": "$VAL"}}]},
            "fix": "'$KEY': $VAL"}],
        "transform": {"LITERAL": _rewrite("$$$ARGS", ["pair"], ", ")},
        "fix": "{$LITERAL}"}),
    # every number under the capture, the text between kept
    ("js", JS, {"pattern": "log($A)"}, {"rewriters": [NUMBER], "transform": {"B": _rewrite("$A", ["num"])}, "fix": "out($B)"}),
    # tokens are visited too; the first listed rewriter that matches wins
    ("js", JS, {"pattern": "log($A)"}, {
        "rewriters": [{"id": "comma", "rule": {"regex": "^,$"}, "fix": ";"}, {"id": "two", "rule": {"regex": "^2$"}, "fix": "II"},
                      NUMBER],
        "transform": {"B": _rewrite("$A", ["two", "comma", "num"])}, "fix": "$B"}),
    # the outermost node wins, whichever rewriter comes first in the list
    ("js", JS, {"pattern": "log($A)"}, {
        "rewriters": [NUMBER, {"id": "arr", "rule": {"kind": "array"}, "fix": "[]"}],
        "transform": {"B": _rewrite("$A", ["num", "arr"], " + ")}, "fix": "$B"}),
    # a rewriter that rewrites its own captures with itself: nested arrays flattened
    ("js", JS, {"pattern": "log($A)"}, {
        "rewriters": [{"id": "flat", "rule": {"pattern": "[$$$C]"}, "transform": {"D": _rewrite("$$$C", ["flat"])},
                       "fix": "$D"}],
        "transform": {"B": _rewrite("$A", ["flat"])}, "fix": "log([$B])"}),
    # a rewriter starts from the match's metavariables: $X must be what the rule bound, and its
    # fix may use them
    ("js", JS, {"pattern": "pair([$X, $Y])"}, {
        "rewriters": [{"id": "same", "rule": {"pattern": "$X"}, "fix": "$X == $Y"}],
        "transform": {"B": _rewrite("$Y", ["same"])}, "fix": "check($B)"}),
    # a rewriter with the rule's utilities, its own constraints and transformations
    ("js", JS, {"pattern": "function $F($$$P) { $$$BODY }"}, {
        "utils": {"console-call": {"pattern": "console.log($$$ARGS)"}},
        "rewriters": [{"id": "logger", "rule": {"matches": "console-call", "pattern": "console.log($FIRST, $$$REST)"},
                       "constraints": {"FIRST": {"kind": "string"}},
                       "transform": {"TAG": {"convert": {"source": "$FIRST", "toCase": "upperCase"}}},
                       "fix": "logger.info($TAG, $$$REST)"},
                      {"id": "plain", "rule": {"matches": "console-call"}, "fix": "logger.debug($$$ARGS)"}],
        "transform": {"NEW": _rewrite("$$$BODY", ["logger", "plain"])},
        "fix": "function $F($$$P) {\n  $NEW\n}"}),
    # statements over several lines, each rewritten where it sits
    ("python", PY, {"pattern": "def $F($$$P):\n    $$$BODY"}, {
        "rewriters": [{"id": "log", "rule": {"pattern": "print($$$A)"}, "fix": "log.info($$$A)"}],
        "transform": {"NEW": _rewrite("$$$BODY", ["log"])},
        "fix": "def $F($$$P):\n    $NEW"}),
    # the one-line form, and a later transformation reading a rewrite's result; the message
    # shows the transformed texts too
    ("js", JS, {"pattern": "log($A)"}, {
        "message": "log of $B ($UP)", "rewriters": [NUMBER],
        "transform": {"UP": "convert($B, toCase=lowerCase)", "B": "rewrite($A, rewriters=[num], joinBy=' | ')"},
        "fix": "$UP"}),
]


@pytest.mark.parametrize(("language", "source", "rule", "extra"), CASES, ids=[json.dumps(c[3])[:60] for c in CASES])
def test_same_rewrites_as_ast_grep_scan(tmp_path: Path, language: str, source: str, rule: dict[str, object],
                                        extra: dict[str, object]) -> None:
    name = "a.py" if language == "python" else "a.js"
    rules = inline_rule(language, rule, **extra)
    theirs, ours = scan_both(tmp_path, name, source, rules)
    assert theirs and any(f[-2] is not None for f in theirs), "the case should fix something in the reference tool"
    assert ours == theirs
    theirs_file, ours_file = update_both(tmp_path, name, source, rules)
    assert theirs_file != source
    assert ours_file == theirs_file


def _config(**extra: object) -> dict[str, object]:
    return {"id": "r", "language": "javascript", "rule": {"pattern": "log($A)"}, "fix": "$B", **extra}


@pytest.mark.parametrize(("config", "expected"), [
    (_config(rewriters=[NUMBER], transform={"B": _rewrite("$A", ["nope"])}),
     'rule.transform.B.rewrite.rewriters: no rewriter "nope" (defined: num)'),
    (_config(transform={"B": _rewrite("$A", ["num"])}),
     'rule.transform.B.rewrite.rewriters: no rewriter "num" (defined: none: add a rewriters list beside rule)'),
    (_config(rewriters=[NUMBER, {"id": "r2", "rule": {"pattern": "[$A]"}, "fix": "[]",
                                 "transform": {"X": _rewrite("$A", ["gone"])}}], transform={"B": _rewrite("$A", ["num"])}),
     'rule.rewriters[1].transform.X.rewrite.rewriters: no rewriter "gone" (defined: num, r2)'),
    (_config(transform={"B": {"substring": {"source": "$C"}}, "C": {"substring": {"source": "$B"}}}),
     "rule.transform: the transformations B -> C -> B read each other in a cycle"),
    (_config(rewriters=[{"id": "num", "rule": {"kind": "number"}}], transform={"B": _rewrite("$A", ["num"])}),
     'rule.rewriters[0]: no "fix" key; a rewriter needs a rule and the fix it makes'),
    (_config(rewriters=[NUMBER, NUMBER], transform={"B": _rewrite("$A", ["num"])}),
     'rule.rewriters[1].id: "num" names two rewriters; give each its own id'),
    (_config(rewriters=[{**NUMBER, "severity": "error"}]),
     'rule.rewriters[0]: unknown key "severity"; a rewriter takes id, rule, constraints, transform, utils, fix'),
    (_config(rewriters={"num": NUMBER}), "rule.rewriters: expected a list of rewriters, each with id, rule and fix"),
    (_config(rewriters=[{**NUMBER, "rule": {"kind": "nothing_like_this"}}]),
     'rule.rewriters[0].rule.kind: "nothing_like_this" is not a node kind of javascript'),
    (_config(rewriters=[NUMBER], transform={"B": {"rewrite": {"source": "$A", "rewriters": "num"}}}),
     "rule.transform.B.rewrite.rewriters: expected a list of rewriter ids"),
    # a source nothing captures: ast-grep 0.51.1 refuses these too ("Undefined meta var")
    (_config(transform={"B": {"substring": {"source": "$X"}}}),
     "rule.transform.B: its source $X is not a metavariable of the rule (those are: $A)"),
    (_config(rewriters=[{"id": "r2", "rule": {"kind": "array"}, "fix": "[$X]", "transform": {"X": {"substring": {"source": "$A"}}}}]),
     "rule.rewriters[0].transform.X: its source $A is not a metavariable of the rule (those are: none)"),
])
def test_bad_rewriters_are_refused_by_key(config: dict[str, object], expected: str) -> None:
    with pytest.raises(RuleError) as err:
        read_config(config)
    assert str(err.value).startswith(expected)


def test_a_refused_rewriter_runs_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(JS)
    rules = json.dumps(_config(rewriters=[NUMBER], transform={"B": _rewrite("$A", ["nope"])}))
    proc = subprocess.run([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rules, "-U", "."],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert 'no rewriter "nope"' in proc.stderr and "nothing was run" in proc.stderr
    assert (tmp_path / "a.js").read_text() == JS


def test_a_rewriter_coming_back_to_its_own_node_leaves_it(tmp_path: Path) -> None:
    # ast-grep recurses without end here (its stack overflows); minitools does not re-enter a
    # rewriter at the node it is rewriting: there the node stays as it is (a lone $X matches
    # named nodes only, so the parentheses stay bare)
    config = read_config(_config(
        rewriters=[{"id": "wrap", "rule": {"pattern": "$X"}, "transform": {"D": _rewrite("$X", ["wrap"])}, "fix": "<$D>"}],
        transform={"B": _rewrite("$A", ["wrap"])}))
    found = RuleSet([config]).scan_source(b"log(f(1));\n", "javascript")
    assert [(f.fix, dict(f.transformed)) for f in found] == [((0, 9, "<<f><(<1>)>>"), {"B": "<<f><(<1>)>>"})]
