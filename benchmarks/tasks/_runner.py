"""Run tasks with both strategies, each in its own copy of the project, and judge the answers."""

from __future__ import annotations

import asyncio
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools import Run

from . import _judge, _mini, _shell
from ._model import EDIT_KINDS, Attempt, Task
from ._projects import NODE_BIN, PROJECTS, Project

# a kind whose steps write the project gets fresh copies (and a fresh Run) of its own
WRITES = EDIT_KINDS | {"new_diagnostics"}
STRATEGIES = ("shell", "minitools")


@dataclass
class Outcome:
    task: Task
    truth: Any
    attempts: dict[str, Attempt] = field(default_factory=dict)
    right: dict[str, bool] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)


def make_run(root: Path) -> Run:
    return Run(root, lsp_path=[str(NODE_BIN)], approve=lambda spec, args: True, strict=False)


async def started(run: Run) -> float:
    """Start the run's language servers and wait for their first index: what a session pays
    once, reported apart from the tasks' times."""
    start = time.perf_counter()
    run.warm_up()
    await asyncio.gather(*run._warming, return_exceptions=True)  # the warm-up's own tasks: nothing public awaits them
    return time.perf_counter() - start


class ProjectBench:
    """One project's copies: pristine (never written), one per strategy for the read-only tasks."""

    def __init__(self, project: Project, workdir: Path) -> None:
        self.project = project
        self.workdir = workdir
        self.pristine = project.lay(workdir / "pristine")
        self.roots = {s: self._copy(s) for s in STRATEGIES}
        self.run: Run | None = None
        self.startup = 0.0
        self._baseline: Any = None
        self._fresh = 0

    def _copy(self, name: str) -> Path:
        dest = self.workdir / name
        shutil.copytree(self.pristine, dest, symlinks=True)
        if self.project.name == "zlib":  # clangd's compile_commands.json names its folder
            text = (dest / "compile_commands.json").read_text().replace(str(self.pristine), str(dest))
            (dest / "compile_commands.json").write_text(text)
        return dest

    @property
    def baseline(self) -> Any:
        if self._baseline is None:
            self._baseline = self.project.check(self.pristine)
        return self._baseline

    async def shared_run(self) -> Run:
        if self.run is None:
            self.run = make_run(self.roots["minitools"])
            self.startup = await started(self.run)
        return self.run

    async def close(self) -> None:
        if self.run is not None:
            await self.run.close()

    async def attempt(self, task: Task, strategy: str) -> tuple[Attempt, Path]:
        own = task.kind in WRITES
        if own:
            self._fresh += 1
            root = self._copy(f"{strategy}-{self._fresh}")
        else:
            root = self.roots[strategy]
        attempt = Attempt()
        try:
            if strategy == "shell":
                attempt.started = time.perf_counter()
                attempt.answer = _shell.solve(task, self.project, root, attempt)
            else:
                run = make_run(root) if own else await self.shared_run()
                try:
                    if own:
                        await started(run)
                    attempt.started = time.perf_counter()
                    attempt.answer = await _mini.solve(task, self.project, run, attempt)
                finally:
                    if own:
                        attempt.ended = time.perf_counter()
                        await run.close()
        except Exception as exc:  # noqa: BLE001 - a strategy that fails is a wrong answer, reported with its error
            attempt.error = f"{type(exc).__name__}: {exc}"
            attempt.answer = None
        attempt.ended = attempt.ended or time.perf_counter()
        return attempt, root


async def run_tasks(tasks: list[Task], workdir: Path, log: Any = print) -> tuple[list[Outcome], dict[str, float]]:
    outcomes, startups = [], {}
    for name in [p for p in PROJECTS if any(t.project == p for t in tasks)]:
        bench = ProjectBench(PROJECTS[name], workdir / name)
        try:
            for task in [t for t in tasks if t.project == name]:
                outcomes.append(await one(bench, task, log))
        finally:
            await bench.close()
            startups[name] = bench.startup
    return outcomes, startups


async def one(bench: ProjectBench, task: Task, log: Any) -> Outcome:
    truth = task.truth
    if task.kind == "value":
        truth = _judge.traced_value(task, bench.pristine)
    outcome = Outcome(task, truth)
    for strategy in STRATEGIES:
        attempt, root = await bench.attempt(task, strategy)
        outcome.attempts[strategy] = attempt
        if attempt.error:
            ok, why = False, attempt.error
        elif task.kind in EDIT_KINDS:
            ok, why = _judge.judge_edit(task, bench.project, bench.pristine, root, bench.baseline)
        else:
            ok, why = _judge.judge(task, attempt.answer, truth)
        outcome.right[strategy], outcome.why[strategy] = ok, why
        if task.kind in WRITES and root != bench.roots[strategy]:
            shutil.rmtree(root, ignore_errors=True)
    log(f"{task.id:42} " + "  ".join(
        f"{s}: {'right' if outcome.right[s] else 'WRONG'} {outcome.attempts[s].calls} calls {outcome.attempts[s].bytes} B "
        f"{outcome.attempts[s].seconds:.2f} s" + (f" ({outcome.why[s]})" if outcome.why[s] else "") for s in STRATEGIES))
    return outcome
