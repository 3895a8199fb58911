"""`minitools mcp` on the wire, line by line: the lifecycle, version negotiation, and what a
client library never sends (malformed lines, the other revision's error rules)."""

from __future__ import annotations

import asyncio
import json
import signal

import pytest

import minitools


async def test_initialize_negotiates_the_version_and_names_the_server(line_client):
    reply = await line_client.initialize("2025-06-18")
    result = reply["result"]
    assert result["protocolVersion"] == "2025-06-18"
    assert result["serverInfo"] == {"name": "minitools", "title": "minitools", "version": minitools.__version__}
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert (await line_client.request("ping"))["result"] == {}
    assert await line_client.close() == 0


async def test_an_unknown_version_gets_the_newest_and_a_discover_without_a_revision_is_refused(line_client):
    probe = await line_client.request("server/discover", {})
    assert probe["error"]["code"] == -32022 and "server/discover" in probe["error"]["message"]
    assert probe["error"]["data"] == {"requested": "none", "supported": ["2026-07-28"]}
    missing = await line_client.request("initialize", {"capabilities": {}})  # refused: the session is not set
    assert missing["error"]["code"] == -32602 and "protocolVersion" in missing["error"]["message"]
    reply = await line_client.initialize("2024-11-05")
    assert reply["result"]["protocolVersion"] == "2025-11-25"


async def test_malformed_lines_get_errors_and_the_server_keeps_going(line_client):
    await line_client.initialize()
    await line_client.send(b"{not json\n")
    error = await line_client.read()
    assert error["id"] is None and error["error"]["code"] == -32700 and "{not json" in error["error"]["message"]
    await line_client.send(b"[1, 2]\n")
    assert (await line_client.read())["error"]["code"] == -32600
    await line_client.send(b'{"jsonrpc": "2.0", "id": 7}\n')  # neither a request nor a response
    neither = await line_client.read()
    assert neither["id"] == 7 and neither["error"]["code"] == -32600
    await line_client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}})
    await line_client.send({"jsonrpc": "2.0", "method": "notifications/unknown"})
    listing = await line_client.request("tools/list")
    assert any(tool["name"] == "ast_grep" for tool in listing["result"]["tools"])


async def test_a_call_nested_too_deeply_to_read_is_answered_by_its_id(line_client):
    # a rule 10,000 levels deep: the line was refused with id null, and the call waited forever
    rule = "{\"not\": " * 10000 + '{"pattern": "print($A)"}' + "}" * 10000
    await line_client.initialize()
    await line_client.send(('{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "ast_grep", "arguments": '
                            '{"language": "python", "rule": {"rule": ' + rule + '}}}, "id": "deep-1"}\n').encode())
    error = await asyncio.wait_for(line_client.response("deep-1"), 20)
    assert error["error"]["code"] == -32700 and "nests too deeply" in error["error"]["message"], error
    assert "shallower" in error["error"]["message"]
    assert "result" in await line_client.request("ping")


async def test_unknown_tool_and_bad_arguments_follow_the_revision(line_client):
    await line_client.initialize("2025-06-18")
    unknown = await line_client.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert unknown["error"]["code"] == -32602 and "no_such_tool" in unknown["error"]["message"]
    # 2025-06-18: arguments that do not fit the input schema are a protocol error
    bad = await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": 3}})
    assert bad["error"]["code"] == -32602 and "pattern" in bad["error"]["message"]
    not_object = await line_client.request("tools/call", {"name": "ast_grep", "arguments": [1]})
    assert not_object["error"]["code"] == -32602 and "arguments" in not_object["error"]["message"]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
async def test_null_for_an_optional_argument_means_absent(line_client, version):
    # mcp-use's LangChain adapter (pydantic models) sends null for every optional argument left unset
    await line_client.initialize(version)
    args = {"pattern": "print($$$A)", "language": None, "path": "hello.py", "max_results": None}
    found = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": args}))["result"]
    assert found["isError"] is False and "hello.py:2" in found["content"][0]["text"]
    lsp = (await line_client.request("tools/call", {"name": "lsp", "arguments": {
        "action": "status", "file": None, "line": None, "symbol": None, "query": None}}))["result"]
    assert lsp["isError"] is False, lsp["content"][0]["text"]


async def test_bad_arguments_are_a_tool_error_on_2025_11_25(line_client):
    await line_client.initialize("2025-11-25")
    bad = await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": 3}})
    result = bad["result"]
    assert result["isError"] is True and "pattern" in result["content"][0]["text"]
    assert "structuredContent" not in result  # it would not fit the output schema


async def test_2025_03_26_gets_its_own_shapes(line_client):
    # the revision before output schemas, structured content and elicitation: none are sent
    reply = await line_client.initialize("2025-03-26", {"elicitation": {}})
    assert reply["result"]["protocolVersion"] == "2025-03-26"
    tools = (await line_client.request("tools/list"))["result"]["tools"]
    names = {t["name"] for t in tools}
    assert "ast_grep" in names and "ask_user" not in names
    assert all("outputSchema" not in t for t in tools) and all("annotations" in t for t in tools)
    found = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "print($$$A)", "path": "hello.py"}}))["result"]
    assert found["isError"] is False and "structuredContent" not in found
    assert "hello.py" in found["content"][0]["text"]
    bad = await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": 3}})
    assert bad["error"]["code"] == -32602 and "pattern" in bad["error"]["message"]


