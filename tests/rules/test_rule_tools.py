"""`rule` on the ast_grep and ast_edit tools: a rule object (or its YAML text) instead of a
pattern, refused whole when invalid, and a rule's fix staged and accepted like any edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from minitools import Run

APP = """import subprocess

def run(cmd):
    eval(cmd)
    eval("1 + 2")
    subprocess.call(cmd, shell=True)

def safe():
    subprocess.call(["ls"])
"""

NO_EVAL = {"id": "no-eval", "language": "python", "severity": "error", "message": "eval of $X",
           "rule": {"pattern": "eval($X)", "not": {"has": {"kind": "string", "stopBy": "end"}}}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "notes.js").write_text("eval(x);\n")
    return tmp_path


async def test_a_rule_finds_what_a_pattern_cannot_say(project: Path) -> None:
    async with Run(project, resources={"lsp": False}) as run:
        found = await run.call("ast_grep", {"rule": NO_EVAL})
    assert found.ok, found.text
    assert found.data["total"] == 1 and found.data["rule_id"] == "no-eval"
    assert found.data["matches"][0]["text"] == "eval(cmd)"
    assert found.data["matches"][0]["message"] == "eval of cmd"
    assert "1 match of rule no-eval (python)" in found.text and "error: eval of cmd" in found.text


async def test_a_rule_as_yaml_text_with_the_language_as_an_argument(project: Path) -> None:
    text = """
rule:
  kind: call
  has:
    field: arguments
    has: {kind: keyword_argument, has: {kind: "true"}}
  inside: {kind: function_definition, stopBy: end}
"""
    async with Run(project, resources={"lsp": False}) as run:
        found = await run.call("ast_grep", {"rule": text, "language": "python"})
        bare = await run.call("ast_grep", {"rule": {"pattern": "subprocess.call($$$A)"}, "path": "app.py"})
    assert found.ok and [m["text"] for m in found.data["matches"]] == ['subprocess.call(cmd, shell=True)']
    assert bare.ok and bare.data["total"] == 2  # a bare rule object, the language from the file


@pytest.mark.parametrize(("rule", "said"), [
    ({"language": "python", "rule": {"any": [{"pattern": "eval($X)"}, {"has": {"kind": "string", "stopBy": 5}}]}},
     'rule.rule.any[1].has.stopBy: expected "neighbor", "end" or a rule object, got 5'),
    ({"language": "python", "rule": {"kind": "no_such_kind"}}, '"no_such_kind" is not a node kind of python'),
    ({"language": "python", "rule": {"regex": "eval"}}, "does not say which node kinds it matches"),
    ({"language": "python", "rule": {"pattern": "eval($X)"}, "sevrity": "error"}, 'unknown key "sevrity"'),
    ({"language": "python", "rule": {"matches": "helper"}}, 'no utility rule "helper"'),
    ({"language": "klingon", "rule": {"kind": "call"}}, '"klingon" is not a language here'),
    ("rule: [unclosed", "YAML unclosed '[' at line 1, column 7"),
    ({"language": "python", "rule": {"pattern": {"context": "eval($X)", "strictness": "loose"}}},
     'rule.rule.pattern.strictness: expected one of cst, smart, ast, relaxed, signature, got "loose"'),
])
async def test_an_invalid_rule_names_the_key_and_runs_nothing(project: Path, rule: object, said: str) -> None:
    async with Run(project, resources={"lsp": False}) as run:
        refused = await run.call("ast_grep", {"rule": rule, "language": "python"} if isinstance(rule, str) else {"rule": rule})
        both = await run.call("ast_grep", {"rule": NO_EVAL, "pattern": "eval($X)"})
    assert not refused.ok and said in refused.text, refused.text
    assert not both.ok and "not both" in both.text


async def test_a_rules_fix_is_staged_and_accepted_all_or_none(project: Path) -> None:
    rule = {**NO_EVAL, "fix": "ast.literal_eval($X)"}
    async with Run(project, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        staged = await run.call("ast_edit", {"rule": rule})
        assert staged.ok and staged.data["replacements"] == 1, staged.text
        assert "+    ast.literal_eval(cmd)" in staged.text
        assert (project / "app.py").read_text() == APP  # nothing written yet
        accepted = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
        assert accepted.ok, accepted.text
        plain = await run.call("ast_edit", {"rule": {"language": "python", "rule": {"pattern": "subprocess.call($$$A)"}}})
        assert not plain.ok and "has no fix" in plain.text
    assert (project / "app.py").read_text() == APP.replace("    eval(cmd)", "    ast.literal_eval(cmd)")


async def test_a_rule_scan_ends_within_the_search_budget(tmp_path: Path) -> None:
    from minitools.match import Searcher

    (tmp_path / "dense.py").write_text("print(1), " * 40_000 + "\n")
    searcher = Searcher(tmp_path, workers=1, max_seconds=0.0)  # a budget spent at the first look
    rule = {"language": "python", "rule": {"kind": "integer", "inside": {"kind": "call", "stopBy": "end"}}, "fix": "2"}
    async with Run(tmp_path, resources={"lsp": False, "parser": searcher}, approve=lambda spec, args: True) as run:
        found = await run.call("ast_grep", {"rule": rule})
        edit = await run.call("ast_edit", {"rule": rule})
    assert found.ok and found.data["stopped"] == "stopped after 0 s", found.text
    assert found.data["total"] < 40_000 and "narrow the path or the rule" in found.text
    assert not edit.ok and "nothing was staged" in edit.text
    assert (tmp_path / "dense.py").read_text().startswith("print(1), ")
