"""The `debug` tool: drive a real debugger through minitools' DAP client (docs/tools.md, "debug").

The family is split by what each part holds: `_steps` (what every op shares: the slot, the live
session, the book, the catalog; where the program is, and `status`), `_lifecycle` (`adapters`,
`launch`, `attach`, `terminate`), `_breakpoint_op` (`breakpoints`), `_run_control` (continue, pause
and the steps), `_inspection` (threads, stack, scopes, variables, evaluate, output); below them
`_breakpoints` (a breakpoint as given), `_book` (every conversation's breakpoints) and
`_functions` (a function's first line). This module holds the spec, builds the tool and
dispatches the ops, translating the session's failures into ToolErrors once."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from typing import Any

from minitools.dap import ADAPTERS, AdapterGone, DAPError, DebugSupervisor, MalformedBody, StepTimeout
from minitools.schema import parameters_schema
from minitools.tools._context import RunContext
from minitools.tools.debug._breakpoint_op import BreakpointOp
from minitools.tools.debug._inspection import Inspection
from minitools.tools.debug._lifecycle import Lifecycle
from minitools.tools.debug._run_control import RUN_COMMANDS, RunControl
from minitools.tools.debug._steps import DebugSteps
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build"]

OPS = ["adapters", "status", "breakpoints", "launch", "attach", "continue", "pause", "step_over", "step_in",
       "step_out", "threads", "stack", "scopes", "variables", "evaluate", "output", "terminate"]

PARAMETERS = parameters_schema({
    "op": {"type": "string", "enum": OPS, "description":
           "adapters: which adapters are usable here and why not. status: session state and where it stopped. "
           "breakpoints(file, lines): set a file's breakpoints (empty lines clears; allowed before launch); a line "
           "may be {line, symbol} (symbol: text of that line, checked), {function} (where that function starts), "
           "with condition, hit_condition or log_message (a log point prints instead of stopping; its output "
           "comes with output). status lists the breakpoints where they are now. "
           "launch(program, args?, env?, cwd?, adapter?): start the program, run to the first stop. attach(port, adapter?): "
           "attach to a process listening for a debugger (debugpy.listen; node --inspect with adapter node); attach(pid, "
           "adapter?): attach to a running process (python: debugpy; node: node; native: lldb; Go: adapter delve). continue/pause/step_over/step_in/"
           "step_out(thread_id?): run and wait for the next stop. threads. stack(thread_id?): frames, max 30. "
           "scopes(frame_id). variables(reference, start?): children, 50 per page. evaluate(expression, "
           "frame_id?). output: program output since the last call. terminate: end the session."},
    "file": {"type": "string", "description": "breakpoints: source file, relative to the workspace root."},
    "lines": {"type": "array", "items": {"anyOf": [
        {"type": "integer", "minimum": 1},
        {"type": "object", "additionalProperties": False, "properties": {
            "line": {"type": "integer", "minimum": 1},
            "symbol": {"type": "string", "minLength": 1,
                       "description": "text of that line (an identifier on it): refused, with nothing set, when "
                                      "the line does not hold it; the breakpoint then follows that code as the "
                                      "file is edited"},
            "function": {"type": "string", "minLength": 1,
                         "description": "instead of line: stop where this function of the file starts (a method "
                                      "as Class.method); by name where the adapter takes function breakpoints, "
                                      "else on the first line of its body, found by the parser"},
            "condition": {"type": "string", "minLength": 1,
                          "description": "stop only when this expression (the program's language) is true"},
            "hit_condition": {"type": "string", "minLength": 1,
                              "description": "stop only on these hits, as the adapter reads it (e.g. 3 or >=3)"},
            "log_message": {"type": "string", "minLength": 1,
                            "description": "print this instead of stopping; {expr} is replaced by its value"},
        }},
    ]}, "description": "breakpoints: 1-based line numbers, {line, symbol} (the symbol checked on its line), or "
                       "{function}; each may add a condition, hit count or log message. An empty list clears the "
                       "file. Each breakpoint remembers its line's text and moves with it when the run writes "
                       "the file (resolve, lsp_rename, written)."},
    "program": {"type": "string", "description": "launch: the program (a .py, .js, .mjs, .cjs or .go "
                "file, a Go package directory, or a native executable built with -g), relative to the root; for "
                "TypeScript launch the .js tsc built (with sourceMap) and set breakpoints in the .ts file."},
    "args": {"type": "array", "items": {"type": "string"}, "description": "launch: command-line arguments."},
    "env": {"type": "object", "additionalProperties": {"type": "string"},
            "description": "launch: environment variables added to the program's environment."},
    "cwd": {"type": "string", "description": "launch: the program's working directory, relative to the root "
                                             "(default: the root)."},
    "adapter": {"type": "string", "minLength": 1,
                "description": "launch/attach: force an adapter (" + ", ".join(a.id for a in ADAPTERS)
                               + ", or one the configuration adds) instead of choosing from the program."},
    "port": {"type": "integer", "minimum": 1, "maximum": 65535, "description": "attach: the port the process listens on."},
    "pid": {"type": "integer", "minimum": 1, "description": "attach: the id of a running process to attach to."},
    "exception_filters": {"type": "array", "items": {"type": "string", "minLength": 1},
                          "description": "launch/attach: the adapter's exception filters to stop on (debugpy: "
                          "raised, uncaught, userUnhandled; node: all, uncaught); default: uncaught only, so exceptions the program "
                          "handles do not stop it."},
    "thread_id": {"type": "integer", "description": "continue/pause/step_*/stack: thread (default: the stopped one)."},
    "frame_id": {"type": "integer", "description": "scopes/evaluate: a frame id from stack (evaluate default: top frame)."},
    "reference": {"type": "integer", "description": "variables: a variablesReference from scopes, variables or evaluate."},
    "start": {"type": "integer", "minimum": 0, "default": 0, "description": "variables: index of the first child (paging)."},
    "expression": {"type": "string", "description": "evaluate: the expression, in the program's language."},
}, required=["op"])

SPEC = ToolSpec("debug", Tier.EXEC, f"Drive a real debugger ({', '.join(a.id for a in ADAPTERS)}) on a program in the "
                "workspace: set breakpoints, launch or attach, step, inspect the stack, variables and output. One session "
                "per conversation, ended after a hard TTL.", PARAMETERS, parallel_safe=False)

Op = Callable[[Mapping[str, Any]], Awaitable[ToolResult]]


class DebugFamily:
    """The `debug` tool over one supervisor; `debug` dispatches its ops through `ops`."""

    def __init__(self, ctx: RunContext, sup: DebugSupervisor) -> None:
        self.ctx = ctx
        self.steps = steps = DebugSteps(ctx, sup)
        life, points, running, inspection = Lifecycle(steps), BreakpointOp(steps), RunControl(steps), Inspection(steps)
        self.ops: dict[str, Op] = {
            "adapters": life.op_adapters, "status": steps.status, "breakpoints": points.op_breakpoints,
            "launch": life.op_launch, "attach": life.op_attach, "threads": inspection.op_threads, "stack": inspection.op_stack,
            "scopes": inspection.op_scopes, "variables": inspection.op_variables, "evaluate": inspection.op_evaluate,
            "output": inspection.op_output, "terminate": life.op_terminate,
            **{op: partial(running.run, command=command) for op, command in RUN_COMMANDS.items()},
        }
        assert set(self.ops) == set(OPS), "every op in the spec has a handler"

    async def debug(self, args: Mapping[str, Any]) -> ToolResult:
        op = args["op"]
        try:
            return await self.ops[op](args)
        except StepTimeout as exc:
            raise ToolError(f"{op}: timed out after {exc.timeout:g} s waiting for {exc.step}. The session is "
                            "still there: call status, pause, or terminate.", data={"timeout": exc.step}) from None
        except DAPError as exc:
            raise ToolError(f"{op}: the adapter refused {exc.command}: {exc.message}", data={"error": exc.message}) from None
        except AdapterGone as exc:
            raise ToolError(f"{op}: {exc}. Call terminate to clean up, then launch again.", data={"error": str(exc)}) from None
        except MalformedBody as exc:
            raise ToolError(f"{op}: {exc}. The session is still there: call status, or terminate to end it.",
                            data={"error": str(exc)}) from None

    async def after_write(self, paths: Sequence[str]) -> list[str]:
        """The run wrote `paths`: every conversation's breakpoints in them follow their code."""
        return self.steps.books.follow({os.path.realpath(p) for p in paths}, self.ctx.conversation_id)


def build(ctx: RunContext) -> list[Tool]:
    """The `debug` tool, when a debug supervisor is wired (started lazily; nothing spawns here)."""
    sup = ctx.resource("debug", lambda: DebugSupervisor(ttl=float(ctx.option("debug_ttl", 1800.0)), tracer=ctx.trace))
    if sup is None:
        return []
    ctx.on_close(sup.close)
    family = DebugFamily(ctx, sup)
    ctx.write_watchers.append(family.after_write)
    return [Tool(SPEC, family.debug)]
