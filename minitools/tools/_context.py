"""What a tool family sees of its Run: the root, the conversation, wired resources,
a way back into the registry (the eval bridge), and a place to register clean-up.

Families are modules of `minitools.tools` with ``build(ctx) -> list[Tool]``; a family
returns no tools when the resource behind them is not wired (docs/tools.md, "Tiers and
registration").
"""

from __future__ import annotations

import os
import stat
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from minitools.ask import QuestionPort
from minitools.edits import EditStore
from minitools.kernel import Enclosure
from minitools.lsp import file_kind
from minitools.tools._extent import NoSymbolServer, SymbolService
from minitools.tools._records import NO_SUPERVISOR, Baseline, Written
from minitools.toolspec import ToolError, ToolResult
from minitools.tracing import Tracer
from minitools.vibe import RosterSource

__all__ = ["CALL_SURFACE", "READ_ONLY_SURFACES", "RunContext", "Closer", "BridgeCall", "WriteWatcher", "DiagnosticsService", "NoDiagnostics",
           "Enclosure", "RosterSource", "shown_path", "unusable_path", "GLOB_CHARS", "is_glob", "glob_folder"]

NAME_MAX = 255  # bytes in one path component (Linux, macOS)
PATH_MAX = 4096  # bytes in a whole path (Linux)


def unusable_path(path: str) -> str:
    """Why the text `path` can be no path at all ("" when it can): a NUL byte, or a name or
    a whole path longer than the system allows. The caller's error, said as such."""
    if "\x00" in path:
        return "contains a NUL byte"
    try:
        encoded = os.fsencode(path)
    except UnicodeError:
        return "cannot be encoded as a file name"
    if len(encoded) > PATH_MAX:
        return f"is {len(encoded):,} bytes long, more than a path may be ({PATH_MAX:,})"
    longest = max((len(part) for part in encoded.split(b"/")), default=0)
    if longest > NAME_MAX:
        return f"has a name of {longest:,} bytes, more than a file name may be ({NAME_MAX})"
    return ""


def shown_path(path: str, limit: int = 120) -> str:
    """`path` quoted for a message, cut when long."""
    return repr(path if len(path) <= limit else path[:limit] + "...")

Closer = Callable[[], Awaitable[None]]

# the surface the current call came in on ("full", "plan", "readonly"), set by Run.call: a family
# whose work outlives the call (a vibe worker) passes it on
CALL_SURFACE: ContextVar[str] = ContextVar("minitools_call_surface", default="full")
READ_ONLY_SURFACES = frozenset({"plan", "readonly"})
BridgeCall = Callable[[str, Mapping[str, Any], str], Awaitable[ToolResult]]
# told the files the run has just written (absolute paths); returns notes for the write's result
WriteWatcher = Callable[[Sequence[str]], Awaitable[list[str]]]

_UNSET: Any = object()



GLOB_CHARS = "*?["


def is_glob(path: str) -> bool:
    """Whether `path` holds a glob's wildcards."""
    return any(c in path for c in GLOB_CHARS)


def glob_folder(glob: str) -> str:
    """The folder a glob's wildcards lie below ("" for the root's): `src/**/*.ts` -> `src`."""
    return glob[: min(glob.find(c) for c in GLOB_CHARS if c in glob)].rpartition("/")[0]

class DiagnosticsService(Protocol):
    """Write-time diagnostics (the lsp family's, tools/lsp/_written.py): after a write,
    the diagnostics of the written files that the write introduced."""

    async def before_write(self, paths: Sequence[str]) -> Baseline:
        """Take the baseline of files about to be written (their diagnostics now)."""
        ...

    async def written(self, paths: Sequence[str]) -> Written:
        """The diagnostics of the written files that are new against their baseline."""
        ...


class NoDiagnostics:
    """The service of a run without a language-server supervisor: it checks nothing and says so."""

    async def before_write(self, paths: Sequence[str]) -> Baseline:
        return Baseline(f"{NO_SUPERVISOR} is wired in this run; no baseline was taken.", reason=NO_SUPERVISOR)

    async def written(self, paths: Sequence[str]) -> Written:
        return Written(f"{NO_SUPERVISOR} is wired in this run; no diagnostics were checked.", reason=NO_SUPERVISOR)


