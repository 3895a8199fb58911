from __future__ import annotations

import sys
from pathlib import Path

import pytest

FAKE_PEER = Path(__file__).with_name("fake_peer.py")


@pytest.fixture
def fake_argv() -> list[str]:
    return [sys.executable, "-u", str(FAKE_PEER)]
