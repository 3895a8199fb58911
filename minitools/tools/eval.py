"""The eval family: `eval`, persistent Python and JavaScript cells (docs/tools.md, "eval").

Tier exec, not parallel-safe (a kernel is state across calls). The kernel pool is the
"kernels" resource; Run.close() kills every kernel it started. `tool(name, args)` inside a
cell re-enters the Run through `ctx.call`, so surface, validation and approval apply.
Options: `kernel_budget` (inactivity seconds, default 300), `kernel_interrupt_grace`
(seconds between SIGINT and kill, default 5), `kernel_max_output` (characters, default 20000).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.kernel import (
    LANGUAGES,
    CellOutcome,
    KernelBusy,
    KernelPool,
    KernelStartError,
    ToolReply,
    exit_description,
    text_of,
)
from minitools.progress import ProgressState, progress_from
from minitools.schema import parameters_schema, result_schema
from minitools.tools._context import RunContext
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build"]

_DESCRIPTION = (
    "Run a Python (default) or JavaScript cell in a persistent interpreter: variables, imports and "
    "loaded data survive between calls. The last expression is returned like a notebook (end it with ; "
    "to suppress). display(obj) shows rich output; pandas frames come back as tables and every open "
    "matplotlib figure as an image. IPython idioms work in Python: %pip install, %cd, !cmd, x = !cmd, "
    "%%bash, %%timeit, %time, %env. Inside a cell, tool(name, args) calls your other tools (same "
    "approval) and raises if the call fails; in JavaScript it returns a promise. input() is not available."
)

_SCHEMA = parameters_schema({
    "code": {"type": "string", "description": "The cell to run."},
    "description": {"type": "string", "description": "What the cell does, in a few words: it labels the cell in "
                    "the transcript (a long one is shortened there)."},
    "language": {"type": "string", "enum": list(LANGUAGES), "default": "python",
                 "description": "python (default) or javascript."},
    "reset": {"type": "boolean", "default": False,
              "description": "Discard the interpreter first and start clean (all variables are lost)."},
}, required=["code", "description"])

# `data` of a cell (structured output, for clients that ask for it)
_OUTPUT = result_schema(
    {"language": "string", "status": "string", "state_lost": "boolean", "error": "object?", "output_chars": "integer",
     "output_file": "string?", "images": "integer", "bridge_calls": "integer", "exit_code": "integer?",
     "notes": "string[]", "label": "string"},
    required=["language", "status"],
)

SPEC = ToolSpec(name="eval", tier=Tier.EXEC, description=_DESCRIPTION, parameters=_SCHEMA, parallel_safe=False,
                output_schema=_OUTPUT)


def build(ctx: RunContext) -> list[Tool]:
    """The eval tool, when the "kernels" resource is wired (it is by default)."""
    state: dict[str, Any] = {}

    def factory() -> KernelPool:
        spill = Path(tempfile.mkdtemp(prefix="minitools-eval-"))
        state["spill"] = spill
        return KernelPool(ctx.root, enclosure=ctx.enclosure, spill_dir=spill, trace=ctx.trace,
                          memory_limit=int(ctx.option("kernel_memory_mb", _half_the_memory())) << 20)

    pool = ctx.resource("kernels", factory)
    if pool is None:
        return []

    async def close() -> None:
        await pool.close()
        if "spill" in state:
            shutil.rmtree(state["spill"], ignore_errors=True)

    ctx.on_close(close)
    return [Tool(SPEC, EvalFamily(ctx, pool).eval)]


class EvalFamily:
    """The `eval` tool over the Run's kernel pool; `bridge` is `tool(name, args)` inside a cell."""

    def __init__(self, ctx: RunContext, pool: KernelPool) -> None:
        self.ctx = ctx
        self.pool = pool

    async def bridge(self, name: str, args: Mapping[str, Any]) -> ToolReply:
        if self.ctx.call is None:
            return ToolReply.refused("tool() is not wired in this run")
        if not isinstance(args, Mapping):
            return ToolReply.refused(f"tool({name!r}, ...) takes a dict of arguments, got {args!r}")
        # the eval call's surface: eval is exec tier, so it is only ever on the full surface
        result = await self.ctx.call(name, args, "full")
        return ToolReply(result.ok, result.text, result.data, result.images)

    async def eval(self, args: Mapping[str, Any]) -> ToolResult:
        code: str = args["code"]
        language: str = args.get("language", "python")
        label = _label(str(args["description"]))
        if not label:
            raise ToolError(f'description {args["description"]!r} is empty; say in a few words what the cell does '
                            "(it labels the cell in the transcript). Nothing was run.")
        notes: list[str] = []
        if args.get("reset"):
            if await self.pool.reset(language):
                notes.append(f"reset: the previous {language} kernel was discarded; this cell runs in a clean one")
            if not code.strip():
                return ToolResult(ok=True, text="\n".join(notes) or f"reset: no {language} kernel was running.",
                                  data={"language": language, "status": "reset"})
        if self.pool.is_busy(language):
            raise ToolError(f"the {language} kernel is busy running the cell that called eval; eval cannot run a cell "
                            "from inside a cell. Run the code directly in the current cell instead.")
        output = self.pool.new_output(language, int(self.ctx.option("kernel_max_output", 20000)))
        started = time.monotonic()

        def running() -> ProgressState:
            line = output.last_line()
            said = f"last output line: {line}" if line else "no output yet"
            return f"{language} cell running for {time.monotonic() - started:.0f} s; {said}", None, None

        try:
            with progress_from(running):
                outcome = await self.pool.run(
                    language, code, budget=float(self.ctx.option("kernel_budget", 300.0)),
                    grace=float(self.ctx.option("kernel_interrupt_grace", 5.0)), bridge=self.bridge, output=output,
                )
        except KernelStartError as exc:
            raise ToolError(f"{exc}. Nothing was run.") from None
        except KernelBusy:
            raise ToolError(f"the {language} kernel is busy; eval cannot run a cell from inside a cell.") from None
        outcome.notes[:0] = notes
        result = _result(language, outcome, self.ctx)
        assert isinstance(result.data, dict)
        result.data["label"] = label
        return result


