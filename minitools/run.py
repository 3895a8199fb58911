"""Run: one conversation's resources, the tools they back, and the call path.

    async with Run(root) as run:
        run.tools("plan")                       # read-tier specs only
        result = await run.call("ast_grep", {"pattern": "print($A)"})

The call path, in order: surface check → argument validation → approval gate →
serialisation of non-parallel-safe tools → the handler (docs/architecture.md, "The contract").
Closing the Run stops every child process any of its resources started.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from minitools.ask import Questions, as_port
from minitools.config import Config, load_config
from minitools.progress import ProgressState, progress_from
from minitools.registry import ApprovalGate, Approver, Registry, Surface
from minitools.schema import SchemaError, apply_defaults, as_meant, export, validate
from minitools.tools import CALL_SURFACE, RunContext, build_tools, invoke, refusal
from minitools.toolspec import JSONObject, Tool, ToolResult, ToolSpec
from minitools.tracing import FileTracer, TraceTarget, make_tracer

if TYPE_CHECKING:
    from minitools.tools import Enclosure, RosterSource

__all__ = ["Run"]

log = logging.getLogger("minitools")

# Set while a non-parallel-safe call holds the Run's lock, so that a tool called back
# through the eval bridge from inside it does not wait for a lock its caller holds.
_holding_serial: contextvars.ContextVar[bool] = contextvars.ContextVar("minitools_serial", default=False)


def _quiet(task: asyncio.Task[None]) -> None:
    """A warm-up that failed is reported by the first call that needs the same thing."""
    if not task.cancelled() and task.exception() is not None:
        log.info("warming up failed: %s", task.exception())


def _strict_default() -> bool:
    return os.environ.get("MINITOOLS_STRICT", "") not in ("", "0", "false", "no")


class Run:
    """One conversation's resources and the tools registered for them."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        questions: Questions = None,
        vibe: RosterSource = None,
        approve: Approver | None = None,
        enclosure: Enclosure = None,
        trace: TraceTarget = None,
        strict: bool | None = None,
        conversation_id: str | None = None,
        resources: Mapping[str, Any] | None = None,
        tools: Iterable[Tool] = (),
        question_timeout: float | None = None,
        config: Config | str | os.PathLike[str] | bool | None = None,
        **options: Any,
    ) -> None:
        """`root` is the working directory every path is taken from. `questions` is a question
        port or a callable from card to answer; `vibe` a roster; `approve` the approval
        callable; `enclosure` a command prefix the kernel runs under; `trace` a path or a
        callable receiving every protocol message. `resources` injects a resource by name or
        disables it with False (``{"lsp": False}``); `tools` adds the host's own tools, which
        the eval bridge can then reach. Further keyword options tune the families
        (timeouts, caps). `config` reads a configuration file (docs/reference.md,
        "Configuration"): True finds minitools.toml or pyproject.toml's [tool.minitools] at the
        root, a path names the file, a Config is one already read; keyword options win over it.
        A bad file raises ConfigError (a ValueError) naming the key."""
        path = Path(root).expanduser()
        if not path.exists():
            raise ValueError(f"Run root {str(root)!r} does not exist; pass an existing directory")
        if not path.is_dir():
            raise ValueError(f"Run root {str(root)!r} is not a directory; pass the project's directory")
        self.root = Path(os.path.realpath(path))
        self.config = _configuration(self.root, config)
        options = {**self.config.options, **options}
        if vibe is None:
            vibe = options.pop("vibe_roster", None)
        options.pop("vibe_roster", None)
        if question_timeout is None:
            question_timeout = options.pop("question_timeout", None)
        self.conversation_id = conversation_id or f"conv-{uuid.uuid4().hex[:12]}"
        self.strict = _strict_default() if strict is None else strict
        self._tracer = make_tracer(trace)
        port = as_port(questions)
        self._gate = ApprovalGate(approve, port, timeout=question_timeout)
        self._serial = asyncio.Lock()
        self._holder: tuple[str, float] | None = None  # the call holding _serial, and since when
        self._closed = False
        self._warming: list[asyncio.Task[None]] = []
        self._prestart = bool(options.pop("prestart", False))
        self.ctx = RunContext(
            root=self.root,
            conversation_id=self.conversation_id,
            strict=self.strict,
            trace=self._tracer,
            enclosure=enclosure,
            questions=port,
            vibe=vibe,
            options=dict(options, question_timeout=question_timeout),
            resources=dict(resources or {}),
            call=self._bridge_call,
        )
        self.registry = Registry(build_tools(self.ctx))
        for tool in tools:
            self.registry.add(tool)

    # Context management ----------------------------------------------------------------

    async def __aenter__(self) -> Run:
        if self._prestart:
            self.warm_up()
        return self

    def warm_up(self) -> None:
        """Start in the background what the first calls would wait for: the language servers the
        root's projects need (and their first index). Returns at once; a call that comes first
        waits for the same start, not a second one. `Run(root, prestart=True)` does it on entry."""
        if self._closed or self._warming:
            return
        for warmup in self.ctx.warmups:
            task = asyncio.ensure_future(warmup())
            task.add_done_callback(_quiet)
            self._warming.append(task)

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop everything the Run started: servers, adapters, kernels, workers. Idempotent."""
        if self._closed:
            return
        self._closed = True
        for task in self._warming:
            task.cancel()
        await asyncio.gather(*self._warming, return_exceptions=True)
        def failed(exc: BaseException) -> None:
            if self.strict:
                raise exc
            log.error("closing a resource failed", exc_info=exc)

        await self.ctx.close_all(failed)
        if isinstance(self._tracer, FileTracer):
            self._tracer.close()

    # Tools ----------------------------------------------------------------------------

    def tools(self, surface: str | Surface = Surface.FULL) -> list[ToolSpec]:
        """The specs a surface sees: `plan` and `readonly` list read-tier tools only."""
        return self.registry.specs(surface)

    def schemas(self, surface: str | Surface = Surface.FULL, fmt: str = "jsonschema") -> list[JSONObject]:
        """The surface's tools exported for an agent API (`jsonschema`, `openai`, `anthropic`, `gemini`)."""
        return [export(spec, fmt) for spec in self.tools(surface)]

    def add_tool(self, tool: Tool) -> None:
        """Register one of the host's own tools (its `read`, `write`, ...)."""
        self.registry.add(tool)

    async def call(self, name: str, args: Mapping[str, Any] | None = None, surface: str | Surface = Surface.FULL) -> ToolResult:
        """Call a tool as a model would. Never raises for an expected failure."""
        if self._closed:
            return refusal(f"this Run is closed; {name} cannot be called. Start a new Run.")
        try:
            where = Surface.parse(surface)
        except ValueError as exc:
            return refusal(str(exc))
        tool = self.registry.get(name) if isinstance(name, str) else None
        if tool is None:
            known = ", ".join(s.name for s in self.tools(where)) or "none"
            return refusal(f"unknown tool {name!r}; the tools on the {where.value} surface are: {known}.")
        spec = tool.spec
        if not self.registry.is_visible(name, where):
            return refusal(
                f"{name} is a {spec.tier.value}-tier tool and is not available on the {where.value} surface "
                f"(it shows read-tier tools only). Nothing was done; use a read-tier tool or ask to leave {where.value} mode."
            )
        if args is None:
            args = {}
        if not isinstance(args, Mapping):
            return refusal(f"{name} takes a JSON object of arguments, got {type(args).__name__}: {args!r}")
        args = as_meant(spec.parameters, args)
        try:
            validate(spec.parameters, args)
        except SchemaError as exc:
            return refusal(f"{name}: argument {exc.field} {exc.message}. Nothing was done; fix the argument and call again.",
                           data={"field": exc.field})
        full_args = apply_defaults(spec.parameters, args)
        verdict = await self._gate.check(spec, full_args)
        if verdict is not None:
            return refusal(verdict, data={"approved": False})
        surface_token = CALL_SURFACE.set(where.value)
        try:
            if spec.parallel_safe or _holding_serial.get():
                return await invoke(tool, full_args, strict=self.strict)
            with progress_from(self._waiting_for):
                await self._serial.acquire()
            self._holder = (name, time.monotonic())
            token = _holding_serial.set(True)
            try:
                return await invoke(tool, full_args, strict=self.strict)
            finally:
                _holding_serial.reset(token)
                self._holder = None
                self._serial.release()
        finally:
            CALL_SURFACE.reset(surface_token)

    def _waiting_for(self) -> ProgressState | None:
        """What a call queued behind the running eval/debug call waits for."""
        if self._holder is None:
            return None
        name, since = self._holder
        return (f"waiting for the {name} call running for {time.monotonic() - since:.0f} s to finish "
                "(eval and debug calls run one at a time)", None, None)

    async def _bridge_call(self, name: str, args: Mapping[str, Any], surface: str) -> ToolResult:
        # The eval bridge re-enters here, so surface, validation and approval apply
        # exactly as they do to a call the model emitted (docs/tools.md, "eval").
        return await self.call(name, args, surface)

    # Write-time diagnostics -----------------------------------------------------------

    async def before_write(self, paths: Sequence[str | os.PathLike[str]]) -> ToolResult:
        """Say which files are about to be written: their current diagnostics become the
        baseline, so `written` afterwards reports only what the write introduced (without one,
        a file never checked before gets all its diagnostics, and the result says so).
        `wrap` calls this itself before the write."""
        return (await self.ctx.diagnostics.before_write([os.fspath(p) for p in paths])).to_result()

    async def written(self, paths: Sequence[str | os.PathLike[str]]) -> ToolResult:
        """Sync `paths` through their language servers and return only the new diagnostics
        (and, when a debug breakpoint moved with its line or was lost, say so)."""
        result = (await self.ctx.diagnostics.written([os.fspath(p) for p in paths])).to_result()
        return _with_notes(result, await self.ctx.after_write(paths))

    def wrap(self, write_fn: Callable[..., Any], *, paths_of: Callable[..., Iterable[str]] | None = None) -> Callable[..., Awaitable[Any]]:
        """Wrap a host's write/edit/apply_patch so its result carries the new diagnostics.

        `paths_of(*args, **kwargs)` names the files the call writes; by default the `path`
        keyword or the first positional argument. Before the call those files' baseline is
        taken (`before_write`), after it their new diagnostics are checked (`written`). A str
        result gets the diagnostics appended; a ToolResult gets them in its text and under
        ``data["diagnostics"]``.
        """

        def default_paths(*args: Any, **kwargs: Any) -> list[str]:
            if "path" in kwargs:
                return [kwargs["path"]]
            if "paths" in kwargs:
                return list(kwargs["paths"])
            return [args[0]] if args else []

        which = paths_of or default_paths

        @functools.wraps(write_fn)
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            paths = [os.fspath(p) for p in which(*args, **kwargs)]
            await self.ctx.diagnostics.before_write(paths)
            result = write_fn(*args, **kwargs)
            if inspect.isawaitable(result):
                result = await result
            diagnostics = await self.ctx.diagnostics.written(paths)
            note = "\n".join(filter(None, [diagnostics.text if diagnostics.worth_showing else "",
                                            *await self.ctx.after_write(paths)]))
            if isinstance(result, ToolResult):
                data = result.data if isinstance(result.data, dict) else {"result": result.data}
                data = dict(data, diagnostics=diagnostics.to_json())
                text = f"{result.text}\n\n{note}" if note else result.text
                return ToolResult(ok=result.ok, text=text, data=data, images=result.images)
            if isinstance(result, str):
                return f"{result}\n\n{note}" if note else result
            return result

        return wrapped


def _with_notes(result: ToolResult, notes: list[str]) -> ToolResult:
    """`result` with what the write watchers said after the write (its text and data["after_write"])."""
    if not notes:
        return result
    data = dict(result.data) if isinstance(result.data, dict) else {"result": result.data}
    return ToolResult(ok=result.ok, text="\n".join([result.text, *notes]), data=dict(data, after_write=notes),
                      images=result.images)


def _configuration(root: Path, config: Config | str | os.PathLike[str] | bool | None) -> Config:
    if config is None or config is False:
        return Config()
    if isinstance(config, Config):
        return config
    if config is True:
        return load_config(root)
    return load_config(root, config)
