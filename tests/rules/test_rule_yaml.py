"""The rule-file YAML loader (on the pack's tree-sitter YAML grammar) against PyYAML: every
file of the real rule set, the constructs rule files write, generated documents, and errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.rules import RuleError, YamlError, load_documents, load_rule_text

RULESETS = Path(__file__).resolve().parents[3] / "shared" / "rulesets"


def test_every_file_of_the_rule_set_reads_as_pyyaml_reads_it() -> None:
    files = sorted(p for p in RULESETS.rglob("*.yml") if "__snapshots__" not in p.parts)
    if not files:
        pytest.skip(f"no rule set at {RULESETS}")
    # PyYAML ends a block scalar at the end of a file with no final newline without one; ast-grep's
    # reader (and so ours) with one: PyYAML reads each file with its final newline
    differ = [str(p) for p in files if load_documents(p.read_text()) != list(yaml.safe_load_all(_ended(p.read_text())))]
    assert len(files) > 300 and not differ


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def test_a_block_scalar_at_the_end_of_the_input_ends_its_line_as_ast_grep_reads_it(tmp_path: Path) -> None:
    """`message: |` as the last thing in a rule file with no final newline: ast-grep's message is
    "hi\n" (PyYAML says "hi"); a rule test's last snippet at the end of its file is then the one
    its snapshot was written for."""
    import json
    import subprocess
    import sys

    from reference_tools import ast_grep_cli

    for chomp, expected in (("", "hi\n"), ("-", "hi"), ("+", "hi\n")):
        assert load_documents(f"a: |{chomp}\n  hi") == [{"a": expected}]
    (tmp_path / "r.yml").write_text("id: r\nlanguage: python\nrule: {pattern: print($A)}\nmessage: |\n  hi")
    (tmp_path / "a.py").write_text("print(1)\n")
    for argv in ([ast_grep_cli()], [sys.executable, "-m", "minitools", "ast-grep"]):
        run = subprocess.run([*argv, "scan", "-r", "r.yml", "--json=stream", "a.py"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        assert json.loads(run.stdout.splitlines()[0])["message"] == "hi\n", (argv, run.stdout, run.stderr)


CONSTRUCTS = [
    "a: |+\n  keep\n\nb: 1\n",
    "a: >\n  folded\n  line\n\n  para\n    more\n  back\n",
    "a: |2\n    two extra\n",
    "a: >-\n  x\n      more-indented\n  y\n",
    'a: "multi\n  line \\t x \\u00e9"\n',
    "a: 'it''s'\n",
    "e: &x {k: [1, 2]}\nf: *x\n",
    "a: plain\n  continued\n",
    "l:\n- a\n- b: 1\n  c: 2\n-   - nested\n",
    "a: 0x1F\nb: -3\nc: 2.5\nd: ~\ne: null\nf: true\ng: False\nh: .inf\n",
    "a: [1, {b: c}, 'd']\n",
    "---\nid: one\n---\nid: two\n",
    "a: |\n  \n",
    "a: b # a comment\n# another\nc: d\n",
    'key with spaces: "x"\n"quoted key": 1\n',
]


@pytest.mark.parametrize("text", CONSTRUCTS)
def test_constructs_rule_files_write(text: str) -> None:
    assert load_documents(text) == list(yaml.safe_load_all(text))



def _same_in_both_schemas(text: str) -> bool:
    """PyYAML reads YAML 1.1, the loader YAML 1.2's core schema (as ast-grep's reader does):
    they differ on number-like words such as `0E0` or `1_0`, which PyYAML writes unquoted."""
    return not re.fullmatch(r"[-+]?[0-9._]*[eE]?[-+]?[0-9._]*|0[xXoObB].*|[-+]?\.(inf|nan)", text, re.I)


words = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters="\x7f\x85"), max_size=20)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), words.filter(_same_in_both_schemas))
keys = st.text(st.characters(min_codepoint=48, max_codepoint=122), min_size=1, max_size=8).filter(_same_in_both_schemas)
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                         max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(documents, st.booleans())
def test_what_pyyaml_writes_reads_back(doc: object, flow: bool) -> None:
    text = yaml.safe_dump(doc, default_flow_style=flow, allow_unicode=True)
    assert load_documents(text) == [doc]


@pytest.mark.parametrize(("text", "said"), [
    ("rule:\n  kind: [call\n", "YAML unclosed '[' at line 2, column 9"),
    ("a: *nowhere\n", 'alias "*nowhere" at line 1 names no anchor'),
    ("a: 1\na: 2\n", 'duplicate key "a" at line 2'),
])
def test_errors_name_the_line(text: str, said: str) -> None:
    with pytest.raises(YamlError) as err:
        load_documents(text)
    assert said in str(err.value)


def test_a_rule_file_error_names_the_file_and_the_key() -> None:
    with pytest.raises(RuleError) as err:
        load_rule_text("id: x\nlanguage: go\nrule:\n  has:\n    stopBy: sometimes\n    kind: call_expression\n", "rules/x.yml")
    assert 'rules/x.yml.rule.has.stopBy: expected "neighbor", "end" or a rule object, got "sometimes"' in str(err.value)


def test_hostile_nesting_is_refused_clearly() -> None:
    with pytest.raises(YamlError, match="nests deeper than 200 levels"):
        load_documents("a: " + "[" * 5000 + "]" * 5000)
    with pytest.raises(RuleError, match="nests too deep"):
        load_rule_text("[" * 100000 + "]" * 100000, "deep.json")
    rule: dict[str, object] = {"kind": "call"}
    for _ in range(2000):
        rule = {"kind": "call", "has": rule}
    from minitools.rules import read_config

    with pytest.raises(RuleError, match="rules nest deeper than 60 levels"):
        read_config({"language": "python", "rule": rule})


def test_aliases_that_multiply_are_refused_before_anything_walks_them() -> None:
    # nine levels of ten aliases each: 10^9 rules once expanded (a scan of it ran past 30 s and
    # 1.5 GB before); refused on reading, as ast-grep refuses it, naming where
    lines = ["id: bomb", "language: python", "utils:", "  u0: &r0 {pattern: print($A)}"]
    lines += [f"  u{k}: &r{k} {{any: [{', '.join([f'*r{k - 1}'] * 10)}]}}" for k in range(1, 9)]
    text = "\n".join([*lines, "rule: *r8", ""])
    with pytest.raises(RuleError, match=r'alias "\*r4" at line 9: with its aliases expanded the YAML holds more than '
                                        r"250,000 values; rule files need far fewer"):
        load_rule_text(text, "bomb.yml")
    # the same anchors used a few times read as written, each alias the value it names
    doc = load_documents("a: &x {k: [1, 2]}\nb: [*x, *x]\n")[0]
    assert doc == {"a": {"k": [1, 2]}, "b": [{"k": [1, 2]}, {"k": [1, 2]}]}
