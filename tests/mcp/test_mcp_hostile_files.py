"""`minitools mcp` over a project with a file its YAML parser could die on: one
`tools/call` whose pattern reads as YAML ended the server with signal 11."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mcp_support import LineClient, mcp_argv, server_env


async def test_a_search_over_deep_yaml_answers_and_the_server_lives_on(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("".join("  " * i + "a:\n" for i in range(300)) + "  " * 300 + "b\n")
    (tmp_path / "ok.yaml").write_text("a: 1\n")
    proc = await asyncio.create_subprocess_exec(
        *mcp_argv(tmp_path), env=server_env(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    client = LineClient(proc)
    await client.initialize()
    reply = await client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "$A"}})
    text = reply["result"]["content"][0]["text"]
    assert not reply["result"]["isError"], text
    assert "ok.yaml:1: a: 1" in text
    assert "skipped 1 nested too deep to parse" in text
    assert "result" in await client.request("ping")
    assert await client.close() == 0  # -11 before


async def test_a_file_name_that_is_not_utf8_is_answered_and_can_be_named_back(tmp_path: Path) -> None:
    # the reply quoting b"a\xff.py" could not be written as UTF-8: it was dropped, and the
    # client waited forever for ast_grep, ast_edit and resolve (the files were written all the same)
    (tmp_path / "ok.py").write_text("print(2)\n")
    with open(bytes(tmp_path) + b"/a\xff.py", "w") as odd:
        odd.write("print(1)\n")
    proc = await asyncio.create_subprocess_exec(
        *mcp_argv(tmp_path), env=server_env(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    client = LineClient(proc)
    await client.initialize()
    found = await asyncio.wait_for(client.request("tools/call", {"name": "ast_grep", "arguments": {
        "pattern": "print($A)", "language": "python"}}), 20)
    text = found["result"]["content"][0]["text"]
    assert "a\udcff.py:1: print(1)" in text and "ok.py:1: print(2)" in text, text
    again = await asyncio.wait_for(client.request("tools/call", {"name": "ast_grep", "arguments": {
        "pattern": "print($A)", "path": "a\udcff.py"}}), 20)
    assert "1 match" in again["result"]["content"][0]["text"], again
    assert "result" in await client.request("ping")
    assert await client.close() == 0
