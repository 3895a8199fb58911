"""A rule project as `minitools ast-grep scan` and `test` read it: sgconfig.yml with ruleDirs
and utilDirs, files/ignores, severities and exit codes, a rule file that cannot run, and
tests that fail."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _cli(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", "ast-grep", *argv], cwd=root,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "sgconfig.yml").write_text("ruleDirs: [rules]\nutilDirs: [utils]\ntestConfigs:\n  - testDir: tests\n")
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "in-function.yml").write_text(
        "id: in-function\nlanguage: python\nrule:\n  inside: {kind: function_definition, stopBy: end}\n")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "no-eval.yml").write_text("""id: no-eval
language: Python
severity: error
message: eval of $X in a function
rule:
  pattern: eval($X)
  matches: in-function
ignores: ["vendor/**"]
""")
    (tmp_path / "rules" / "prints.yml").write_text("""id: prints
language: py
severity: warning
message: print
files: ["src/**"]
rule: {pattern: print($$$A)}
---
id: silenced
language: python
severity: off
rule: {pattern: print($$$A)}
""")
    (tmp_path / "rules" / "broken.yml").write_text("id: broken\nlanguage: python\nrule: {kind: not_a_kind}\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "no-eval-test.yml").write_text(
        "id: no-eval\nvalid:\n  - eval(x)\ninvalid:\n  - |\n    def f(x):\n        eval(x)\n  - print(1)\n")
    for folder, text in (("src", "def f(x):\n    eval(x)\n    print(x)\n"), ("vendor", "def g(y):\n    eval(y)\n"),
                         ("top", "eval(z)\nprint(z)\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(text)
    return tmp_path


def test_scan_reads_the_project(project: Path) -> None:
    proc = _cli(project, "scan", "--json=stream")
    assert proc.returncode == 1, proc.stderr  # an error-severity finding
    found = sorted((m["file"], m["ruleId"], m["severity"], m["message"]) for m in map(json.loads, proc.stdout.splitlines()))
    assert found == [("src/m.py", "no-eval", "error", "eval of x in a function"), ("src/m.py", "prints", "warning", "print")]
    assert "skipping the rules of" in proc.stderr and "broken.yml" in proc.stderr and '"not_a_kind"' in proc.stderr


def test_scan_exit_codes_and_filters(project: Path) -> None:
    warnings_only = _cli(project, "scan", "--filter", "^prints$")
    assert warnings_only.returncode == 0 and "src/m.py:3:5: warning[prints]: print" in warnings_only.stdout
    bad_filter = _cli(project, "scan", "--filter", "(")
    assert bad_filter.returncode == 2 and "--filter '(' is not a regular expression" in bad_filter.stderr
    inline = _cli(project, "scan", "--inline-rules", "{id: x, language: python, rule: {kind: nope}}")
    assert inline.returncode == 2 and '--inline-rules.rule.kind: "nope" is not a node kind of python' in inline.stderr
    assert inline.stderr.rstrip().endswith("nothing was run")
    missing = _cli(project, "scan", "-c", "elsewhere.yml")
    assert missing.returncode == 2 and 'no project configuration "elsewhere.yml"' in missing.stderr


def test_test_reports_each_rule(project: Path) -> None:
    proc = _cli(project, "test", "--skip-snapshot-tests")
    assert proc.returncode == 1
    assert "FAIL no-eval  ..M" in proc.stdout  # the last invalid snippet has no eval
    assert "invalid snippet did not match, but is invalid: print(1)" in proc.stdout
    assert "valid snippet matched" not in proc.stdout
    assert "test result: failed. 0 passed; 1 failed;" in proc.stdout
    # with snapshots compared (the default), the matching invalid snippet has no baseline yet
    compared = _cli(project, "test")
    assert "FAIL no-eval  .WM" in compared.stdout and "no no-eval baseline found" in compared.stdout


def test_run_is_the_pattern_search(project: Path) -> None:
    proc = _cli(project, "run", "-p", "eval($X)", "top")
    assert proc.returncode == 0 and proc.stdout == "top/m.py:1:1: eval(z)\n"


def test_rule_files_of_languages_not_scanned_are_not_read(project: Path) -> None:
    (project / "rules" / "go-only.yml").write_text("id: go-only\nlanguage: go\nrule: {kind: no_such_go_kind}\n")
    python_only = _cli(project, "scan", "src")
    assert python_only.returncode == 1 and "go-only" not in python_only.stderr  # no Go file: its rules are not read
    (project / "src" / "m.go").write_text("package m\n")
    with_go = _cli(project, "scan", "src")
    assert "go-only.yml" in with_go.stderr and '"no_such_go_kind" is not a node kind of go' in with_go.stderr
