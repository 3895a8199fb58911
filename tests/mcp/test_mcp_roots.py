"""`minitools mcp` without --root, as VS Code starts it (in the home folder, the workspace named only
as MCP roots): the client's first root is served, `lsp status` says which of how many, and with no
roots the current folder is served and the first tool result says so."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from mcp_support import LineClient, server_env


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    made = {name: tmp_path / name for name in ("first", "second", "home")}
    for name, folder in made.items():
        folder.mkdir()
        (folder / f"{name}.py").write_text(f"print('in {name}')\n")
    return made


@pytest.fixture
async def rootless(folders: dict[str, Path]) -> AsyncIterator[LineClient]:
    """`minitools mcp` with no --root, started in the home folder."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "minitools", "mcp", cwd=folders["home"],
                                                env=server_env(), stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    client = LineClient(proc)
    yield client
    if proc.returncode is None:
        await client.close()


def _roots(*folders: Path) -> dict[str, Any]:
    return {"roots": [{"uri": f.as_uri(), "name": f.name} for f in folders]}


async def _search(client: LineClient, **extra: Any) -> dict[str, Any]:
    reply = await client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "print($A)"}, **extra})
    return reply["result"]


async def test_the_first_of_several_roots_is_served_and_lsp_status_says_which(rootless, folders):
    rootless.answer = lambda request: _roots(folders["first"], folders["second"])
    await rootless.initialize("2025-11-25", {"roots": {"listChanged": True}})
    found = (await _search(rootless))["content"][0]["text"]
    assert "first.py:1" in found and "home.py" not in found and "workspace root" not in found
    status = (await rootless.request("tools/call", {"name": "lsp", "arguments": {"action": "status"}}))["result"]
    said = status["content"][0]["text"].splitlines()[0]
    assert said.startswith(f"workspace root: {folders['first'].resolve()}") and "the first of the client's 2 roots" in said
    assert str(folders["second"]) in said
    assert [r["method"] for r in rootless.server_requests] == ["roots/list"]  # asked once
    await _search(rootless)
    assert len(rootless.server_requests) == 1


async def test_without_roots_the_current_folder_is_served_and_the_first_result_says_so(rootless, folders):
    await rootless.initialize("2025-11-25")  # no roots capability
    first = (await _search(rootless))["content"][0]["text"]
    assert first.startswith(f"(workspace root: the current folder {folders['home'].resolve()}: no --root was given")
    assert "home.py:1" in first
    second = (await _search(rootless))["content"][0]["text"]
    assert "workspace root" not in second and "home.py:1" in second
    assert rootless.server_requests == []


async def test_roots_that_name_no_folder_here_leave_the_current_folder(rootless, folders):
    rootless.answer = lambda request: {"roots": [{"uri": "https://example.com/repo"}, {"uri": "file:///no/such/dir"}]}
    await rootless.initialize("2025-11-25", {"roots": {}})
    first = (await _search(rootless))["content"][0]["text"]
    assert "the client's roots name no folder here" in first and "home.py:1" in first


async def test_a_root_given_on_the_command_line_is_never_replaced(folders):
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "minitools", "mcp", "--root", str(folders["second"]),
                                                cwd=folders["home"], env=server_env(), stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    client = LineClient(proc)
    client.answer = lambda request: _roots(folders["first"])
    await client.initialize("2025-11-25", {"roots": {}})
    found = (await _search(client))["content"][0]["text"]
    assert found.startswith("1 match") and "second.py:1" in found and client.server_requests == []
    assert await client.close() == 0


async def test_roots_under_2026_07_28_come_through_the_calls_input_required(rootless, folders):
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": True}}}}
    asked = await _search(rootless, **meta)
    assert asked["resultType"] == "input_required"
    ((key, request),) = asked["inputRequests"].items()
    assert request == {"method": "roots/list", "params": {}}
    found = await _search(rootless, requestState=asked["requestState"],
                          inputResponses={key: _roots(folders["second"])}, **meta)
    assert found["resultType"] == "complete" and "second.py:1" in found["content"][0]["text"]


async def test_the_client_root_s_own_configuration_file_is_read(rootless, folders):
    # without --root or --config, the configuration is the served root's, not the start folder's
    (folders["first"] / "minitools.toml").write_text("[search]\nmax_file_size_kb = 1\n")
    (folders["first"] / "big.py").write_text("print('big')\n" + "# padding\n" * 200)
    rootless.answer = lambda request: _roots(folders["first"])
    await rootless.initialize("2025-11-25", {"roots": {"listChanged": True}})
    found = (await _search(rootless))["content"][0]["text"]
    assert "first.py:1" in found and "big.py" not in found, found


async def test_an_invalid_configuration_at_the_client_root_is_said_and_the_folder_kept(rootless, folders):
    (folders["first"] / "minitools.toml").write_text("[search]\nmax_file_size_kb = 'lots'\n")
    rootless.answer = lambda request: _roots(folders["first"])
    await rootless.initialize("2025-11-25", {"roots": {"listChanged": True}})
    found = (await _search(rootless))["content"][0]["text"]
    assert "was not served" in found and "max_file_size_kb" in found and "home.py:1" in found, found