@dataclass
class RunContext:
    root: Path
    conversation_id: str
    strict: bool = False
    trace: Tracer | None = None
    enclosure: Enclosure = None
    questions: QuestionPort | None = None
    vibe: RosterSource = None
    options: dict[str, Any] = field(default_factory=dict)
    # resources the embedder injected or disabled: name -> object, or False for "not wired"
    resources: dict[str, Any] = field(default_factory=dict)
    # write-time diagnostics, published by the lsp family when a supervisor is wired
    diagnostics: DiagnosticsService = field(default_factory=NoDiagnostics)
    # symbols' extents by the language server (symbol_edit), published by the lsp family
    symbols: SymbolService = field(default_factory=NoSymbolServer)
    # the staged edits `resolve` accepts or discards (ast_edit stages them)
    edits: EditStore = field(default_factory=EditStore)
    call: BridgeCall | None = None
    # work a family can do before the first call (the lsp family starts the root's servers)
    warmups: list[Closer] = field(default_factory=list)
    # families that follow files the run writes (debug's breakpoints follow their lines)
    write_watchers: list[WriteWatcher] = field(default_factory=list)
    _closers: list[Closer] = field(default_factory=list)

    def on_close(self, closer: Closer) -> None:
        """Run `closer` when the Run closes (in reverse order of registration)."""
        self._closers.append(closer)

    async def close_all(self, on_error: Callable[[BaseException], None]) -> None:
        """Run every closer once, newest first; a closer that raises goes to `on_error` and the
        rest still run."""
        closers, self._closers = list(reversed(self._closers)), []
        for closer in closers:
            try:
                await closer()
            except Exception as exc:  # noqa: BLE001 - a failing closer must not keep the others from running
                on_error(exc)

    async def after_write(self, paths: Sequence[str | os.PathLike[str]]) -> list[str]:
        """Tell every write watcher that `paths` (relative to the root, or absolute) were
        written: resolve accepting an edit, lsp_rename, a host's write told through `written`.
        The watchers' notes, in order; a watcher sees no path no file can have."""
        named = [os.fspath(p) for p in paths]
        # a path no file can have (a NUL, too long) names nothing written; `written` says so itself
        absolute = [p if os.path.isabs(p) else os.fspath(self.root / p) for p in named if not unusable_path(p)]
        notes: list[str] = []
        for watcher in self.write_watchers:
            notes += await watcher(absolute)
        return notes

    def resource(self, name: str, factory: Callable[[], Any]) -> Any:
        """The resource `name`: the injected one, None when disabled with False, else `factory()`."""
        value = self.resources.get(name, _UNSET)
        if value is False or (value is None and name in self.resources):
            return None
        if value is _UNSET or value is True:
            value = factory()
            self.resources[name] = value
        return value

    def option(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)

    # Paths --------------------------------------------------------------------------

    def resolve_path(self, path: str | None, *, must_exist: bool = True, what: str = "path") -> Path:
        """`path` (relative to the root, or absolute) as an absolute path inside the root.

        Refuses paths outside the root, and, with `must_exist`, paths that do not exist.
        """
        if path is None or path == "":
            return self.root
        problem = unusable_path(path)
        if problem:
            raise ToolError(f"{what} {shown_path(path)} {problem}; give a path to a file or folder inside the workspace.")
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        try:
            resolved = Path(os.path.realpath(candidate))
            exists = resolved.exists()
        except (OSError, ValueError) as exc:
            raise ToolError(f"{what} {shown_path(path)} cannot be looked up ({exc}); give a path to a file or folder "
                            "inside the workspace.") from None
        if resolved != self.root and self.root not in resolved.parents:
            raise ToolError(
                f'{what} "{path}" is outside the workspace root {self.root}; '
                "give a path inside it (relative paths are taken from the root)."
            )
        if must_exist and not exists:
            raise ToolError(f'{what} "{path}" does not exist under {self.root}; {self._missing_hint(path)}.')
        return resolved

    def source_file(self, file: str | None, action: str) -> Path:
        """The `file` argument of `action` as a regular file inside the root; refused when missing,
        unreadable or not a regular file (a folder, a FIFO: one is never opened, it would block)."""
        if not file:
            raise ToolError(f"{action} needs `file`: the path of the file to ask about, relative to the workspace root.")
        path = self.resolve_path(file, what="file")
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            raise ToolError(f'file "{file}" cannot be read ({(exc.strerror or str(exc)).lower()}); {action} needs a source file.') from None
        if not stat.S_ISREG(mode):
            raise ToolError(f'file "{file}" is {file_kind(mode)}, not a regular file; {action} needs a source file.')
        return path

    def _missing_hint(self, path: str) -> str:
        """What to try for a path that names nothing: a glob or a `file:line` spelling gets
        the path it stands for (the commonest first-call forms), anything else a spelling check."""
        name, _, line = path.rpartition(":")
        if name and line.isdigit() and (self.root / name).is_file():
            return f'"{name}" is a file: give it alone as the path (a line number does not go in a path)'
        if is_glob(path):
            return (f'a glob is not expanded here: give a file or a folder ("{glob_folder(path) or "."}"), and narrow '
                    "by file type with language")
        return "check the spelling or list the directory"

    def relpath(self, path: str | os.PathLike[str]) -> str:
        """`path` relative to the root where it is inside it, else as given."""
        p = Path(path)
        try:
            return p.relative_to(self.root).as_posix() or "."
        except ValueError:
            return str(p)
