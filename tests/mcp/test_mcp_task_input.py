"""A task's questions to the person and the streams that follow tasks, on the wire against the
real `minitools mcp`: a cell that has run long enough to be a task asks (ask_user, or a tool that
needs the permission card of --approve ask); the task waits as `input_required`, the answer comes
(2026-07-28: tasks/update's inputResponses; 2025-11-25: the answer to an elicitation/create tied
to the task), and the task completes with the plain call's text. `subscriptions/listen` streams
the followed tasks' states. Neither SDK client speaks the extension's task questions or task
streams, so these are driven as raw JSON-RPC over stdio."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from mcp_support import LineClient, modern_meta

RELATED = "io.modelcontextprotocol/related-task"
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"
# runs long enough to become a task (TASK_AFTER is 2 s), then asks the person
ASK = ("import time\nprint('training', flush=True)\ntime.sleep(2.5)\n"
       "answer = tool('ask_user', question='Which checkpoint?', options=[{'label': 'epoch 3'}, {'label': 'epoch 5'}])\n"
       "print('kept', answer.data['choices'])")
CHOSEN = {"action": "accept", "content": {"choice": "epoch 5"}}


def _meta(**flags: bool) -> dict[str, Any]:
    return modern_meta(tasks=flags.get("tasks", True), elicitation=True)


async def _call_as_task(client: LineClient, name: str, arguments: dict[str, Any]) -> str:
    created = (await client.request("tools/call", {"name": name, "arguments": arguments, **_meta()}))["result"]
    assert created["resultType"] == "task", created
    return str(created["taskId"])


async def _poll(client: LineClient, task_id: str, status: str, timeout: float = 60) -> dict[str, Any]:
    """tasks/get until the task is `status` (or the time is up)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        task = (await client.request("tasks/get", {"taskId": task_id, **_meta()}))["result"]
        if task["status"] == status or loop.time() > deadline:
            return task
        await asyncio.sleep(0.2)


async def _update(client: LineClient, task_id: str, responses: Any) -> dict[str, Any]:
    return await client.request("tasks/update", {"taskId": task_id, "inputResponses": responses, **_meta()})


async def test_a_task_that_asks_waits_for_the_answer_and_completes_with_the_plain_calls_text(line_client):
    await line_client.request("server/discover", _meta())
    task_id = await _call_as_task(line_client, "eval", {"code": ASK, "description": "train, then ask"})
    await line_client.send({"jsonrpc": "2.0", "id": "watch", "method": "subscriptions/listen",
                            "params": {"notifications": {"taskIds": [task_id, "no-such-task"]}, **_meta()}})
    ack = await line_client.notification("notifications/subscriptions/acknowledged")
    assert ack == {"_meta": {SUBSCRIPTION: "watch"}, "notifications": {"taskIds": [task_id]}}

    waiting = await _poll(line_client, task_id, "input_required")
    assert waiting["statusMessage"] == "waiting for the person's answer: Which checkpoint?"
    question = waiting["inputRequests"]["question-1"]
    assert list(waiting["inputRequests"]) == ["question-1"] and question["method"] == "elicitation/create"
    assert question["params"]["requestedSchema"]["properties"]["choice"]["enum"] == ["epoch 3", "epoch 5"]

    # an answer to a question never asked is refused, and the task still waits for its own
    wrong = await _update(line_client, task_id, {"question-7": CHOSEN})
    assert wrong["error"]["code"] == -32602
    assert "never asked 'question-7'" in wrong["error"]["message"] and "question-1" in wrong["error"]["message"]
    shapeless = await _update(line_client, task_id, ["epoch 5"])
    assert shapeless["error"]["code"] == -32602 and "['epoch 5']" in shapeless["error"]["message"]
    still = await _poll(line_client, task_id, "input_required")
    assert still["inputRequests"] == waiting["inputRequests"]

    ack_update = (await _update(line_client, task_id, {"question-1": CHOSEN}))["result"]
    assert ack_update["resultType"] == "complete" and set(ack_update) == {"resultType", "_meta"}
    done = await _poll(line_client, task_id, "completed")
    text = done["result"]["content"][0]["text"]
    assert "training\nkept ['epoch 5']" in text and done["result"]["isError"] is False

    # an answer to a finished task is refused
    late = await _update(line_client, task_id, {"question-1": CHOSEN})
    assert late["error"]["code"] == -32602 and "already completed" in late["error"]["message"]

    # the stream said each change, as tasks/get would have, and ended when the task did
    ended = await line_client.response("watch")
    assert ended["result"]["resultType"] == "complete" and ended["result"]["_meta"][SUBSCRIPTION] == "watch"
    streamed = [n["params"] for n in line_client.notifications if n["method"] == "notifications/tasks"]
    assert all(p["_meta"] == {SUBSCRIPTION: "watch"} and p["taskId"] == task_id for p in streamed)
    statuses = [p["status"] for p in streamed]
    assert statuses[-3:] == ["input_required", "working", "completed"], statuses
    assert streamed[-3]["inputRequests"] == waiting["inputRequests"]
    assert streamed[-1]["result"] == done["result"]

    # the plain call (no tasks: the question comes back in its input_required result) says the same
    plain_meta = modern_meta(tasks=False, elicitation=True)
    arguments = {"name": "eval", "arguments": {"code": ASK, "description": "train, then ask"}, **plain_meta}
    asked = (await line_client.request("tools/call", arguments))["result"]
    assert asked["resultType"] == "input_required" and list(asked["inputRequests"]) == ["question-1"]
    plain = (await line_client.request("tools/call", {**arguments, "requestState": asked["requestState"],
                                                      "inputResponses": {"question-1": CHOSEN}}))["result"]
    assert plain["content"] == done["result"]["content"]


