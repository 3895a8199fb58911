"""What minitools reads of each message an adapter sends, as JSON Schema (the subset
`minitools.schema` validates), checked where the message arrives: a body that does not fit is
the adapter's fault, said as "the adapter sent ...", never an internal error further in.

Only the fields minitools reads are declared, with the types the DAP specification gives them;
an optional field may also be null (adapters send null for "absent"), and anything else an
adapter adds is let through unread. A process id must be one this machine could have: the
session kills the debuggee by it.
"""

from __future__ import annotations

from typing import Any

from minitools.schema import SchemaError, validate

__all__ = ["MalformedBody", "check_body", "check_message", "named", "EVENT_BODIES", "RESPONSE_BODIES", "REQUEST_ARGUMENTS"]

JSON = dict[str, Any]


def _opt(kind: str, **more: Any) -> JSON:
    """An optional field of type `kind` (null allowed)."""
    return {"type": [kind, "null"], **more}


def _object(required: tuple[str, ...] = (), **props: JSON) -> JSON:
    return {"type": "object", "required": list(required), "properties": props}


def _list_of(item: JSON) -> JSON:
    return {"type": ["array", "null"], "items": item}


_INT = {"type": "integer"}
_STR = {"type": "string"}
_PID = _opt("integer", minimum=2)  # 0, -1 and 1 would make a kill reach a group, everything, or init
_SOURCE = {"type": ["object", "null"], "properties": {"path": _opt("string"), "name": _opt("string")}}
_BREAKPOINT = _object(id=_opt("integer"), verified=_opt("boolean"), message=_opt("string"), line=_opt("integer"))

EVENT_BODIES: dict[str, JSON] = {
    "output": _object(("output",), output=_STR, category=_opt("string")),
    "stopped": _object(reason=_opt("string"), threadId=_opt("integer"), description=_opt("string"), text=_opt("string")),
    "continued": _object(threadId=_opt("integer")),
    "exited": _object(exitCode=_opt("integer")),
    "terminated": {"type": ["object", "null"]},
    "process": _object(systemProcessId=_PID),
    "breakpoint": _object(("breakpoint",), breakpoint=_BREAKPOINT),
}

RESPONSE_BODIES: dict[str, JSON] = {
    "initialize": _object(exceptionBreakpointFilters=_list_of(_object(("filter",), filter=_STR))),
    "setBreakpoints": _object(breakpoints=_list_of(_BREAKPOINT)),
    "setFunctionBreakpoints": _object(breakpoints=_list_of(_BREAKPOINT)),
    "threads": _object(threads=_list_of(_object(("id",), id=_INT, name=_opt("string")))),
    "stackTrace": _object(stackFrames=_list_of(_object(("id",), id=_INT, name=_opt("string"), line=_opt("integer"),
                                                       source=_SOURCE)),
                          totalFrames=_opt("integer")),
    "scopes": _object(scopes=_list_of(_object(("name", "variablesReference"), name=_STR, variablesReference=_INT))),
    "variables": _object(variables=_list_of(_object(("name",), name=_STR, value=_opt("string"), type=_opt("string"),
                                                    variablesReference=_opt("integer")))),
    "evaluate": _object(result=_opt("string"), type=_opt("string"), variablesReference=_opt("integer")),
    "exceptionInfo": _object(exceptionId=_opt("string"), description=_opt("string"), breakMode=_opt("string")),
}
# the body of a failed response (any command)
ERROR_BODY = _object(error=_opt("object", properties={"format": _opt("string")}))

REQUEST_ARGUMENTS: dict[str, JSON] = {
    "runInTerminal": _object(("args",), args={"type": "array", "minItems": 1, "items": _STR}, cwd=_opt("string"),
                             env={"type": ["object", "null"], "additionalProperties": _opt("string")}),
}

# the envelope of each kind of message: what the session reads to route it
ENVELOPES: dict[str, JSON] = {
    "event": _object(("event",), event=_STR, body={}),
    "response": _object(("request_seq",), request_seq=_INT, success=_opt("boolean"), command=_opt("string"),
                        message=_opt("string"), body={}),
    "request": _object(("command",), command=_STR, seq=_opt("integer"), arguments={}),
}


class MalformedBody(Exception):
    """The adapter sent a message that DAP does not allow (a field of the wrong type, a body that
    is not an object): its fault, not minitools'. `what` names the message."""

    def __init__(self, peer: str, what: str, problem: str) -> None:
        super().__init__(f"the adapter {peer} sent {what} that DAP does not allow: {problem}")
        self.what = what
        self.problem = problem


def named(name: str, kind: str) -> str:
    """"a stackTrace response", "an output event": how a message is named in an error."""
    return f"{'an' if name[:1].lower() in ('a', 'e', 'i', 'o', 'u') else 'a'} {name} {kind}"


def check_message(peer: str, message: Any) -> str:
    """The kind of `message` ("event", "response" or "request"), its envelope checked."""
    if not isinstance(message, dict):
        raise MalformedBody(peer, "a message", f"expected an object, got {type(message).__name__}")
    kind = message.get("type")
    if kind not in ENVELOPES:
        raise MalformedBody(peer, "a message", f"type is {str(kind)[:40]!r}, not event, response or request")
    _check(peer, f"a {kind}", ENVELOPES[kind], message, "")  # kind is event, response or request
    return str(kind)


def check_body(peer: str, what: str, schema: JSON | None, body: Any) -> dict[str, Any]:
    """`body` (None for an absent one: {}) when it fits `schema`, else MalformedBody naming the
    field; `what` names the message ("a stackTrace response")."""
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise MalformedBody(peer, what, f"its body is {type(body).__name__}, not an object")
    if schema is not None:
        _check(peer, what, schema, body, "body")
    return body


def _check(peer: str, what: str, schema: JSON, value: Any, path: str) -> None:
    try:
        validate(schema, value, path)
    except SchemaError as exc:
        raise MalformedBody(peer, what, str(exc)) from None
    except RecursionError:
        raise MalformedBody(peer, what, "it is nested too deeply") from None
