"""MCP tasks (2025-11-25) on the wire: a long call answered at once with a task, what it is doing
while it runs, its result the same text as the plain call's, cancellation that stops the work, and
a call queued behind a task that says what it waits for."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from mcp_support import LineClient, modern_meta

STEPS = "import time\nfor i in range(3):\n    print('step', i, flush=True)\n    time.sleep(0.8)\n6 * 7"


async def _task(client: LineClient, name: str, arguments: dict[str, Any], token: str | None = None) -> str:
    params: dict[str, Any] = {"name": name, "arguments": arguments, "task": {"ttl": 120_000}}
    if token is not None:
        params["_meta"] = {"progressToken": token}
    created = (await client.request("tools/call", params))["result"]["task"]
    assert created["status"] == "working" and created["ttl"] == 120_000 and created["pollInterval"] > 0
    return str(created["taskId"])


async def _until(client: LineClient, task_id: str, seen: str, timeout: float = 60) -> dict[str, Any]:
    """Poll tasks/get until the status message says `seen`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        task = (await client.request("tasks/get", {"taskId": task_id}))["result"]
        if seen in task["statusMessage"] or loop.time() > deadline:
            return task
        await asyncio.sleep(0.2)


async def test_the_long_tools_run_as_tasks_and_the_result_is_the_plain_calls(line_client):
    init = (await line_client.initialize("2025-11-25"))["result"]
    assert init["capabilities"]["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    tools = {t["name"]: t for t in (await line_client.request("tools/list"))["result"]["tools"]}
    for name in ("eval", "debug", "lsp", "lsp_rename", "ast_grep", "ast_edit"):
        assert tools[name]["execution"] == {"taskSupport": "optional"}, name
    assert "execution" not in tools["resolve"] and "execution" not in tools["written"]

    args = {"code": STEPS, "description": "print three steps"}
    task_id = await _task(line_client, "eval", args, token="cell")
    running = await _until(line_client, task_id, "last output line: step")
    assert running["status"] == "working" and "python cell running" in running["statusMessage"]
    listed = (await line_client.request("tasks/list"))["result"]["tasks"]
    assert [t["taskId"] for t in listed] == [task_id]
    result = (await line_client.request("tasks/result", {"taskId": task_id}))["result"]
    assert result["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
    plain = (await line_client.request("tools/call", {"name": "eval", "arguments": args}))["result"]
    assert result["content"] == plain["content"] and "step 2" in plain["content"][0]["text"]
    assert "Out: 42" in plain["content"][0]["text"] and result["isError"] is False
    done = (await line_client.request("tasks/get", {"taskId": task_id}))["result"]
    assert done["status"] == "completed"
    # the call's progress reached the client, tied to its task, saying what the cell printed
    progress = [n["params"] for n in line_client.notifications if n["method"] == "notifications/progress"]
    assert progress and all(p["progressToken"] == "cell" for p in progress)
    assert all(p["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id} for p in progress)
    assert any("last output line: step" in p["message"] for p in progress), progress
    values = [p["progress"] for p in progress]
    assert values == sorted(set(values))  # it only grows
    statuses = [n["params"] for n in line_client.notifications if n["method"] == "notifications/tasks/status"]
    assert statuses and statuses[-1]["taskId"] == task_id and statuses[-1]["status"] == "completed"
    assert await line_client.close() == 0


async def test_cancelling_a_task_interrupts_the_cell_and_leaves_no_process(line_client, project: Path):
    await line_client.initialize("2025-11-25")
    pid_file = project / "kernel.pid"
    code = f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\nprint('sleeping', flush=True)\ntime.sleep(600)"
    task_id = await _task(line_client, "eval", {"code": code, "description": "sleep for ten minutes"})
    await _until(line_client, task_id, "last output line: sleeping")
    kernel = int(pid_file.read_text())
    cancelled = (await line_client.request("tasks/cancel", {"taskId": task_id}))["result"]
    assert cancelled["status"] == "cancelled" and cancelled["taskId"] == task_id
    gone = await line_client.request("tasks/result", {"taskId": task_id})
    assert "cancelled" in gone["error"]["message"]
    again = await line_client.request("tasks/cancel", {"taskId": task_id})
    assert again["error"]["code"] == -32602 and "already cancelled" in again["error"]["message"]
    # the cell was stopped: the kernel answers the next cell at once
    after = (await asyncio.wait_for(line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "print('after the cancel')", "description": "print"}}), 30))["result"]
    assert "after the cancel" in after["content"][0]["text"]
    # a task left running when the client goes is stopped with the server, and its kernel with it
    await _task(line_client, "eval", {"code": "import time\ntime.sleep(600)", "description": "sleep again"})
    assert await line_client.close() == 0
    with pytest.raises(ProcessLookupError):
        for _ in range(50):
            os.kill(kernel, 0)
            await asyncio.sleep(0.1)


async def test_a_call_queued_behind_a_task_says_what_it_waits_for(line_client):
    await line_client.initialize("2025-11-25")
    task_id = await _task(line_client, "eval", {"code": "import time\ntime.sleep(3)\nprint('first')", "description": "wait"})
    second = (await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "print('second')", "description": "print"}, "_meta": {"progressToken": "queued"}}))["result"]
    assert "second" in second["content"][0]["text"]
    waits = [n["params"]["message"] for n in line_client.notifications
             if n["method"] == "notifications/progress" and n["params"]["progressToken"] == "queued"]
    assert waits and all("waiting for the eval call running for" in m for m in waits), waits
    first = (await line_client.request("tasks/result", {"taskId": task_id}))["result"]
    assert "first" in first["content"][0]["text"]


