"""The kernels of one Run: one per language, started on first use, restarted after a death
with a loud note, reset on request, all killed on close."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from minitools.kernel._host import Bridge, KernelProcess, KernelStartError
from minitools.kernel._output import CellOutcome, CellOutput, SavedOutputs, exit_description
from minitools.kernel._rewrite import rewrite

__all__ = ["KernelPool", "LANGUAGES", "enclosure_prefix", "workspace_python", "KernelBusy"]

LANGUAGES = ("python", "javascript")
_HERE = Path(__file__).resolve().parent
_PY_WORKER = _HERE / "_pyworker.py"
_JS_WORKER = _HERE / "_jsworker.js"
_MINITOOLS_PARENT = _HERE.parent.parent


class KernelBusy(Exception):
    """A cell is already running on this kernel (eval called from inside a cell)."""


class Prefixed(Protocol):
    """An enclosure object: what it runs a command under."""

    prefix: Sequence[str]


# what `Run(enclosure=...)` takes: an argv prefix, an object with a `.prefix` one, or None
Enclosure = Sequence[str] | Prefixed | None


def enclosure_prefix(enclosure: Enclosure) -> list[str]:
    """The command prefix of an enclosure: a list of argv strings, or an object with a
    `.prefix` list. None means no enclosure. The kernel never starts an enclosure itself."""
    if enclosure is None:
        return []
    prefix = getattr(enclosure, "prefix", enclosure)
    if isinstance(prefix, (str, bytes)) or not isinstance(prefix, Sequence) or not all(isinstance(a, str) for a in prefix):
        raise TypeError(f"enclosure must be a list of argv strings or have a .prefix list of them; got {enclosure!r}")
    return list(prefix)


def workspace_python(root: Path) -> str:
    """The project's interpreter (`.venv/bin/python` in the workspace) or the host's."""
    candidate = root / ".venv" / "bin" / "python"
    return str(candidate) if candidate.exists() else sys.executable


class KernelPool:
    """Kernels by language. `run` never raises for what a cell does; it raises
    KernelStartError when a kernel cannot start and KernelBusy on re-entry."""

    def __init__(self, root: Path, *, enclosure: Enclosure = None, spill_dir: Path,
                 trace: Callable[[str, str, Any], None] | None = None, start_timeout: float = 30.0,
                 memory_limit: int | None = None) -> None:
        self.root = root
        self.memory_limit = memory_limit
        self.prefix = enclosure_prefix(enclosure)
        self.outputs = SavedOutputs(spill_dir)
        self.trace = trace
        self.start_timeout = start_timeout
        self._kernels: dict[str, KernelProcess] = {}
        self._lost: dict[str, str] = {}
        self._busy: set[str] = set()
        self.closed = False

    def pids(self) -> list[int]:
        """The process ids of the kernels started and not yet reaped (tests check them)."""
        return [k.pid for k in self._kernels.values() if k.pid is not None]

    def is_busy(self, language: str) -> bool:
        return language in self._busy

    def _argv(self, language: str) -> tuple[list[str], dict[str, str]]:
        env = dict(os.environ)
        if language == "python":
            python = workspace_python(self.root)
            bin_dir = str(Path(python).parent)
            if bin_dir != str(Path(sys.executable).parent) or python != sys.executable:
                env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
            env.setdefault("MPLBACKEND", "Agg")  # figures come back as PNGs; no window ever opens
            env["PYTHONIOENCODING"] = "utf-8"
            return self.prefix + [python, str(_PY_WORKER), str(_MINITOOLS_PARENT), "{fd_in}", "{fd_out}"], env
        node = shutil.which("node")
        if node is None:
            raise KernelStartError("node is not installed on this machine (not on PATH), so the javascript kernel "
                                   "cannot start; install Node.js 18 or newer, or use language python.")
        return self.prefix + [node, "--expose-internals", str(_JS_WORKER), "{fd_in}", "{fd_out}"], env

    async def _kernel(self, language: str, notes: list[str]) -> KernelProcess:
        kernel = self._kernels.get(language)
        if kernel is not None and kernel.alive:
            return kernel
        if kernel is not None:
            # died between cells (killed from outside, a thread called os._exit)
            code = await kernel._reap()
            words = kernel.last_words()
            self._lost[language] = (f"the previous {language} kernel exited between cells ({exit_description(code)})"
                                    + (f"; its last output: {words}" if words else ""))
            await kernel.close()
        argv, env = self._argv(language)
        kernel = KernelProcess(argv, language=language, cwd=str(self.root), env=env, trace=self.trace,
                               memory_limit=self.memory_limit)
        await kernel.start(self.start_timeout)
        self._kernels[language] = kernel
        lost = self._lost.pop(language, None)
        where = kernel.info.get("python") or kernel.info.get("node") or argv[0]
        version = kernel.info.get("version", "")
        if lost:
            notes.append(f"STATE LOST: {lost}. This cell ran in a fresh {language} kernel (pid {kernel.pid}, {where} "
                         f"{version}); variables, imports and data from earlier cells are gone — re-run what you need.")
        else:
            notes.append(f"started a {language} kernel (pid {kernel.pid}, {where} {version})")
        return kernel

    def new_output(self, language: str, limit: int) -> CellOutput:
        """A cell's output, saved past `limit` to a file of its own (`SavedOutputs`)."""
        return self.outputs.new(language, limit)

    async def run(self, language: str, code: str, *, budget: float, grace: float, bridge: Bridge,
                  output: CellOutput) -> CellOutcome:
        """Run `code` on the language's kernel, starting one when needed."""
        if language in self._busy:
            raise KernelBusy(language)
        self._busy.add(language)
        try:
            notes: list[str] = []
            kernel = await self._kernel(language, notes)
            source = rewrite(code) if language == "python" else code
            outcome = await kernel.execute(source, budget=budget, grace=grace, bridge=bridge, output=output)
            outcome.notes[:0] = notes
            if outcome.state_lost:
                reason = ("was killed: it did not stop after SIGINT" if outcome.status == "killed"
                          else f"died ({exit_description(outcome.exit_code)})")
                self._lost[language] = f"the previous {language} kernel {reason}"
                await kernel.close()
                del self._kernels[language]
            return outcome
        finally:
            self._busy.discard(language)
            output.close()

    async def reset(self, language: str) -> bool:
        """Discard the language's kernel; the next cell starts clean. True if one was running."""
        kernel = self._kernels.pop(language, None)
        self._lost.pop(language, None)
        if kernel is None:
            return False
        await kernel.close()
        return True

    async def close(self) -> None:
        """Kill every kernel (and everything in their process groups)."""
        self.closed = True
        kernels, self._kernels = list(self._kernels.values()), {}
        for kernel in kernels:
            await kernel.close()
