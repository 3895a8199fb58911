"""Python's `expression_statement`, which the pack's grammar hides, as rules see it through
stand-ins (rules/_hidden.py): the findings match ast-grep's (test_rule_semantics.py compares
them case by case); here, what a tool call returns, also while another call scans another
file in another thread at the same time."""

from __future__ import annotations

import asyncio
from pathlib import Path

from minitools import Run

PY = """import tempfile
from tempfile import mktemp

def work():
    name = mktemp()
    mktemp()
    print(mktemp())
    return name
"""
C = "int main(void) {\n" + "".join(f"  f{i}(x, {i});\n" for i in range(400)) + "  return 0;\n}\n"

# a call that is itself a statement: its parent is the hidden statement
STATEMENT_CALL = {"id": "statement-call", "language": "python",
                  "rule": {"pattern": "mktemp()", "inside": {"kind": "expression_statement"}}}
# the second named child of an argument list, in C (no stand-ins)
SECOND_ARGUMENT = {"id": "second", "language": "c",
                   "rule": {"kind": "number_literal", "nthChild": 2, "inside": {"kind": "argument_list"}}}


async def test_a_rule_naming_the_hidden_statement_finds_what_it_wraps(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(PY)
    async with Run(tmp_path, resources={"lsp": False}) as run:
        found = await run.call("ast_grep", {"rule": STATEMENT_CALL})
        whole = await run.call("ast_grep", {"rule": {"kind": "expression_statement"}, "language": "python"})
    assert found.ok, found.text
    assert [(m["start"]["line"], m["text"]) for m in found.data["matches"]] == [(6, "mktemp()")]
    assert [m["text"] for m in whole.data["matches"]] == ["name = mktemp()", "mktemp()", "print(mktemp())"]


async def test_scans_in_two_threads_at_once_each_walk_their_own_file(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(PY + "".join(PY.replace("work", f"work{i}").split("\n", 2)[2] for i in range(300)))
    (tmp_path / "b.c").write_text(C)
    async with Run(tmp_path, resources={"lsp": False}) as run:
        alone_py = await run.call("ast_grep", {"rule": STATEMENT_CALL})
        alone_c = await run.call("ast_grep", {"rule": SECOND_ARGUMENT, "max_results": 1000})
        for _ in range(10):
            calls = [run.call("ast_grep", {"rule": STATEMENT_CALL}) for _ in range(3)]
            calls += [run.call("ast_grep", {"rule": SECOND_ARGUMENT, "max_results": 1000}) for _ in range(3)]
            results = await asyncio.gather(*calls)
            assert all(r.data == alone_py.data for r in results[:3])
            assert all(r.data == alone_c.data for r in results[3:])
    assert alone_c.data["total"] == 400 and alone_py.data["total"] == 301


def test_a_scan_sees_the_tree_its_own_rules_ask_for_whatever_ran_before() -> None:
    # stand-ins belong to the scan whose rules name a hidden kind: a rule set that names none sees
    # the grammar's own tree, also after another rule set named one in the same process
    from minitools.rules import RuleSet, read_config

    source = PY.encode()
    plain = RuleSet([read_config({"id": "top-call", "language": "python",
                                  "rule": {"kind": "call", "inside": {"kind": "block", "stopBy": "neighbor"}}})])
    naming = RuleSet([read_config(STATEMENT_CALL)])
    before = [f.match.text for f in plain.scan_source(source, "python")]
    # the grammar's tree: a call that is a statement has the block for its parent
    assert before == ["mktemp()", "print(mktemp())"]
    assert [f.match.text for f in naming.scan_source(source, "python")] == ["mktemp()"]
    assert [f.match.text for f in plain.scan_source(source, "python")] == before
