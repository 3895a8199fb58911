"""Hostile rule files and rule texts: each ends in a clear error or a search that
says what it skipped, never a crash, a freeze or memory out of bounds. Inputs the process
could die on run in a child process, so a crash is a failed assertion, not a dead test run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.match import UnsafeSource, parse_source
from minitools.match._yaml_nesting import walk_lines, yaml_nesting

# 300 block mappings, one inside the other: the YAML grammar's scanner overflows its state
# buffer past 253 (match/_yaml_nesting.py) and the process died with signal 11
DEEP_BLOCKS = "".join("  " * i + "a:\n" for i in range(300)) + "  " * 300 + "b\n"
DEEP_INLINE = "- " * 300 + "b\n"


def _minitools(*argv: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture
def deep_project(tmp_path: Path) -> Path:
    (tmp_path / "deep.yaml").write_text(DEEP_BLOCKS)
    (tmp_path / "inline.yml").write_text(DEEP_INLINE)
    (tmp_path / "ok.yaml").write_text("a: 1\n")
    return tmp_path


def test_a_search_over_deep_yaml_skips_it_and_says_so(deep_project: Path) -> None:
    proc = _minitools("ast-grep", "$A", "--lang", "yaml", ".", cwd=deep_project)
    assert proc.returncode == 0, proc.stderr  # signal 11 (-11) on main
    assert "ok.yaml:1:" in proc.stdout
    assert "deep.yaml" not in proc.stdout
    assert "skipped 2 files nested too deep to parse" in proc.stderr


def test_the_tool_search_reports_the_skip(deep_project: Path) -> None:
    proc = _minitools("call", "ast_grep", json.dumps({"pattern": "a: $X"}), cwd=deep_project)
    assert proc.returncode == 0, proc.stderr
    assert "skipped 1 nested too deep to parse" in proc.stdout
    proc = _minitools("call", "ast_grep", json.dumps({"rule": "id: r\nlanguage: yaml\nrule:\n  pattern: 'a: $X'\n"}),
                      cwd=deep_project)
    assert proc.returncode == 0, proc.stderr
    assert "skipped 1 (oversized, binary, unreadable or nested too deep to parse)" in proc.stdout


def test_a_deep_rule_file_or_rule_text_is_refused(tmp_path: Path) -> None:
    rule = "id: r\nlanguage: python\nrule:\n  pattern: foo()\nmetadata:\n" + "".join(
        "  " * (i + 1) + "k:\n" for i in range(300)) + "  " * 301 + "v\n"
    (tmp_path / "deep.yml").write_text(rule)
    (tmp_path / "a.py").write_text("foo()\n")
    proc = _minitools("ast-grep", "scan", "--rule", "deep.yml", ".", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "deep.yml: the YAML nests deeper than 200 levels; rule files need far fewer; nothing was run" in proc.stderr
    proc = _minitools("call", "ast_grep", json.dumps({"rule": rule}), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "the YAML nests deeper than 200 levels" in proc.stdout


def test_a_rule_scan_over_deep_yaml_skips_it_and_says_so(deep_project: Path) -> None:
    (deep_project / "r.yml").write_text("id: r\nlanguage: yaml\nrule:\n  pattern: 'a: $X'\n")
    proc = _minitools("ast-grep", "scan", "--rule", "r.yml", ".", cwd=deep_project)
    assert proc.returncode == 0, proc.stderr
    assert "ok.yaml:1:1" in proc.stdout
    assert "skipped deep.yaml (YAML nested more than 250 levels deep" in proc.stderr


@pytest.mark.parametrize("text", [DEEP_BLOCKS, DEEP_INLINE, "".join("  " * i + "-\n" for i in range(254)) + "  " * 254 + "b",
                                  "- a: " * 130 + "b", "? " * 260 + "b"])
def test_parse_source_refuses_before_parsing(text: str) -> None:
    with pytest.raises(UnsafeSource, match="YAML nested more than 250 levels deep"):
        parse_source("yaml", text.encode())
    assert parse_source("yaml", b"a: [[[[1]]]]\n").root_node.has_error is False


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_docs = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, min_size=1, max_size=3),
                                                        st.dictionaries(st.text(min_size=1, max_size=5), inner,
                                                                        min_size=1, max_size=3)), max_leaves=60)


@settings(max_examples=300, deadline=None)
@given(_docs, st.integers(min_value=1, max_value=4))
def test_the_measure_bounds_the_block_nesting(doc: object, indent: int) -> None:
    text = yaml.safe_dump(doc, default_flow_style=False, indent=max(2, indent), allow_unicode=True).encode()
    assert walk_lines(text, 10**6) >= _depth(doc)  # the walk, and the quick bounds before it
    assert yaml_nesting(text, 10**6) >= _depth(doc)
    assert yaml_nesting(text, 0) >= min(_depth(doc), 1)


BACKTRACKER = r"^(a+)+\1$"  # on `re`, a 3,000-character name held the interpreter for minutes


async def test_a_regex_rust_lacks_is_refused_by_the_tool_by_name(tmp_path: Path) -> None:
    from minitools import Run

    (tmp_path / "a.py").write_text("a" * 3000 + "b = 1\n")
    rule = {"id": "r", "language": "python", "rule": {"kind": "identifier", "regex": BACKTRACKER}}
    replace = {"id": "r", "language": "python", "rule": {"pattern": "$A = 1"},
               "transform": {"B": {"replace": {"source": "$A", "replace": "(a)(?=b)", "by": "x"}}}}
    async with Run(tmp_path, resources={"lsp": False}) as run:
        refused = await run.call("ast_grep", {"rule": rule})
        replaced = await run.call("ast_grep", {"rule": replace})
    assert not refused.ok
    assert (f'rule.rule.regex: "{BACKTRACKER}" is refused: backreferences are not supported (Rust\'s regex, which '
            "ast-grep runs, has none); write the expression without it") in refused.text
    assert not replaced.ok
    assert ('rule.transform.B.replace.replace: "(a)(?=b)" is refused: look-around, including look-ahead and '
            "look-behind, is not supported") in replaced.text


def test_the_cli_refuses_such_a_regex_in_a_rule_and_in_filter(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a" * 3000 + "b = 1\n")
    rule = json.dumps({"id": "r", "language": "python", "rule": {"kind": "identifier", "regex": BACKTRACKER}})
    proc = _minitools("ast-grep", "scan", "--inline-rules", rule, ".", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "backreferences are not supported" in proc.stderr
    fine = json.dumps({"id": "r", "language": "python", "rule": {"kind": "identifier"}})
    proc = _minitools("ast-grep", "scan", "--inline-rules", fine, "--filter", r"(a)\1", ".", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "--filter '(a)\\\\1' is refused: backreferences are not supported" in proc.stderr


RULE = "id: r\nlanguage: python\nrule:\n  pattern: foo()\n"


@pytest.fixture
def rule_project(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    (tmp_path / "utils").mkdir()
    (tmp_path / "rules" / "r.yml").write_text(RULE)
    (tmp_path / "a.py").write_text("x = foo()\n")
    (tmp_path / "sgconfig.yml").write_text("ruleDirs: [rules]\nutilDirs: [utils]\n")
    return tmp_path


def test_a_fifo_among_the_rules_is_skipped_and_named(rule_project: Path) -> None:
    import os

    os.mkfifo(rule_project / "rules" / "fifo.yml")  # the scan blocked on it for good
    proc = _minitools("ast-grep", "scan", cwd=rule_project, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "a.py:1:5: hint[r]" in proc.stdout
    assert 'fifo.yml" is not a regular file (a FIFO, a device or a socket)' in proc.stderr


def test_a_link_to_dev_zero_among_the_utils_is_refused(rule_project: Path) -> None:
    (rule_project / "utils" / "zero.yml").symlink_to("/dev/zero")  # read until memory ran out
    proc = _minitools("ast-grep", "scan", cwd=rule_project, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert f'the utility file "{rule_project / "utils" / "zero.yml"}" is not a regular file' in proc.stderr
    assert "nothing was run" in proc.stderr


def test_a_utils_file_not_in_utf8_is_refused_by_name(rule_project: Path) -> None:
    (rule_project / "utils" / "bad.yml").write_bytes(b"id: u\nlanguage: python\nrule:\n  pattern: \xff\n")
    proc = _minitools("ast-grep", "scan", cwd=rule_project)
    assert proc.returncode == 2, proc.stderr  # a UnicodeDecodeError traceback before
    assert "Traceback" not in proc.stderr
    assert f'the utility file "{rule_project / "utils" / "bad.yml"}" is not UTF-8 text (byte 40' in proc.stderr


def test_a_rule_folder_of_the_whole_file_system_is_refused(rule_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import minitools.rules._project as project

    monkeypatch.setattr(project, "MAX_WALK_ENTRIES", 50)  # `/` holds more than any limit
    for k in range(60):
        (rule_project / "rules" / f"x{k}.txt").write_text("")
    with pytest.raises(project.RuleError, match=r'the folder ".*rules" holds more than 50 files and folders; ruleDirs'):
        project.load_project(rule_project / "sgconfig.yml")
    (rule_project / "sgconfig.yml").write_text("ruleDirs: [/]\n")
    proc = _minitools("ast-grep", "scan", cwd=rule_project, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert 'the folder "/" holds more than 100,000 files and folders' in proc.stderr


def test_braces_read_as_a_mapping_key_are_a_rule_error(rule_project: Path) -> None:
    text = "id: r\nlanguage: python\nrule:\n  pattern: {{ x }}\n"  # a workflow file's placeholder
    (rule_project / "rules" / "flow.yml").write_text(text)
    proc = _minitools("ast-grep", "scan", cwd=rule_project)
    assert proc.returncode == 0, proc.stderr  # a TypeError traceback before
    assert 'a mapping key at line 4 is not a scalar: "pattern: {{ x }}"; quote text that holds braces' in proc.stderr
    proc = _minitools("call", "ast_grep", json.dumps({"rule": text}), cwd=rule_project)
    assert proc.returncode == 1, proc.stdout  # an internal error of the tool before
    assert 'a mapping key at line 4 is not a scalar: "pattern: {{ x }}"' in proc.stdout


def test_a_chain_of_utilities_too_long_to_match_is_refused() -> None:
    from minitools.rules import RuleError, RuleSet, load_rule_text

    def chain(n: int) -> str:
        utils = "".join(f"  u{k}:\n    matches: u{k + 1}\n" for k in range(n)) + f"  u{n}:\n    pattern: foo()\n"
        return f"id: r\nlanguage: python\nutils:\n{utils}rule:\n  matches: u0\n"

    with pytest.raises(RuleError, match=r"utils: the utility rules u\d+ -> .* nest deeper than 120 rule levels "
                                        r"through matches; shorten the chain"):
        load_rule_text(chain(900), "r.yml")  # RecursionError before
    (config,) = load_rule_text(chain(100), "r.yml")
    assert len(RuleSet([config]).scan_source(b"foo()\n", "python")) == 1


def test_a_rule_list_past_the_parser_s_line_counter_says_so() -> None:
    from minitools.rules import RuleError, load_rule_text

    text = "".join(f"- id: r{k}\n  language: python\n" for k in range(32766))  # "syntax error at line 1, column 1"
    with pytest.raises(RuleError, match=r"list.yml: the YAML has 65,533 lines; its parser counts lines in 16 bits and "
                                        r"cannot read past line 32,767: split the rules over several files"):
        load_rule_text(text, "list.yml")
    crlf = "".join(f"- r{k}\r\n" for k in range(17000))  # the parser ends a line at \r and at \n
    with pytest.raises(RuleError, match=r"34,001 lines \(a \\r\\n line ending counts as two\)"):
        load_rule_text(crlf, "crlf.yml")


# pieces of rule files, hostile ones among them: the invariant is h11's, for rule texts
PIECES = ["id: r\n", "language: python\n", "rule:\n", "  pattern: foo($A)\n", "  kind: call\n", "  regex: ", "{{ x }}",
          "[", "]", "{", "}", ": ", "- ", "? ", "|\n", ">\n", "  ", "\n", "&a ", "*a", "!t ", '"', "'", "\\", "$A",
          "utils:\n", "  u: {matches: u}\n", "  matches: u\n", "transform:\n",
          "  B: replace($A, replace='(a)\\1', by='x')\n", "constraints:\n", "  A: {regex: '^(a+)+$'}\n", "fix: $B\n",
          "---\n", "#", "\t", "\xff", "\r", "0x1F", ".inf", "~", "null", "true", "1e999", "%YAML 1.2\n", "...\n"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_whatever_rule_text_arrives_it_is_a_rule_error_or_it_runs(text: str) -> None:
    from minitools.rules import RuleError, RuleSet, load_rule_text

    try:
        configs = load_rule_text(text, "r.yml")
    except RuleError:
        return
    RuleSet(configs).scan_source(b"foo(a)\nfoo(aaaa)\n", "python")


def test_a_glob_too_large_for_a_linear_search_is_refused_or_left_out(tmp_path: Path) -> None:
    """Thousands of `*`s: more states than the linear search runs, so `re` would have taken
    it on (exponential time); a rule's glob is refused, an ignore file's line left out."""
    from minitools.rules import RuleError, read_config

    hostile = "*a" * 8000
    with pytest.raises(RuleError, match=r'rule.files\[0\]: "\*a\*a.*…" is refused: it needs more than 20,000 states'):
        read_config({"id": "r", "language": "python", "rule": {"pattern": "foo()"}, "files": [hostile]})
    (tmp_path / ".gitignore").write_text(hostile + "b\nz.py\n")
    (tmp_path / "x.py").write_text("foo()\n")
    (tmp_path / "z.py").write_text("foo()\n")
    proc = _minitools("ast-grep", "foo()", "--lang", "python", ".", cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "x.py:1:1: foo()\n"


async def test_a_deep_yaml_snippet_is_refused_by_the_tool(tmp_path: Path) -> None:
    from minitools import Run

    async with Run(tmp_path, resources={"lsp": False}) as run:
        for extra in ({}, {"explain": True}):
            result = await run.call("ast_grep", {"pattern": "$A", "language": "yaml", "code": DEEP_INLINE, **extra})
            assert not result.ok
            assert result.text.startswith("code is YAML nested more than 250 levels deep"), result.text
        rule = {"id": "r", "language": "yaml", "rule": {"kind": "block_sequence"}}
        result = await run.call("ast_grep", {"rule": rule, "code": DEEP_INLINE})
        assert result.text.startswith("code is YAML nested more than 250 levels deep"), result.text
