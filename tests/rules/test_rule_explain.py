"""The syntax-tree view for writing patterns: `ast_grep` with `explain` and
`minitools ast-grep --debug-query`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from minitools import Run

SOURCE = "import os\n\ndef clean(path):\n    os.system('rm -rf ' + path)\n"


async def test_explain_shows_the_reading_and_the_line_a_pattern_misses(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SOURCE)
    async with Run(tmp_path, resources={"lsp": False}) as run:
        # a pattern written as a statement with a string argument finds nothing on line 4
        missed = await run.call("ast_grep", {"pattern": "os.system('rm -rf $P')", "path": "tool.py"})
        shown = await run.call("ast_grep", {"pattern": "os.system('rm -rf $P')", "path": "tool.py", "line": 4,
                                            "explain": True})
        fixed = await run.call("ast_grep", {"pattern": "os.system($S + $P)", "path": "tool.py"})
    assert missed.ok and missed.data["total"] == 0
    assert shown.ok, shown.text
    # the reading: the string is one node with its text, and no metavariable inside it
    assert "statement rung: one node of kind call" in shown.text
    assert "string_content 'rm -rf $P'" in shown.text and "metavariables: none" in shown.text
    # the line: a binary_operator with a string on the left, which the fixed pattern uses
    assert "arguments: argument_list (4:14)" in shown.text
    assert "binary_operator (4:15)" in shown.text and "left: string (4:15)" in shown.text
    assert fixed.ok and fixed.data["total"] == 1


async def test_explain_says_what_it_needs(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SOURCE)
    async with Run(tmp_path, resources={"lsp": False}) as run:
        no_language = await run.call("ast_grep", {"pattern": "f($A)", "explain": True})
        past_the_end = await run.call("ast_grep", {"path": "tool.py", "line": 40, "explain": True})
        folder = await run.call("ast_grep", {"pattern": "f($A)", "language": "python", "line": 2, "explain": True})
    assert not no_language.ok and "explain needs language" in no_language.text
    assert not past_the_end.ok and "line 40 is outside the file (1-5)" in past_the_end.text
    assert not folder.ok and "line needs path to name a file" in folder.text


def test_debug_query_prints_the_reading_and_still_searches(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(SOURCE)
    proc = subprocess.run([sys.executable, "-m", "minitools", "ast-grep", "os.system($C)", "--debug-query", "."],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "tool.py:4:5: os.system('rm -rf ' + path)" in proc.stdout
    assert 'pattern "os.system($C)" in python' in proc.stderr and "$C  (any one named node)" in proc.stderr
