"""A rule project's scan as its owners run it, against ast-grep 0.51.1: `ast-grep-ignore`
suppression comments (every finding of a scan, the unused-suppression hints included, equals
the CLI's, row for row: place, rule, message, captures, fix, labels; before, every suppressed
finding was reported), and paths outside the working folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reference_tools import ast_grep_cli
from scan_cli import scan_both, scan_findings

DATA = Path(__file__).parent / "data"
RULES = "\n---\n".join(json.dumps({"id": rid, "language": "python", "severity": "warning", "message": "m",
                                   "rule": {"pattern": pattern}})
                       for rid, pattern in (("rule-a", "print($A)"), ("rule-b", "print($$$)")))


def _project(tmp_path: Path, name: str, source: str) -> Path:
    (tmp_path / "rules").mkdir(parents=True)
    for k, rule in enumerate(RULES.split("\n---\n")):
        (tmp_path / "rules" / f"r{k}.yml").write_text(rule)
    (tmp_path / "sgconfig.yml").write_text("ruleDirs: [rules]\n")
    (tmp_path / name).write_text(source)
    return tmp_path


def _project_scan(root: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    theirs = scan_findings([ast_grep_cli(), "scan", "--json=stream", "."], root)
    ours = scan_findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--json=stream", "."], root)
    return theirs, ours


def test_scan_honours_suppressions_as_ast_grep_does(tmp_path: Path) -> None:
    source = (DATA / "suppressed.py.txt").read_text()
    theirs, ours = scan_both(tmp_path, "suppressed.py", source, RULES)
    assert 0 < len(theirs) < 2 * 29  # some findings are silenced, some not
    assert ours == theirs
    # a whole project's scan also reports each suppression that silenced nothing
    theirs, ours = _project_scan(_project(tmp_path / "project", "suppressed.py", source))
    assert sum(1 for row in theirs if row[3] == "unused-suppression") >= 4
    assert ours == theirs


def test_a_file_with_only_a_suppression_gets_the_unused_hint(tmp_path: Path) -> None:
    theirs, ours = _project_scan(_project(tmp_path, "only.py", "# ast-grep-ignore\nx = 1\n"))
    assert [row[3] for row in theirs] == ["unused-suppression"]
    assert ours == theirs


def test_the_rule_tool_leaves_suppressed_findings_out(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print(1)\n# ast-grep-ignore: rule-a\nprint(2)\nprint(3)  # ast-grep-ignore\n")
    rule = "id: rule-a\nlanguage: python\nrule: {pattern: print($A)}\n"
    run = subprocess.run([sys.executable, "-m", "minitools", "call", "ast_grep", json.dumps({"rule": rule, "path": "."}),
                          "--root", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert "print(1)" in run.stdout, run.stdout + run.stderr
    assert "print(2)" not in run.stdout and "print(3)" not in run.stdout


def test_scan_takes_a_path_outside_the_working_folder(tmp_path: Path) -> None:
    """`scan ../other` from a project folder was refused as outside the search root; ast-grep
    scans it with the project's rules and shows its files from here."""
    project = _project(tmp_path / "proj", "a.py", "print(1)\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "b.py").write_text("print(2)\n")
    theirs = scan_findings([ast_grep_cli(), "scan", "--json=stream", "../other", "a.py"], project)
    ours = scan_findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--json=stream", "../other", "a.py"],
                         project)
    assert {row[0] for row in theirs} == {"../other/b.py", "a.py"}
    assert ours == theirs
