"""The tasks methods routed by the connection's generation (docs/architecture.md, "minitools mcp"):
``tasks/get`` and ``tasks/cancel`` in either form, ``tasks/result`` and ``tasks/list`` of
2025-11-25, ``tasks/update`` of the 2026-07-28 extension, and ``subscriptions/listen``, whose
streams carry the extension's task status (_tasks.py, _listen.py). A request of a form the
connection has not is refused with what it has."""

from __future__ import annotations

from typing import Any

from minitools.mcp._lifecycle import TASKS_IN, Lifecycle
from minitools.mcp._listen import Subscriptions
from minitools.mcp._modern import MISSING_CAPABILITY, MODERN_VERSIONS, VERSION_KEY, request_meta
from minitools.mcp._tasks import EXTENSION, LEGACY, TASKS_EXTENSION, TaskBook
from minitools.protocol import METHOD_NOT_FOUND
from minitools.transport import JSONRPCEndpoint, RPCError, params_object

__all__ = ["TaskMethods"]


class TaskMethods:
    """The tasks/* and subscriptions/listen handlers over one connection's `TaskBook`."""

    def __init__(self, endpoint: JSONRPCEndpoint, lifecycle: Lifecycle, tasks: TaskBook, subscriptions: Subscriptions) -> None:
        self.endpoint = endpoint
        self.lifecycle = lifecycle
        self.tasks = tasks
        self.subscriptions = subscriptions

    def tasks_get(self, params: Any) -> dict[str, Any]:
        return self.lifecycle.answer(self.tasks.get(params, self._form("tasks/get", params)))

    async def tasks_result(self, params: Any) -> dict[str, Any]:
        return await self.tasks.result(self._legacy("tasks/result", params))

    def tasks_list(self, params: Any) -> dict[str, Any]:
        return self.tasks.list(self._legacy("tasks/list", params))

    async def tasks_cancel(self, params: Any) -> dict[str, Any]:
        form = self._form("tasks/cancel", params)
        return self.lifecycle.answer(await self.tasks.cancel(params, form))

    def tasks_update(self, params: Any) -> dict[str, Any]:
        return self.lifecycle.answer(self.tasks.update(self._modern("tasks/update", params)))

    async def listen(self, params: Any) -> dict[str, Any]:
        life = self.lifecycle
        params = params_object(params)
        life.ready("subscriptions/listen", params)
        if not life.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"subscriptions/listen belongs to revision {MODERN_VERSIONS[0]}; this "
                           f"session was initialized at {life.version}, where notifications come unasked")
        stream_id = self.endpoint.incoming_id()
        return life.answer(await self.subscriptions.listen(stream_id, params, declares_tasks=life.declares_tasks()))

    def _form(self, method: str, params: Any) -> str:
        """The form of the tasks a tasks/* request is about: this connection's (refused when
        it has none)."""
        params = params_object(params)
        if VERSION_KEY in request_meta(params) or self.lifecycle.per_request:
            self._modern(method, params)
            return EXTENSION
        self._legacy(method, params)
        return LEGACY

    def _legacy(self, method: str, params: Any) -> dict[str, Any]:
        life = self.lifecycle
        params = params_object(params)
        if VERSION_KEY in request_meta(params) or life.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"{method} is not a method of the tasks extension of 2026-07-28 "
                           "(tasks/get carries the result there)")
        if not life.offers_tasks():
            raise RPCError(METHOD_NOT_FOUND, f"{method}: tasks are offered on a session initialized at {TASKS_IN} "
                           f"(this one is {'not initialized' if not life.negotiated else life.version})")
        return params

    def _modern(self, method: str, params: Any) -> dict[str, Any]:
        life = self.lifecycle
        params = params_object(params)
        life.ready(method, params)
        if not life.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"{method} belongs to the tasks extension of 2026-07-28; this session "
                           f"was initialized at {life.version}")
        if not life.declares_tasks():
            raise RPCError(MISSING_CAPABILITY, f"{method} needs the tasks extension declared in the request's "
                           f"capabilities (\"extensions\": {{\"{TASKS_EXTENSION}\": {{}}}})",
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        return params