@pytest.mark.parametrize("line_client", [("--approve", "ask")], indirect=True)
async def test_a_permission_card_inside_a_task(line_client, project: Path):
    before = (project / "hello.py").read_text()
    await line_client.request("server/discover", _meta())
    code = ("import time\ntime.sleep(2.5)\n"
            "print(tool('ast_edit', pattern='print($$$A)', rewrite='log($$$A)', path='hello.py'))")
    call = {"name": "eval", "arguments": {"code": code, "description": "edit from a cell"}, **_meta()}
    # eval's own card comes before the call can become a task, in the call's input_required result
    card = (await line_client.request("tools/call", call))["result"]
    assert card["resultType"] == "input_required"
    assert "Allow `eval`" in card["inputRequests"]["question-1"]["params"]["message"]
    allow = {"action": "accept", "content": {"choice": "allow once"}}
    created = (await line_client.request("tools/call", {**call, "requestState": card["requestState"],
                                                        "inputResponses": {"question-1": allow}}))["result"]
    assert created["resultType"] == "task"
    # ast_edit's card, asked from the cell after the call became a task, waits in the task
    waiting = await _poll(line_client, created["taskId"], "input_required")
    asked = waiting["inputRequests"]["question-1"]["params"]
    assert "Allow `ast_edit` to change files?" in asked["message"]
    assert asked["requestedSchema"]["properties"]["choice"]["enum"] == ["allow once", "allow for this run", "deny"]
    assert (await _update(line_client, created["taskId"], {"question-1": allow}))["result"]["resultType"] == "complete"
    done = await _poll(line_client, created["taskId"], "completed")
    text = done["result"]["content"][0]["text"]
    assert "hello.py" in text and "log('hi', name)" in text, text
    assert (project / "hello.py").read_text() == before  # staged, not written


async def test_cancelling_a_task_that_waits_for_an_answer_stops_its_cell(line_client, project: Path):
    await line_client.request("server/discover", _meta())
    pid_file = project / "kernel.pid"
    code = f"import os\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n{ASK}"
    task_id = await _call_as_task(line_client, "eval", {"code": code, "description": "ask, then be cancelled"})
    await _poll(line_client, task_id, "input_required")
    kernel = int(pid_file.read_text())
    await line_client.send({"jsonrpc": "2.0", "id": "watch", "method": "subscriptions/listen",
                            "params": {"notifications": {"taskIds": [task_id]}, **_meta()}})
    ack = (await line_client.request("tasks/cancel", {"taskId": task_id, **_meta()}))["result"]
    assert ack["resultType"] == "complete"
    cancelled = await _poll(line_client, task_id, "cancelled")
    assert cancelled["status"] == "cancelled" and "inputRequests" not in cancelled
    assert (await line_client.response("watch"))["result"]["_meta"][SUBSCRIPTION] == "watch"
    streamed = [n["params"]["status"] for n in line_client.notifications if n["method"] == "notifications/tasks"]
    assert streamed == ["input_required", "cancelled"]  # its state when followed, then the end
    late = await _update(line_client, task_id, {"question-1": CHOSEN})
    assert late["error"]["code"] == -32602 and "already cancelled" in late["error"]["message"]
    # the cell was stopped: the kernel answers the next cell at once
    after = (await asyncio.wait_for(line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "print('after the cancel')", "description": "print"}, **_meta()}), 30))["result"]
    assert "after the cancel" in after["content"][0]["text"]
    # one left waiting when the client goes is stopped with the server, and its kernel with it
    await _call_as_task(line_client, "eval", {"code": ASK, "description": "ask and never hear back"})
    assert await line_client.close() == 0
    with pytest.raises(ProcessLookupError):
        for _ in range(50):
            os.kill(kernel, 0)
            await asyncio.sleep(0.1)


