"""Whatever an adapter sends, the session and the `debug` tool either use it or say "the adapter
sent ...": never an internal error (h11's invariant, for DAP). Bodies are drawn near the shapes
minitools reads (dap/_bodies.py): each field the right type, another type, or any JSON."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dap_helpers import Link
from minitools import Run
from minitools.dap import AdapterGone, DAPError, DAPSession, DebugSupervisor, MalformedBody, StepTimeout
from minitools.dap._bodies import EVENT_BODIES, REQUEST_ARGUMENTS, RESPONSE_BODIES
from minitools.schema import SchemaError, validate

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
SCALARS = {"string": st.text(max_size=30), "integer": st.integers(-3, 2**40) | st.integers(-(2**70), 2**70), "boolean": st.booleans(),
           "null": st.none(), "number": st.floats(allow_nan=False)}


def like(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values near `schema`: mostly of its shape, with any field any JSON now and then."""
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    shaped: list[st.SearchStrategy[Any]] = [SCALARS[k] for k in kinds if k in SCALARS]
    if "object" in kinds or "properties" in schema:
        props = {name: like(sub) for name, sub in schema.get("properties", {}).items()}
        shaped.append(st.fixed_dictionaries({}, optional=props))
    if "array" in kinds:
        shaped.append(st.lists(like(schema.get("items", {})), max_size=4))
    if not shaped:
        return JSON
    return st.one_of(*shaped, *shaped, *shaped, JSON)  # three in four of its shape


def _fits(schema: dict[str, Any], value: Any) -> bool:
    try:
        validate(schema, value)
    except SchemaError:
        return False
    return True


NAMES = st.one_of(st.sampled_from([*EVENT_BODIES, "initialized", "custom"]), JSON)
# runInTerminal is drawn only with arguments that do not fit (a fitting one would run a drawn command)
COMMANDS = st.one_of(st.sampled_from(["startDebugging", "other"]), JSON).filter(lambda c: c != "runInTerminal")
EVENTS = st.one_of(
    *[st.fixed_dictionaries({"type": st.just("event"), "event": st.just(name)}, optional={"body": like(body), "seq": JSON})
      for name, body in EVENT_BODIES.items()],
    st.fixed_dictionaries({"type": st.just("event"), "event": NAMES}, optional={"body": JSON}),
    st.fixed_dictionaries({"type": st.just("request"), "command": COMMANDS}, optional={"seq": JSON, "arguments": JSON}),
    st.fixed_dictionaries({"type": st.just("request"), "command": st.just("runInTerminal"), "seq": st.integers(0, 9)},
                          optional={"arguments": like(REQUEST_ARGUMENTS["runInTerminal"]).filter(
                              lambda a: not _fits(REQUEST_ARGUMENTS["runInTerminal"], a))}),
    st.fixed_dictionaries({"type": st.sampled_from(["response", "event", "request"])}, optional={
        "request_seq": JSON, "success": JSON, "command": JSON, "message": JSON, "body": JSON}),
    JSON,
)
RESPONSES = st.fixed_dictionaries({c: like(b) for c, b in RESPONSE_BODIES.items()})
FAILS = st.dictionaries(st.sampled_from(sorted(RESPONSE_BODIES)), st.fixed_dictionaries({}, optional={
    "success": JSON, "command": JSON, "message": JSON, "body": JSON,
    "request_seq": JSON}), max_size=2)


def fuzzed_adapter(responses: dict[str, Any], fails: dict[str, Any], stops: list[Any]) -> Callable[[dict[str, Any]], Iterator[Any]]:
    def answer(request: dict[str, Any]) -> Iterator[Any]:
        command = request.get("command", "")
        if command in fails:  # a response whose envelope is drawn too (success, message, body)
            yield {"type": "response", "request_seq": request["seq"], **fails[command]}
        else:
            yield {"type": "response", "request_seq": request["seq"], "command": command, "success": True,
                   "body": responses.get(command, {})}
        if command in ("continue", "next", "stepIn", "stepOut", "pause"):
            yield from stops
    return answer


CALLS = [{"op": "status"}, {"op": "threads"}, {"op": "stack"}, {"op": "scopes", "frame_id": 1},
         {"op": "variables", "reference": 1}, {"op": "evaluate", "expression": "x"},
         {"op": "breakpoints", "file": "prog.py", "lines": [1, {"line": 2, "condition": "x"}]},
         {"op": "step_over"}, {"op": "continue"}, {"op": "output"}]
EXPECTED = (MalformedBody, DAPError, StepTimeout, AdapterGone)


@pytest.mark.timeout(300)
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(events=st.lists(EVENTS, max_size=6), responses=RESPONSES, fails=FAILS, initialized=st.booleans())
def test_the_session_takes_any_message_and_any_body(events: list[Any], responses: dict[str, Any], fails: dict[str, Any],
                                                    initialized: bool) -> None:
    async def scenario() -> None:
        link = Link(fuzzed_adapter(responses, fails, events))
        session = DAPSession.over("fuzz", link.bind)
        for event in ([{"type": "event", "event": "initialized"}] if initialized else []) + events:
            session._on_message(event)
        try:  # the handshake reads the capabilities, the breakpoints and the first stop
            await session.initialize("fuzz", 0.001)
            await session.start("launch", {}, {"/p.py": [{"line": 1}, {"line": 2, "condition": "x"}]}, 0.001)
        except EXPECTED:
            pass
        for command in ["initialize", *RESPONSE_BODIES]:
            try:
                body = await session.request(command, {}, 0.01)
            except EXPECTED:
                continue
            assert isinstance(body, dict)
        session.output.take()
        for task in list(session._tasks):  # reverse requests answered (or refused), never raising
            await task
        await session.close(graceful=False)

    asyncio.run(scenario())


@pytest.mark.timeout(300)
@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(events=st.lists(EVENTS, max_size=4), stops=st.lists(EVENTS, min_size=1, max_size=2), responses=RESPONSES,
       fails=FAILS)
def test_the_debug_tool_answers_any_adapter_with_a_result(tmp_path_factory: Any, events: list[Any], stops: list[Any],
                                                           responses: dict[str, Any], fails: dict[str, Any]) -> None:
    root: Path = tmp_path_factory.mktemp("fuzz")
    (root / "prog.py").write_text("x = 1\ny = 2\n")

    async def scenario() -> None:
        sup = DebugSupervisor()
        async with Run(root, approve=lambda s, a: True, strict=True, resources={"debug": sup}, debug_timeout=0.01) as run:
            tool = run.registry.get("debug")
            assert tool is not None
            tool.handler.__self__.steps.frame_retry = 0  # type: ignore[attr-defined]
            link = Link(fuzzed_adapter(responses, fails, stops))
            slot = sup.slot(run.conversation_id)
            slot.session, slot.program = DAPSession.over("fuzz", link.bind), "prog.py"
            for event in events:
                slot.session._on_message(event)
            for call in CALLS:
                result = await run.call("debug", call)  # strict: anything but a result raises here
                assert result.ok or result.text

    asyncio.run(scenario())
