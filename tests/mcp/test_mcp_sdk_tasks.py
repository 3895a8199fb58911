"""`minitools mcp`'s tasks under 2026-07-28 through the official Python SDK's client. The SDK has
no tasks extension of its own but an interface for one (`ClientExtension`): the extension below
claims the `resultType: "task"` answer of tools/call and follows the task as the extension's
text says (tasks/get at its poll interval, the task's questions answered through the client's
own elicitation callback and sent back with tasks/update, the stream of `subscriptions/listen`
bound to `notifications/tasks`), so `client.call_tool` returns the finished call's result."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp.client.context import ClientRequestContext
from mcp.client.extension import ClaimContext, ClientExtension, NotificationBinding, ResultClaim
from pydantic import BaseModel, ConfigDict, TypeAdapter

from test_mcp_sdk import connect, text

TASKS = "io.modelcontextprotocol/tasks"
ASK = ("import time\nprint('training', flush=True)\ntime.sleep(2.5)\n"
       "answer = tool('ask_user', question='Which checkpoint?', options=[{'label': 'epoch 3'}, {'label': 'epoch 5'}])\n"
       "print('kept', answer.data['choices'])")
_ANY = TypeAdapter(dict[str, Any])


class TaskHandle(types.Result):
    """The extension's CreateTaskResult, as far as the client needs it."""

    result_type: Literal["task"]
    task_id: str
    status: str
    poll_interval_ms: int | None = None


class TaskState(BaseModel):
    """A `notifications/tasks` notification's params: the task as tasks/get shows it."""

    model_config = ConfigDict(extra="allow")


class TasksRequest(types.Request[dict[str, Any], str]):
    """A request of the extension's (tasks/get, tasks/update, subscriptions/listen)."""


class Tasks(ClientExtension):
    identifier = TASKS

    def __init__(self) -> None:
        self.polled: list[str] = []  # the statuses tasks/get gave, in order
        self.streamed: list[dict[str, Any]] = []  # what the subscription sent

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=self.follow)]

    def notifications(self) -> list[NotificationBinding[Any]]:
        async def streamed(params: TaskState) -> None:
            self.streamed.append(params.model_dump())

        return [NotificationBinding(method="notifications/tasks", params_type=TaskState, handler=streamed)]

    async def follow(self, handle: TaskHandle, ctx: ClaimContext) -> types.CallToolResult:
        session = ctx.session
        answered: set[str] = set()
        async with anyio.create_task_group() as group:
            listen = TasksRequest(method="subscriptions/listen", params={"notifications": {"taskIds": [handle.task_id]}})
            group.start_soon(session.send_request, listen, _ANY)  # answered when the task is done
            while True:
                task = await session.send_request(TasksRequest(method="tasks/get", params={"taskId": handle.task_id}), _ANY)
                if not self.polled or self.polled[-1] != task["status"]:
                    self.polled.append(task["status"])
                if task["status"] == "completed":
                    return types.CallToolResult.model_validate(task["result"])
                assert task["status"] in ("working", "input_required"), task
                for key, request in (task.get("inputRequests") or {}).items():
                    if key in answered:
                        continue  # seen on an earlier poll
                    answered.add(key)
                    asking = ClientRequestContext(session=session, request_id=key, meta=None)
                    answer = await session.dispatch_input_request(asking, types.ElicitRequest.model_validate(request))
                    await session.send_request(TasksRequest(method="tasks/update", params={
                        "taskId": handle.task_id, "inputResponses": {key: answer.model_dump(by_alias=True, exclude_none=True)}}),
                        _ANY)
                await anyio.sleep((task.get("pollIntervalMs") or 1000) / 1000)


async def test_the_sdk_follows_a_task_that_asks_the_person(project: Path) -> None:
    tasks, asked = Tasks(), []
    async with connect(project, answers=[{"choice": "epoch 5"}], asked=asked, mode="auto", structured=False,
                       extensions=[tasks]) as client:
        assert client.protocol_version == "2026-07-28"
        result = await client.call_tool("eval", {"code": ASK, "description": "train, then ask"})
    assert result.is_error is False and "training\nkept ['epoch 5']" in text(result)
    assert [question.message for question in asked] == ["Which checkpoint?"]
    # polling sees what is there at each poll; the stream sees every change
    assert tasks.polled[0] == "working" and "input_required" in tasks.polled and tasks.polled[-1] == "completed"
    streamed = [state["status"] for state in tasks.streamed]
    assert streamed[-3:] == ["input_required", "working", "completed"], streamed
    assert tasks.streamed[-1]["result"]["content"][0]["text"] == text(result)


async def test_the_sdk_answers_a_permission_card_before_and_inside_a_task(project: Path) -> None:
    tasks, asked = Tasks(), []
    code = "import time\ntime.sleep(2.5)\nprint(tool('ast_edit', pattern='print($$$A)', rewrite='log($$$A)', path='hello.py'))"
    async with connect(project, "--approve", "ask", answers=[{"choice": "allow once"}, {"choice": "allow once"}],
                       asked=asked, mode="auto", structured=False, extensions=[tasks]) as client:
        result = await client.call_tool("eval", {"code": code, "description": "edit from a cell"})
    assert result.is_error is False and "log('hi', name)" in text(result), text(result)
    # eval's card came in the call's input_required result, ast_edit's while the call was a task
    assert ["Allow `eval`" in asked[0].message, "Allow `ast_edit`" in asked[1].message] == [True, True]
    assert "input_required" in tasks.polled