async def test_bad_task_requests_are_refused_and_change_nothing(line_client):
    await line_client.initialize("2025-11-25")
    unknown = await line_client.request("tasks/get", {"taskId": "no-such-task"})
    assert unknown["error"]["code"] == -32602 and "'no-such-task'" in unknown["error"]["message"]
    quick = await line_client.request("tools/call", {"name": "written", "arguments": {"paths": ["hello.py"]},
                                                     "task": {}})
    assert quick["error"]["code"] == -32601 and "written does not run as a task" in quick["error"]["message"]
    bad_ttl = await line_client.request("tools/call", {"name": "eval", "arguments": {"code": "1", "description": "one"},
                                                       "task": {"ttl": "soon"}})
    assert bad_ttl["error"]["code"] == -32602 and "'soon'" in bad_ttl["error"]["message"]
    assert (await line_client.request("tasks/list"))["result"]["tasks"] == []


async def test_an_older_revision_has_no_tasks(line_client):
    init = (await line_client.initialize("2025-06-18"))["result"]
    assert "tasks" not in init["capabilities"]
    tools = (await line_client.request("tools/list"))["result"]["tools"]
    assert all("execution" not in t for t in tools)
    listing = await line_client.request("tasks/list")
    assert listing["error"]["code"] == -32601 and "2025-11-25" in listing["error"]["message"]
    # a task asked for anyway is ignored: the call is answered plainly
    plain = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "print($$$A)"},
                                                      "task": {}}))["result"]
    assert "hello.py:2" in plain["content"][0]["text"]


def _modern(tasks: bool = True) -> dict[str, Any]:
    return modern_meta(tasks=tasks)


async def _poll(client: LineClient, task_id: str, timeout: float = 60) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        task = (await client.request("tasks/get", {"taskId": task_id, **_modern()}))["result"]
        if task["status"] != "working" or loop.time() > deadline:
            return task
        await asyncio.sleep(task["pollIntervalMs"] / 1000)