@pytest.mark.parametrize("line_client", [("--structured",)], indirect=True)
async def test_multi_select_on_2025_06_18_is_one_boolean_per_option(line_client):
    await line_client.initialize("2025-06-18", {"elicitation": {}})
    line_client.answer = lambda request: {"action": "accept", "content": {"option_1": True, "option_3": True}}
    reply = await line_client.request("tools/call", {"name": "ask_user", "arguments": {
        "question": "Which letters?", "multi_select": True, "options": [{"label": "a"}, {"label": "b"}, {"label": "c"}]}})
    assert reply["result"]["structuredContent"] == {"skipped": False, "choices": ["a", "c"], "text": None}
    (elicit,) = line_client.server_requests
    assert elicit["method"] == "elicitation/create" and "mode" not in elicit["params"]
    properties = elicit["params"]["requestedSchema"]["properties"]
    assert properties == {f"option_{i}": {"type": "boolean", "title": label, "default": False}
                          for i, label in enumerate("abc", 1)}


@pytest.mark.parametrize("how", ["close stdin", "SIGTERM"])
async def test_closing_stdin_stops_the_running_call_and_what_it_started(line_client, project, how):
    await line_client.initialize()
    pid_file = project / "kernel.pid"
    cell = f"import os, pathlib, time\npathlib.Path({str(pid_file)!r}).write_text(str(os.getpid()))\ntime.sleep(120)"
    await line_client.send({"jsonrpc": "2.0", "id": 50, "method": "tools/call",
                            "params": {"name": "eval", "arguments": {"code": cell, "description": "sleep for two minutes in a cell"}}})
    for _ in range(600):
        if pid_file.exists() and pid_file.read_text():
            break
        await asyncio.sleep(0.1)
    kernel = int(pid_file.read_text())
    if how == "SIGTERM":
        line_client.proc.send_signal(signal.SIGTERM)
    assert await line_client.close() == 0  # well before the cell's two minutes
    # the call still running is answered: an error that says why it stopped
    assert line_client.proc.stdout is not None
    answers = [json.loads(line) for line in (await line_client.proc.stdout.read()).splitlines()]
    (answer,) = [a for a in answers if a.get("id") == 50]
    why = "SIGTERM" if how == "SIGTERM" else "the input ended"
    assert why in answer["error"]["message"] and "stopped" in answer["error"]["message"], answer
    try:
        with open(f"/proc/{kernel}/stat") as stat:
            alive = stat.read().split()[2] != "Z"  # a zombie awaiting its reaper counts as gone
    except FileNotFoundError:
        alive = False
    assert not alive, "the kernel outlived minitools mcp"


async def test_only_ping_before_initialize_and_initialize_once(line_client, project):
    assert (await line_client.request("ping"))["result"] == {}
    listing = await line_client.request("tools/list")
    assert listing["error"]["code"] == -32600 and "initialize first" in listing["error"]["message"]
    pid_file = project / "ran.txt"
    call = await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": f"open({str(pid_file)!r}, 'w').write('ran')", "description": "write a file before initialize"}})
    assert call["error"]["code"] == -32600 and "before initialize" in call["error"]["message"]
    assert not pid_file.exists()  # nothing ran
    assert (await line_client.initialize("2025-06-18"))["result"]["protocolVersion"] == "2025-06-18"
    again = await line_client.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    assert again["error"]["code"] == -32600 and "already" in again["error"]["message"]
    tools = await line_client.request("tools/list")
    assert "outputSchema" not in json.dumps(tools) and any(t["name"] == "ast_grep" for t in tools["result"]["tools"])


def test_a_piped_script_gets_its_answers(project):
    # initialize, initialized and one call piped in, stdin closed at once: the call is still answered
    import subprocess

    from mcp_support import mcp_argv, server_env

    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ast_grep", "arguments": {
            "pattern": "print($$$A)", "language": "python"}}},
    ]
    script = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(mcp_argv(project), input=script, capture_output=True, text=True, timeout=60, env=server_env())
    assert done.returncode == 0, done.stderr
    answers = {a["id"]: a for a in map(json.loads, done.stdout.splitlines())}
    assert answers[2]["result"]["isError"] is False and "hello.py:2" in answers[2]["result"]["content"][0]["text"]


async def test_the_roots_language_server_starts_before_the_first_query(line_client):
    # minitools mcp warms up at start: by the time a model asks, the server is (being) started
    await line_client.initialize()
    for _ in range(300):
        status = (await line_client.request("tools/call", {"name": "lsp", "arguments": {"action": "status"}}))["result"]
        if "running (pid" in status["content"][0]["text"]:
            break
        await asyncio.sleep(0.1)
    assert "running (pid" in status["content"][0]["text"], status
