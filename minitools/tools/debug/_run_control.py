"""Run control (docs/tools.md, "debug"): `continue`, `pause`, `step_over`, `step_in` and `step_out`,
each a DAP request on one thread and a wait, bounded, for the program's next stop."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minitools.dap import RunState
from minitools.progress import progress_from
from minitools.tools.debug._steps import DebugSteps
from minitools.toolspec import ToolError, ToolResult

__all__ = ["RUN_COMMANDS", "RunControl"]

RUN_COMMANDS = {"continue": "continue", "pause": "pause", "step_over": "next", "step_in": "stepIn", "step_out": "stepOut"}


class RunControl:
    """The ops that run the program on (`RUN_COMMANDS`: op -> its DAP request)."""

    def __init__(self, steps: DebugSteps) -> None:
        self.steps = steps

    async def run(self, args: Mapping[str, Any], command: str) -> ToolResult:
        steps = self.steps
        s = steps.session()
        adapter = steps.slot.adapter
        if adapter is not None and args["op"] in adapter.refused_ops:
            raise ToolError(f"{args['op']} is refused with the {adapter.id} adapter, and nothing was done: "
                            f"{adapter.refused_ops[args['op']]}.")
        if s.stop.state is RunState.EXITED:
            raise ToolError(f"the program has already ended; {args['op']} has nothing to do. Call output or terminate.")
        if command == "continue" and s.stop.state is RunState.RUNNING:
            # the program runs already (delve lets a process it attached to run on): continuing
            # is waiting for its next stop; the adapter would refuse the request
            with progress_from(steps.waiting(command)):
                await s.run_on(steps.timeout)
            return ToolResult(True, await steps.where(s), {"state": s.stop.state, "reason": s.stop.reason})
        thread = await steps.thread(s, args)
        with progress_from(steps.waiting(command)):
            await s.step(command, {"threadId": thread}, steps.timeout)
        text = await steps.where(s)
        return ToolResult(True, text, {"state": s.stop.state, "reason": s.stop.reason})
