"""Text no file can hold (a lone surrogate, which JSON may spell as "\\ud800" but UTF-8 cannot)
is the caller's error in every argument that becomes code: a clear refusal quoting it, nothing
staged, never a bug report. The Run is strict, so a bug would raise here instead of being
reported. (A file name's surrogate-escaped bytes are a path's business: tests/mcp.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from minitools import Run

LONE = "\ud800"
CALLS = {
    "pattern": ("ast_grep", {"pattern": f"f({LONE})", "language": "python"}, 'pattern "f(\\ud800)"'),
    "escape byte in a pattern": ("ast_grep", {"pattern": "\udcff", "language": "python"}, 'pattern "\\udcff"'),
    "snippet": ("ast_grep", {"pattern": "f($A)", "code": f"f('{LONE}')\n", "language": "python"}, "code holds"),
    "rule pattern": ("ast_grep", {"rule": {"pattern": LONE}, "language": "python"}, "rule.rule.pattern"),
    "rewrite": ("ast_edit", {"pattern": "f($A)", "rewrite": f"g({LONE})", "language": "python"}, 'rewrite "g(\\ud800)"'),
    "rule fix": ("ast_edit", {"rule": {"rule": {"pattern": "f($A)"}, "fix": LONE}, "language": "python"}, "rule.fix"),
    "transform": ("ast_edit", {"rule": {"rule": {"pattern": "f($A)"}, "fix": "g($B)", "transform": {
        "B": {"replace": {"source": "$A", "replace": "1", "by": LONE}}}}, "language": "python"}, "rule.transform.B.replace.by"),
    "symbol_edit code": ("symbol_edit", {"file": "app.py", "line": 1, "symbol": "f", "action": "replace",
                                         "code": f"def f(x):\n    return '{LONE}'\n"}, "code holds"),
}


@pytest.mark.parametrize("call", list(CALLS))
async def test_text_no_file_can_hold_is_refused_quoting_it(tmp_path: Path, call: str) -> None:
    (tmp_path / "app.py").write_text("def f(x):\n    return x\n\n\nf(1)\n")
    name, args, quoted = CALLS[call]
    async with Run(tmp_path, strict=True, approve=lambda spec, a: True) as run:
        result = await run.call(name, args)
        staged = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
    assert not result.ok and quoted in result.text and "lone surrogate" in result.text, result.text
    assert "escape" in result.text  # what to try
    assert "internal error" not in result.text and "bug" not in result.text
    assert not staged.ok and (tmp_path / "app.py").read_text() == "def f(x):\n    return x\n\n\nf(1)\n"
