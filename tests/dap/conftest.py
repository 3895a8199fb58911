"""Fixtures for the debug tests: small programs in a temporary project, and a Run."""

from __future__ import annotations

from pathlib import Path

import pytest

PY_PROGRAM = """\
import sys


def total(items):
    acc = 0
    for x in items:
        acc += x
    return acc


numbers = list(range(120))
name = "minitools"
result = total(numbers)
print("result", result)
if len(sys.argv) > 1 and sys.argv[1] == "boom":
    raise ValueError("boom from the program")
print("done")
"""


@pytest.fixture
def pyproject(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    (tmp_path / "prog.py").write_text(PY_PROGRAM)
    return tmp_path


