"""The rule language against the `ast-grep` CLI (0.51.1): each rule below runs through
`ast-grep scan --inline-rules` and `minitools ast-grep scan --inline-rules` over the same
file, and the findings (place, text, captures, fix) must be the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reference_tools import ast_grep_cli

JS = """function f() { foo(1); bar(2); baz(3) }
let x = [1, 2, 3];
const y = a + a;
const z = a + b;
if (ok) { foo(x); } else { foo(y, 2); }
class C { field = 1; other = foo(2); }
"""
PY = """import os
def run(cmd, shell=False):
    os.system(cmd)
    subprocess.call(cmd, shell=True)
    value = compute(1, 2)
    return value

class Service:
    def start(self):
        eval(self.code)
        eval("1 + 2")
"""
GO = """package main

import "fmt"

func main() {
\tx := 1
\tfmt.Println(x)
\tfmt.Printf("%d", x)
}
"""

TS = """import A from "lib";
import { foo, } from 'bar';
import { foo, bar } from 'bar';
foo(/* A*/bar);
foo(bar);
foo(bar, baz);
print(123);
print(123,);
function f() { let a = 1; }
async function g() { let b = 2; }
if (x) { y(); } else { z(); }
import B from 'lib'
import { foo } from 'bar'
function h() { let c = 1 }
let d = 4
"""

CASES = [
    # atomic
    ("js", JS, {"kind": "identifier", "regex": "oo"}),
    ("js", JS, {"kind": "number", "nthChild": 2}),
    ("js", JS, {"kind": "number", "nthChild": "2n+1"}),
    ("js", JS, {"kind": "number", "nthChild": {"position": 1, "reverse": True}}),
    ("js", JS, {"kind": "expression_statement", "nthChild": {"position": 2, "ofRule": {"kind": "expression_statement"}}}),
    ("js", JS, {"pattern": "foo($A)"}),
    ("js", JS, {"pattern": {"context": "class A { $F = $V }", "selector": "field_definition"}}),
    ("js", JS, {"kind": "number", "range": {"start": {"line": 1, "column": 12}, "end": {"line": 1, "column": 13}}}),
    # relational
    ("js", JS, {"kind": "number", "precedes": {"regex": "^,$"}}),  # the next sibling may be a token
    ("js", JS, {"kind": "number", "precedes": {"regex": "^3$", "stopBy": "end"}}),
    ("js", JS, {"kind": "expression_statement", "follows": {"pattern": "foo($A);"}}),
    ("js", JS, {"kind": "expression_statement", "follows": {"kind": "expression_statement", "stopBy": "end"}}),
    ("js", JS, {"kind": "number", "inside": {"kind": "call_expression", "field": "arguments", "stopBy": "end"}}),
    ("js", JS, {"kind": "number", "inside": {"kind": "statement_block", "stopBy": {"kind": "statement_block"}}}),
    ("js", JS, {"kind": "number", "inside": {"kind": "arguments"}}),
    ("js", JS, {"kind": "call_expression", "has": {"kind": "number", "field": "arguments", "stopBy": "end"}}),
    ("js", JS, {"kind": "call_expression", "has": {"kind": "arguments", "field": "arguments"}}),
    ("js", JS, {"kind": "array", "has": {"regex": "^,$"}}),
    ("js", JS, {"kind": "statement_block", "has": {"pattern": "foo($A)", "stopBy": "end"}}),
    ("js", JS, {"kind": "if_statement", "has": {"kind": "statement_block", "stopBy": {"kind": "else_clause"}}}),
    # composite, metavariables shared between the parts
    ("js", JS, {"all": [{"pattern": "$A + $B"}, {"has": {"pattern": "$B", "stopBy": "end"}}]}),
    ("js", JS, {"pattern": "$A + $B", "has": {"kind": "identifier", "pattern": "$A", "precedes": {"regex": "\\+"}}}),
    ("js", JS, {"any": [{"pattern": "foo($A)"}, {"pattern": "bar($A)"}]}),
    ("js", JS, {"kind": "call_expression", "not": {"pattern": "foo($$$)"}}),
    ("js", JS, {"kind": "call_expression", "not": {"has": {"kind": "number", "stopBy": "end"}}}),
    ("python", PY, {"kind": "call", "inside": {"kind": "function_definition", "stopBy": "end",
                                                "inside": {"kind": "class_definition", "stopBy": "end"}}}),
    ("python", PY, {"pattern": "eval($X)", "not": {"has": {"kind": "string", "stopBy": "end"}}}),
    ("python", PY, {"pattern": "$F($$$ARGS)", "has": {"stopBy": "end", "kind": "keyword_argument",
                                                       "has": {"kind": "true"}}}),
    ("go", GO, {"kind": "expression_statement", "has": {"kind": "call_expression"},
                "follows": {"stopBy": "end", "kind": "short_var_declaration"}}),
    # pattern strictness: which nodes may differ, at each level
    *[("typescript", TS, {"pattern": {"context": context, "strictness": level}})
      for level in ("cst", "ast", "relaxed", "signature")
      for context in ("import $A from 'lib'", "import { foo } from 'bar'", "$A(bar)", "print($A,)", "print($A)",
                      "function $F() { let $X = 1 }", "let $A = $B")],
    ("python", PY, {"pattern": {"context": "eval('x')", "strictness": "signature"}}),
    # Python's `expression_statement`, which the pack's grammar hides: stand-ins in its place
    ("python", PY, {"kind": "expression_statement"}),
    ("python", PY, {"kind": "call", "inside": {"kind": "expression_statement"}}),
    ("python", PY, {"kind": "identifier", "inside": {"kind": "expression_statement", "stopBy": "end"}}),
    ("python", PY, {"kind": "expression_statement", "has": {"kind": "assignment", "nthChild": 1}}),
    ("python", PY, {"kind": "expression_statement", "has": {"kind": "integer", "stopBy": "end"}}),
    ("python", PY, {"kind": "expression_statement", "follows": {"kind": "expression_statement", "stopBy": "end"}}),
    ("python", PY, {"kind": "expression_statement", "precedes": {"kind": "return_statement"}}),
    ("python", PY, {"kind": "expression_statement", "nthChild": 2}),
    ("python", PY, {"kind": "block", "has": {"kind": "expression_statement", "nthChild": {"position": 1, "reverse": True}}}),
    ("python", PY, {"kind": "call", "not": {"inside": {"kind": "expression_statement"}}}),
    ("python", PY, {"pattern": {"context": "def $F(self): $$$B", "strictness": "ast"}}),
    ("go", GO, {"pattern": {"context": "fmt.Printf($F, $X)", "strictness": "cst"}}),
]


def _inline(language: str, rule: dict[str, object], **extra: object) -> str:
    return json.dumps({"id": "r", "language": language, "severity": "warning", "message": "m", "rule": rule, **extra})


def _findings(argv: list[str], cwd: Path) -> list[tuple[object, ...]]:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), f"{argv[:4]} exited {proc.returncode}: {proc.stderr[-600:]}"
    out = []
    for line in proc.stdout.splitlines():
        m = json.loads(line)
        found = m.get("metaVariables", {})  # absent when nothing is captured
        single = {k: v["text"] for k, v in found.get("single", {}).items()}
        # "secondary" is ast-grep's list of the nodes relational rules looked at (its labels),
        # which minitools does not report
        multi = {k: [n["text"] for n in v] for k, v in found.get("multi", {}).items() if k != "secondary"}
        out.append((m["file"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"], m["ruleId"],
                    m["message"], m["severity"], json.dumps(single, sort_keys=True), json.dumps(multi, sort_keys=True),
                    m.get("replacement")))
    return sorted(out, key=lambda f: (f[0], f[1], -f[2]))  # type: ignore[operator]


def _both(tmp_path: Path, name: str, source: str, rules: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    (tmp_path / name).write_text(source)
    theirs = _findings([ast_grep_cli(), "scan", "--inline-rules", rules, "--json=stream", "."], tmp_path)
    ours = _findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rules, "--json=stream", "."], tmp_path)
    return theirs, ours


SUFFIX = {"js": "a.js", "typescript": "a.ts", "python": "a.py", "go": "a.go"}


@pytest.mark.parametrize(("language", "source", "rule"), CASES, ids=[json.dumps(c[2])[:70] for c in CASES])
def test_same_findings_as_ast_grep_scan(tmp_path: Path, language: str, source: str, rule: dict[str, object]) -> None:
    theirs, ours = _both(tmp_path, SUFFIX[language], source, _inline(language, rule))
    assert theirs, "the case should find something in the reference tool, or it tests nothing"
    assert ours == theirs


FIXES = [
    # a fix template with the captures, and the message interpolated
    ("js", JS, {"pattern": "foo($A)"}, {"fix": "qux($A)", "message": "foo of $A"}),
    # utilities, constraints, transforms
    ("js", JS, {"matches": "call-of-number"}, {
        "utils": {"call-of-number": {"pattern": "$F($N)"}},
        "constraints": {"N": {"regex": "^[0-9]+$"}, "F": {"regex": "^(foo|bar)$"}},
        "transform": {"UP": {"convert": {"source": "$F", "toCase": "upperCase"}},
                      "NEXT": {"replace": {"source": "$N", "replace": "([0-9])", "by": "${1}0"}}},
        "fix": "$UP($NEXT)"}),
    ("python", PY, {"pattern": "os.system($C)"}, {
        "transform": {"INNER": {"substring": {"source": "$C", "startChar": 1, "endChar": -1}}},
        "fix": "subprocess.run([$C], check=True)  # $INNER"}),
    ("python", PY, {"pattern": "value = compute($$$ARGS)"}, {
        "transform": {"NAME": {"convert": {"source": "$$$ARGS", "toCase": "snakeCase"}}},
        "fix": "value = compute_all($$$ARGS)"}),
    # the fix reaches the separator after the node
    ("js", "const o = {a: 1, b: 2, c: 3};\n", {"kind": "pair", "has": {"kind": "property_identifier", "regex": "^b$"}},
     {"fix": {"template": "", "expandEnd": {"regex": ","}}}),
]


@pytest.mark.parametrize(("language", "source", "rule", "extra"), FIXES, ids=[json.dumps(c[3])[:70] for c in FIXES])
def test_same_fixes_as_ast_grep_scan(tmp_path: Path, language: str, source: str, rule: dict[str, object],
                                     extra: dict[str, object]) -> None:
    rules = _inline(language, rule, **extra)
    theirs, ours = _both(tmp_path, SUFFIX[language], source, rules)
    assert theirs and all(f[-1] is not None for f in theirs)
    assert ours == theirs


def test_update_all_writes_every_fix_as_ast_grep_does(tmp_path: Path) -> None:
    rules = _inline("js", {"pattern": "foo($A)"}, fix="qux($A)")
    for who in ("theirs", "ours"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "a.js").write_text(JS)
    subprocess.run([ast_grep_cli(), "scan", "--inline-rules", rules, "--update-all", "."], cwd=tmp_path / "theirs",
                   capture_output=True, check=True, timeout=60)
    proc = subprocess.run([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rules, "--update-all", "."],
                          cwd=tmp_path / "ours", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "applied 3 fixes in 1 file" in proc.stderr
    assert (tmp_path / "ours" / "a.js").read_text() == (tmp_path / "theirs" / "a.js").read_text() != JS
