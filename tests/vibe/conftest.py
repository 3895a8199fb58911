"""Real worker processes: the runner script in this folder, driven through a Run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("runner.py")


@pytest.fixture
def roster() -> dict[str, list[str]]:
    argv = [sys.executable, str(RUNNER), "{brief_file}", "{result_file}"]
    return {"fast": argv, "good": argv}
