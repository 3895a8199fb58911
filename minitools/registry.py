"""The tool registry: surfaces, and the approval gate.

Rules (docs/tools.md, "Tiers and registration"):
- the tier decides visibility: the `plan` and `readonly` surfaces show read-tier tools
  only, so write and exec tools are absent from their schema and refused if called;
- `read` never asks; `write` and `exec` ask `approve` (a callable, sync or async, given
  the spec and the arguments) or, when only a question port is wired, the person through
  a permission card; with neither, the gate fails closed.
"""

from __future__ import annotations

import enum
import inspect
import json
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from minitools.ask import AnswerError, Card, NoPersonAttached, QuestionPort, QuestionTimeout
from minitools.toolspec import Tier, Tool, ToolSpec

log = logging.getLogger("minitools")

__all__ = ["Surface", "Registry", "ApprovalGate", "Approver", "summarize_args"]


class Surface(str, enum.Enum):
    """Who is looking at the tools."""

    FULL = "full"  # the main agent
    PLAN = "plan"  # plan mode: read only
    READONLY = "readonly"  # read-only subagents

    @property
    def tiers(self) -> frozenset[Tier]:
        if self is Surface.FULL:
            return frozenset(Tier)
        return frozenset({Tier.READ})

    @classmethod
    def parse(cls, value: str | Surface) -> Surface:
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown surface {value!r}; choose one of {names}") from None


class Registry:
    """Tools by name, in registration order."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if tool.spec.name in self._tools:
            raise ValueError(f"a tool named {tool.spec.name!r} is already registered")
        self._tools[tool.spec.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self, surface: str | Surface = Surface.FULL) -> list[ToolSpec]:
        tiers = Surface.parse(surface).tiers
        return [t.spec for t in self._tools.values() if t.spec.tier in tiers]

    def is_visible(self, name: str, surface: str | Surface) -> bool:
        tool = self._tools.get(name)
        return tool is not None and tool.spec.tier in Surface.parse(surface).tiers


Approver = Callable[[ToolSpec, Mapping[str, Any]], Any]


def summarize_args(args: Mapping[str, Any], limit: int = 300) -> str:
    """A short, readable summary of a call's arguments for a permission card."""
    parts = []
    for key, value in args.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if len(text) > 80:
            text = text[:77] + "..."
        parts.append(f"{key}={text!r}" if isinstance(value, str) else f"{key}={text}")
    out = ", ".join(parts)
    return out if len(out) <= limit else out[: limit - 3] + "..."


_ALLOW_ONCE = "allow once"
_ALLOW_RUN = "allow for this run"
_DENY = "deny"


class ApprovalGate:
    """Decides whether a write or exec call may run. `check` returns None to allow,
    else the refusal the model reads."""

    def __init__(
        self,
        approve: Approver | None,
        questions: QuestionPort | None,
        *,
        timeout: float | None = None,
    ) -> None:
        self._approve = approve
        self._questions = questions
        self._timeout = timeout
        self._allowed_for_run: set[str] = set()

    async def check(self, spec: ToolSpec, args: Mapping[str, Any]) -> str | None:
        if spec.tier is Tier.READ:
            return None
        if self._approve is not None:
            try:
                verdict = self._approve(spec, args)
                if inspect.isawaitable(verdict):
                    verdict = await verdict
            except Exception as exc:
                log.warning("the approver raised for %s", spec.name, exc_info=True)
                return (f"{spec.name} was not run: the approver failed ({type(exc).__name__}: {exc}), so the call "
                        "counts as not approved. Nothing was done. Tell the person their approval hook is failing.")
            if verdict is True:
                return None
            reason = f": {verdict}" if isinstance(verdict, str) and verdict else ""
            return (
                f"{spec.name} was not approved{reason}. Nothing was done. "
                "Ask the person why, or find a way that needs no change."
            )
        if self._questions is not None:
            return await self._ask_person(spec, args)
        return (
            f"{spec.name} is {'an' if spec.tier.value[0] in 'aeiou' else 'a'} {spec.tier.value}-tier tool and this run has no approver "
            "(no approve callable and no question port), so it is refused. Nothing was done. "
            "Wire an approver into the Run, or use a read-tier tool."
        )

    async def _ask_person(self, spec: ToolSpec, args: Mapping[str, Any]) -> str | None:
        assert self._questions is not None
        if spec.name in self._allowed_for_run:
            return None
        verb = "change files" if spec.tier is Tier.WRITE else "start or control a process"
        card = Card.parse({
            "kind": "permission",
            "question": f"Allow `{spec.name}` to {verb}?",
            "context": summarize_args(args),
            "options": [
                {"label": _ALLOW_ONCE, "description": "run this call only"},
                {"label": _ALLOW_RUN, "description": f"allow every {spec.name} call in this run"},
                {"label": _DENY, "description": "refuse; nothing is done"},
            ],
            "allow_free_text": False,
            "multi_select": False,
        })
        if not self._questions.is_attached():
            return (
                f"{spec.name} needs permission and no person is attached to ask. "
                "Nothing was done. Try again when someone can answer, or use a read-tier tool."
            )
        try:
            answer = await self._questions.ask(card, self._timeout)
        except QuestionTimeout:
            return f"{spec.name} needs permission and nobody answered in time. Nothing was done."
        except NoPersonAttached:
            return f"{spec.name} needs permission and no person is attached to ask. Nothing was done."
        except AnswerError as exc:
            return f"{spec.name} needs permission and the answer could not be understood ({exc}). Nothing was done."
        choices = answer.choices
        if answer.skipped or not choices:
            return f"Permission for {spec.name} was not given (the question was skipped). Nothing was done."
        choice = choices[0]
        if choice == _ALLOW_RUN:
            self._allowed_for_run.add(spec.name)
            return None
        if choice == _ALLOW_ONCE:
            return None
        return (
            f"The person denied {spec.name}. Nothing was done. "
            "Do not retry the same call; ask what they would prefer, or take another approach."
        )