async def test_listen_refuses_what_it_cannot_follow_and_stops_when_cancelled(line_client):
    await line_client.request("server/discover", _meta())
    undeclared = await line_client.request("subscriptions/listen", {"notifications": {"taskIds": []},
                                                                    **_meta(tasks=False)})
    assert undeclared["error"]["code"] == -32021
    assert undeclared["error"]["data"] == {"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}
    shapeless = await line_client.request("subscriptions/listen", {"notifications": {"taskIds": "abc"}, **_meta()})
    assert shapeless["error"]["code"] == -32602 and "'abc'" in shapeless["error"]["message"]
    missing = await line_client.request("subscriptions/listen", _meta())
    assert missing["error"]["code"] == -32602 and "\"notifications\"" in missing["error"]["message"]
    # nothing to follow (the tool list never changes): acknowledged as nothing, and ended at once
    nothing = await line_client.request("subscriptions/listen", {"notifications": {"toolsListChanged": True}, **_meta()})
    assert nothing["result"]["resultType"] == "complete"
    ack = await line_client.notification("notifications/subscriptions/acknowledged")
    assert ack["notifications"] == {} and ack["_meta"] == {SUBSCRIPTION: line_client.next_id}

    task_id = await _call_as_task(line_client, "eval", {"code": "import time\ntime.sleep(4)", "description": "wait"})
    await line_client.send({"jsonrpc": "2.0", "id": "gone", "method": "subscriptions/listen",
                            "params": {"notifications": {"taskIds": [task_id]}, **_meta()}})
    await line_client.notification("notifications/tasks", lambda p: p["_meta"][SUBSCRIPTION] == "gone")
    await line_client.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "gone"}})
    assert (await _poll(line_client, task_id, "completed"))["status"] == "completed"
    await line_client.request("ping", _meta())
    assert "gone" not in line_client.responses  # a cancelled stream is not answered
    told = [n for n in line_client.notifications if n["method"] == "notifications/tasks"]
    assert [n["params"]["status"] for n in told] == ["working"]  # and sends nothing more
    # a stream still open when the server stops ends with its result
    sleeper = await _call_as_task(line_client, "eval", {"code": "import time\ntime.sleep(600)", "description": "sleep"})
    await line_client.send({"jsonrpc": "2.0", "id": "last", "method": "subscriptions/listen",
                            "params": {"notifications": {"taskIds": [sleeper]}, **_meta()}})
    await line_client.notification("notifications/tasks", lambda p: p["_meta"][SUBSCRIPTION] == "last")
    assert line_client.proc.stdin is not None
    line_client.proc.stdin.close()
    ended = await line_client.response("last")
    assert ended["result"]["resultType"] == "complete" and ended["result"]["_meta"][SUBSCRIPTION] == "last"
    assert await line_client.close() == 0


async def test_a_2025_11_25_task_asks_through_an_elicitation_tied_to_it(line_client):
    await line_client.initialize("2025-11-25", {"elicitation": {"form": {}}})
    line_client.answer = lambda request: CHOSEN
    created = (await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": ASK, "description": "train, then ask"}, "task": {"ttl": 120_000}}))["result"]["task"]
    task_id = created["taskId"]
    result = (await line_client.request("tasks/result", {"taskId": task_id}))["result"]
    assert "training\nkept ['epoch 5']" in result["content"][0]["text"]
    assert result["_meta"][RELATED] == {"taskId": task_id}
    [asked] = line_client.server_requests
    assert asked["method"] == "elicitation/create" and asked["params"]["_meta"][RELATED] == {"taskId": task_id}
    assert asked["params"]["message"] == "Which checkpoint?"
    # the task was input_required while the question was out, told before it went
    order = [(m.get("method"), m.get("params", {}).get("status")) for m in line_client.seen if "method" in m]
    told = [status for method, status in order if method == "notifications/tasks/status"]
    assert told == ["input_required", "working", "completed"], order
    assert order.index(("notifications/tasks/status", "input_required")) < order.index(("elicitation/create", None))


@pytest.mark.parametrize("line_client", [("--approve", "ask")], indirect=True)
async def test_a_2025_11_25_task_asks_its_permission_card_first(line_client):
    await line_client.initialize("2025-11-25", {"elicitation": {"form": {}}})
    line_client.answer = lambda request: {"action": "accept", "content": {"choice": "deny"}}
    created = (await line_client.request("tools/call", {"name": "eval", "arguments": {
        "code": "print('ran')", "description": "a cell the person refuses"}, "task": {}}))["result"]["task"]
    result = (await line_client.request("tasks/result", {"taskId": created["taskId"]}))["result"]
    assert result["isError"] is True and "The person denied eval" in result["content"][0]["text"]
    [card] = line_client.server_requests
    assert card["params"]["_meta"][RELATED] == {"taskId": created["taskId"]} and "Allow `eval`" in card["params"]["message"]
    told = [n["params"]["status"] for n in line_client.notifications if n["method"] == "notifications/tasks/status"]
    assert told == ["input_required", "working", "failed"]  # a tool error fails a 2025-11-25 task
