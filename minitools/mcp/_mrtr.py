"""Questions to the person under 2026-07-28, which has no server-to-client requests: multi
round-trip requests (docs/architecture.md, "minitools mcp"). A call that asks (ask_user, the
permission card of ``--approve ask``) is answered with ``resultType: "input_required"``, the
question as an ``elicitation/create`` in ``inputRequests`` and a ``requestState``; the client
shows it and sends the same ``tools/call`` again with the answer in ``inputResponses`` and the
``requestState``, and the call goes on from where it waited. The call itself waits here in the
meantime (this is one process serving one client): the ``requestState`` is the name of that
waiting call, unguessable, good once, and forgotten after `EXCHANGE_TTL` seconds unanswered
(the call is then stopped).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.protocol import INVALID_PARAMS, INVALID_REQUEST
from minitools.transport import RPCError

__all__ = ["Exchanges", "ask_in_exchange", "exchange_waiting", "EXCHANGE_TTL"]

EXCHANGE_TTL = 900.0  # seconds a call waits for the client to come back with its answers
MAX_OPEN = 32  # calls of one connection waiting for answers at once
_CURRENT: contextvars.ContextVar[_Exchange | None] = contextvars.ContextVar("minitools_mcp_exchange", default=None)


class _Exchange:
    """One call and the questions it waits on, by key."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.job: asyncio.Task[dict[str, Any]] | None = None
        self.pending: dict[str, tuple[dict[str, Any], asyncio.Future[Any]]] = {}
        self.asked = asyncio.Event()
        self.count = 0
        self.since = time.monotonic()
        self.answered = False  # the call's answer went out: nobody is left to carry a question

    def waiting(self) -> dict[str, dict[str, Any]]:
        """The questions not answered yet, by key."""
        return {key: request for key, (request, answer) in self.pending.items() if not answer.done()}

    def answer(self, responses: dict[str, Any]) -> None:
        """Give each question its answer (keys not asked, or answered already, are let go)."""
        for key, response in responses.items():
            entry = self.pending.get(key)
            if entry is not None and not entry[1].done():
                entry[1].set_result(response)


async def ask_in_exchange(method: str, params: dict[str, Any]) -> Any:
    """Ask the client through the call's exchange and wait for its answer."""
    exchange = _CURRENT.get()
    if exchange is None or exchange.answered:
        raise RuntimeError("this call cannot ask the client: under 2026-07-28 only a tools/call that has not been "
                           "answered yet can, or a task (its questions wait in tasks/get)")
    exchange.count += 1
    key = f"question-{exchange.count}"
    answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    exchange.pending[key] = ({"method": method, "params": params}, answer)
    exchange.asked.set()
    try:
        return await answer
    finally:
        exchange.pending.pop(key, None)


def exchange_waiting() -> bool:
    """Whether the call's exchange has a question the client has not answered yet."""
    exchange = _CURRENT.get()
    return exchange is not None and bool(exchange.waiting())


class Exchanges:
    """The calls of one connection waiting for the client's answers."""

    def __init__(self) -> None:
        self._open: dict[str, _Exchange] = {}

    async def run(self, name: str, params: dict[str, Any], work: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """`work`'s result, or ``input_required`` with what it asks; a retry (``requestState``)
        brings the answers to the call that asked."""
        self._forget_expired()
        state, responses = params.get("requestState"), params.get("inputResponses")
        if responses is not None and not isinstance(responses, dict):
            raise RPCError(INVALID_PARAMS, f"\"inputResponses\" must be an object of answers by key, got {responses!r}")
        if state is None:
            if responses:
                raise RPCError(INVALID_PARAMS, "\"inputResponses\" without the \"requestState\" they answer: send back the "
                               "requestState of the input_required result")
            if len(self._open) >= MAX_OPEN:
                raise RPCError(INVALID_REQUEST, f"{len(self._open)} calls are waiting for answers already, the most "
                               "one connection may have: answer them (retry with their requestState) first")
            exchange = _Exchange(name)
            token = _CURRENT.set(exchange)
            try:
                exchange.job = asyncio.ensure_future(work())
            finally:
                _CURRENT.reset(token)
        else:
            found = self._open.pop(state, None) if isinstance(state, str) else None
            if found is None:
                raise RPCError(INVALID_PARAMS, f"requestState {state!r} names no call waiting for answers (it was used "
                               f"already, or it waited longer than {EXCHANGE_TTL:g} s): call {name} again without it")
            if found.name != name:
                self._open[state] = found
                raise RPCError(INVALID_PARAMS, f"requestState {state!r} belongs to a call of {found.name}, not {name}")
            exchange = found
            exchange.answer(responses or {})
        return await self._step(exchange)

    async def _step(self, exchange: _Exchange) -> dict[str, Any]:
        assert exchange.job is not None
        while not exchange.job.done() and not exchange.waiting():
            exchange.asked.clear()
            asked = asyncio.ensure_future(exchange.asked.wait())
            try:
                await asyncio.wait({exchange.job, asked}, return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:  # the client cancelled the call while it ran
                exchange.job.cancel()
                raise
            finally:
                asked.cancel()
        if exchange.job.done():
            exchange.answered = True
            return exchange.job.result()
        state = uuid.uuid4().hex
        exchange.since = time.monotonic()
        self._open[state] = exchange
        return {"resultType": "input_required", "requestState": state, "inputRequests": exchange.waiting()}

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for state, exchange in list(self._open.items()):
            if now - exchange.since > EXCHANGE_TTL:
                del self._open[state]
                if exchange.job is not None:
                    exchange.job.cancel()

    async def close(self) -> None:
        """Stop every call still waiting for answers (the client went away)."""
        jobs = [e.job for e in self._open.values() if e.job is not None and not e.job.done()]
        self._open.clear()
        for job in jobs:
            job.cancel()
        for job in jobs:
            with contextlib.suppress(BaseException):
                await job
