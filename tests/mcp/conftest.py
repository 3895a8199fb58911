"""`minitools mcp` as a subprocess: a project to serve, and a line-level client on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from mcp_support import PROG, LineClient, mcp_argv, server_env


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\nversion = '0'\n")
    (root / "hello.py").write_text("def greet(name):\n    print('hi', name)\n\n\ngreet('you')\n")
    (root / "prog.py").write_text(PROG)
    return root


@pytest.fixture
async def line_client(project: Path, request: pytest.FixtureRequest) -> AsyncIterator[LineClient]:
    flags = getattr(request, "param", ())
    proc = await asyncio.create_subprocess_exec(
        *mcp_argv(project, *flags), env=server_env(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    client = LineClient(proc)
    yield client
    if proc.returncode is None:
        await client.close()
