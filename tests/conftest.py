"""Test-wide settings: strict mode (an exception escaping a tool fails the test)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ["MINITOOLS_STRICT"] = "1"

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


@pytest.fixture
def repo_root() -> Path:
    return REPO


@pytest.fixture
def python() -> str:
    return sys.executable
