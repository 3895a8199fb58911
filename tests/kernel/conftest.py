from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minitools import Run


@pytest.fixture
async def run(tmp_path: Path) -> AsyncIterator[Run]:
    async with Run(tmp_path, approve=lambda spec, args: True, resources={"lsp": False}) as r:
        yield r


def cell(code: str, **extra: object) -> dict[str, object]:
    return {"code": code, "description": "run a cell for the kernel test", **extra}
