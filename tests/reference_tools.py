"""The reference tools the differential tests compare against, found where set-up put them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest


def ast_grep_cli() -> str:
    """The `ast-grep` CLI beside this interpreter (setup/10-match.sh installs it), else on PATH."""
    exe = Path(sys.executable).with_name("ast-grep")
    found = str(exe) if exe.exists() else shutil.which("ast-grep")
    if not found:
        pytest.skip("the ast-grep CLI is not installed (setup/10-match.sh installs ast-grep-cli==0.51.1)")
    return found
