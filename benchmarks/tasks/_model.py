"""The nouns of the task benchmark: a task, one step a strategy took, and what a strategy answered."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

# the kinds of question, in the order the tables list them
KINDS = (
    "definition",       # where is X defined (the X used at a given line)
    "callers",          # who calls X: every direct call site
    "implementations",  # every implementation of an interface or base-class method
    "type",             # the type of a name at a given line
    "rename",           # rename X to Y across the project
    "find_pattern",     # every call shaped like a pattern
    "replace",          # rewrite every call shaped like a pattern
    "value",            # the value of an expression when a loop first meets a condition
    "new_diagnostics",  # did this edit break anything: the lines with new errors or warnings
)
EDIT_KINDS = frozenset({"rename", "replace"})


@dataclass(frozen=True)
class Task:
    """One question about one project. `args` is what the agent is given (kind-specific: a name
    and the line it was met on, a pattern, a program); `truth` the answer it is judged against,
    written down by hand and checked by tests/bench/test_bench_tasks.py; `trivial` marks a task
    a text search alone answers (a name used once, in one sense)."""

    id: str
    project: str
    kind: str
    question: str
    args: dict[str, Any]
    truth: Any
    trivial: bool = False


@dataclass
class Step:
    """One call: a shell command, or a minitools tool call. `output` is the text the model reads."""

    call: str
    output: str
    seconds: float


@dataclass
class Attempt:
    """A strategy's run of one task: its steps and its answer (None when it gave up)."""

    steps: list[Step] = field(default_factory=list)
    answer: Any = None
    error: str = ""
    started: float = field(default_factory=time.perf_counter)
    ended: float = 0.0

    @property
    def calls(self) -> int:
        return len(self.steps)

    @property
    def bytes(self) -> int:
        return sum(len(s.output.encode()) for s in self.steps)

    @property
    def seconds(self) -> float:
        return (self.ended or time.perf_counter()) - self.started
