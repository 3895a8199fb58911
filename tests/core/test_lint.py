"""The linter runs with the tests, as the type checker does: ruff, with the rules that
pyproject.toml's [tool.ruff] selects, over the package, the tests, the benchmarks and the
examples (`make lint` runs the same check)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(120)
def test_ruff_is_clean():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                         cwd=REPO, capture_output=True, text=True, timeout=110)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
