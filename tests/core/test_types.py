"""The type checker runs with the tests, so CI runs it (`make lint` runs it too, with ruff)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(300)
def test_mypy_is_clean():
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True, timeout=290)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