def _out_of_memory(error: Mapping[str, Any]) -> bool:
    """Whether a cell's error is an allocation that failed at the kernel's memory bound: a
    MemoryError, or the SystemError CPython 3.11 raises when it cannot allocate a frame."""
    return error.get("ename") == "MemoryError" or (
        error.get("ename") == "SystemError" and "without exception set" in str(error.get("evalue", "")))


def _half_the_memory() -> int:
    """Half the machine's physical memory, in megabytes: the default kernel_memory_mb."""
    return max(256, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2 >> 20)


LABEL_CHARS = 80  # a description longer than this is shortened for the transcript label


def _label(description: str) -> str:
    """The transcript label of a cell: its description on one line, cut at a word near
    LABEL_CHARS with an ellipsis ("" when there is nothing but space)."""
    text = " ".join(description.split())
    if len(text) <= LABEL_CHARS:
        return text
    cut = text[:LABEL_CHARS - 1].rsplit(" ", 1)[0] or text[:LABEL_CHARS - 1]
    return cut + "…"


def _result(language: str, outcome: CellOutcome, ctx: RunContext) -> ToolResult:
    out = outcome.output
    parts: list[str] = []
    loud: list[str] = []
    quiet: list[str] = []
    for note in outcome.notes:
        (loud if note.startswith(("STATE LOST", "reset:")) else quiet).append(note)
    parts.extend(loud)
    text = out.text()
    if text:
        parts.append(text.rstrip("\n"))
    if outcome.value is not None:
        parts.append(f"Out: {text_of(outcome.value.get('data') or {})}")
    if outcome.error is not None:
        parts.append(str(outcome.error.get("traceback", "")).rstrip("\n"))
        if _out_of_memory(outcome.error):
            parts.append(f"OUT OF MEMORY: a kernel may allocate {ctx.option('kernel_memory_mb', _half_the_memory())} MB "
                         "(kernel_memory_mb) and the cell reached it. The kernel's state is kept; free what the cell "
                         "holds (del), work in chunks, or make deep recursion iterative.")
    budget = ctx.option("kernel_budget", 300.0)
    if outcome.status == "interrupted":
        parts.append(f"INTERRUPTED: the cell had no activity for {budget} s (kernel_budget) and was stopped with "
                     "SIGINT. The kernel's state is kept; make the cell faster or split it up.")
    elif outcome.status == "killed":
        parts.append(f"KERNEL KILLED — STATE LOST: the cell had no activity for {budget} s and did not stop after "
                     f"SIGINT, so the {language} kernel was killed. All variables, imports and data are gone; the next "
                     "cell starts a fresh kernel.")
    elif outcome.status == "died":
        words = outcome.last_words
        parts.append(f"KERNEL DIED — STATE LOST: the {language} kernel exited while running this cell "
                     f"({exit_description(outcome.exit_code)})."
                     + (f" Its last output:\n{words}" if words else "")
                     + "\nAll variables, imports and data are gone; the next cell starts a fresh kernel.")
    if out.is_capped:
        parts.append(f"(output capped at {out.limit} characters: head and tail shown; {out.saved_note()})")
    if not parts:
        parts.append("(no output)")
    data = {
        "language": language,
        "status": outcome.status.value,
        "state_lost": outcome.state_lost,
        "result": outcome.value.get("data") if outcome.value else None,
        "error": outcome.error,
        "output_chars": out.total,
        "output_file": str(out.spill_path) if out.is_capped else None,
        "images": len(out.images),
        "bridge_calls": outcome.bridge_calls,
        "exit_code": outcome.exit_code,
        "notes": quiet + loud,
    }
    return ToolResult(ok=outcome.status == "ok", text="\n".join(parts), data=data, images=list(out.images))
