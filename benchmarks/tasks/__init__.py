"""The task benchmark's tasks, strategies and judges (benchmarks/bench_tasks.py runs them).

Each project's tasks are a module of their own (click.py, rxjs.py, zlib.py): the question, what
the agent is given, and the hand-checked ground truth.
"""

from __future__ import annotations

from ._model import EDIT_KINDS, KINDS, Attempt, Step, Task
from ._projects import PROJECTS, Project
from .click import TASKS as _CLICK
from .rxjs import TASKS as _RXJS
from .zlib import TASKS as _ZLIB

TASKS: list[Task] = [*_CLICK, *_RXJS, *_ZLIB]

__all__ = ["EDIT_KINDS", "KINDS", "PROJECTS", "TASKS", "Attempt", "Project", "Step", "Task"]