async def test_the_extension_makes_a_task_of_a_call_that_runs_long(line_client):
    found = (await line_client.request("server/discover", _modern()))["result"]
    assert found["capabilities"]["extensions"] == {"io.modelcontextprotocol/tasks": {}}
    tools = {t["name"]: t for t in (await line_client.request("tools/list", _modern()))["result"]["tools"]}
    assert tools["eval"]["execution"] == {"taskSupport": "optional"} and "execution" not in tools["written"]
    # a short call is answered plainly
    quick = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "print($$$A)"},
                                                      **_modern()}))["result"]
    assert quick["resultType"] == "complete" and "hello.py:2" in quick["content"][0]["text"]
    # one still running after two seconds becomes a task, and tasks/get carries its result
    args = {"code": "import time\nprint('warming up', flush=True)\ntime.sleep(4)\nprint('trained')", "description": "train"}
    created = (await line_client.request("tools/call", {"name": "eval", "arguments": args, **_modern()}))["result"]
    assert created["resultType"] == "task" and created["status"] == "working"
    assert created["ttlMs"] > 0 and created["pollIntervalMs"] > 0 and "result" not in created
    assert "last output line: warming up" in created["statusMessage"]
    done = await _poll(line_client, created["taskId"])
    assert done["status"] == "completed" and done["resultType"] == "complete"
    plain = (await line_client.request("tools/call", {"name": "eval", "arguments": {**args, "code": "print('trained')"},
                                                      **_modern(tasks=False)}))["result"]
    assert done["result"]["content"][0]["text"].endswith(plain["content"][0]["text"])
    assert "warming up\ntrained" in done["result"]["content"][0]["text"]
    # a tool error completes the task (failed is for protocol errors), its result says it
    failing = (await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "import time\ntime.sleep(3)\nraise ValueError('no data')", "description": "fail"}, **_modern()}))["result"]
    failed = await _poll(line_client, failing["taskId"])
    assert failed["status"] == "completed" and failed["result"]["isError"] is True
    assert "ValueError: no data" in failed["result"]["content"][0]["text"]


async def test_the_extension_cancels_a_task_and_refuses_what_is_not_its_own(line_client):
    await line_client.request("server/discover", _modern())
    created = (await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "import time\ntime.sleep(600)", "description": "sleep"}, **_modern()}))["result"]
    task_id = created["taskId"]
    undeclared = await line_client.request("tasks/get", {"taskId": task_id, **_modern(tasks=False)})
    assert undeclared["error"]["code"] == -32021
    assert undeclared["error"]["data"] == {"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}
    legacy_only = await line_client.request("tasks/result", {"taskId": task_id, **_modern()})
    assert legacy_only["error"]["code"] == -32601 and "tasks/get carries the result" in legacy_only["error"]["message"]
    ack = (await line_client.request("tasks/cancel", {"taskId": task_id, **_modern()}))["result"]
    assert ack["resultType"] == "complete" and "status" not in ack
    assert (await _poll(line_client, task_id))["status"] == "cancelled"
    after = (await asyncio.wait_for(line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "print('free again')", "description": "print"}, **_modern()}), 30))["result"]
    assert "free again" in after["content"][0]["text"]
    unknown = await line_client.request("tasks/update", {"taskId": "nope", "inputResponses": {}, **_modern()})
    assert unknown["error"]["code"] == -32602 and "'nope'" in unknown["error"]["message"]


async def test_the_tasks_working_at_once_are_bounded(line_client):
    await line_client.initialize("2025-11-25")
    sleep = {"code": "import time\ntime.sleep(600)", "description": "sleep"}
    made = [await _task(line_client, "eval", sleep) for _ in range(32)]
    refused = await line_client.request("tools/call", {"name": "eval", "arguments": sleep, "task": {}})
    assert refused["error"]["code"] == -32600 and "32 tasks are working already" in refused["error"]["message"]
    await line_client.request("tasks/cancel", {"taskId": made[0]})
    assert await _task(line_client, "eval", sleep)  # room again
    assert await line_client.close() == 0  # every task stops with the server
