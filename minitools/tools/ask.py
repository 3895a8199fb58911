"""The `ask_user` tool (docs/tools.md, "ask_user"): the only way a run asks the person something.

Registered only when the Run has a question port with a destination. Outcomes:
an answer returns the chosen labels verbatim and the typed text; a skip is a success telling
the agent to proceed on a stated assumption; a timeout and "nobody attached" are errors with
the same instruction. A background worker (``MINITOOLS_VIBE_WORKER`` set) gets no ask_user.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from minitools.ask import (
    MAX_CONTEXT,
    MAX_DESCRIPTION,
    MAX_LABEL,
    MAX_OPTIONS,
    MAX_QUESTION,
    AnswerError,
    Card,
    CardError,
    NoPersonAttached,
    QuestionPort,
    QuestionTimeout,
)
from minitools.schema import parameters_schema, result_schema
from minitools.tools._context import RunContext
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec
from minitools.vibe import WORKER_ENV  # set in a worker's environment: workers get no ask_user

__all__ = ["build"]


PROCEED = "Proceed on a stated assumption (say which one you are making) and do not ask this question again."

DESCRIPTION = (
    "Ask the person a question and wait for the answer. Shows a numbered card and blocks until "
    "they choose, type, skip, or the question times out. Use it when a decision is theirs to make "
    "(a preference, a risk, missing information); never write the question as a chat message "
    "instead, which ends your turn. Offer short, distinct options; a skip means: go on with a stated assumption."
)

PARAMETERS = parameters_schema({
    "question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION,
                 "description": "What to ask, as one clear question."},
    "context": {"type": "string", "maxLength": MAX_CONTEXT,
                "description": "Optional: why you are asking and what depends on the answer."},
    "options": {
        "type": "array",
        "maxItems": MAX_OPTIONS,
        "description": "The choices, shown numbered. Labels must be non-empty and unique; the answer names them verbatim.",
        "items": {
            "type": "object",
            "properties": {
                "label": {"type": "string", "minLength": 1, "maxLength": MAX_LABEL,
                          "description": "A short name for the choice."},
                "description": {"type": "string", "maxLength": MAX_DESCRIPTION,
                                "description": "Optional: what choosing it means."},
            },
            "required": ["label"],
            "additionalProperties": False,
        },
        "default": [],
    },
    "allow_free_text": {"type": "boolean", "default": False,
                        "description": "Whether the person may type their own answer instead of choosing."},
    "multi_select": {"type": "boolean", "default": False,
                     "description": "Whether several options may be chosen."},
}, required=["question"])

# `data` of an answer (structured output, for clients that ask for it)
OUTPUT = result_schema({"skipped": "boolean", "choices": "string[]", "text": "string?"}, required=["skipped", "choices", "text"])

SPEC = ToolSpec("ask_user", Tier.READ, DESCRIPTION, PARAMETERS, output_schema=OUTPUT)


def build(ctx: RunContext) -> list[Tool]:
    """`ask_user`, when the Run has a question port with a destination."""
    if os.environ.get(WORKER_ENV):
        return []
    port: QuestionPort | None = ctx.resource("ask", lambda: ctx.questions)
    if port is None or getattr(port, "destination", None) is None:
        return []
    return [Tool(SPEC, AskFamily(port, ctx.option("question_timeout", None)).ask_user)]


class AskFamily:
    """`ask_user` over the Run's question port; `timeout` is the option question_timeout (None: no limit)."""

    def __init__(self, port: QuestionPort, timeout: float | None) -> None:
        self.port = port
        self.timeout = timeout

    async def ask_user(self, args: Mapping[str, Any]) -> ToolResult:
        card_dict = {"kind": "question", **args}
        try:
            card = Card.parse(card_dict)
        except CardError as exc:
            raise ToolError(f"ask_user: {exc}. Nothing was asked; fix the card and call again.",
                            data={"asked": False}) from None
        where = self.port.destination
        if not self.port.is_attached():
            raise ToolError(f"No person is attached to {where} to answer, so the question "
                            f"{card.question!r} was not shown. {PROCEED}",
                            data={"asked": False, "attached": False})
        try:
            answer = await self.port.ask(card, self.timeout)
        except NoPersonAttached as exc:
            raise ToolError(f"The question {card.question!r} could not be asked: {exc}. {PROCEED}",
                            data={"asked": False, "attached": False}) from None
        except QuestionTimeout:
            within = f" within {self.timeout:g} s" if self.timeout is not None else " in time"
            raise ToolError(f"Nobody answered {card.question!r}{within}. {PROCEED}",
                            data={"asked": True, "timed_out": True}) from None
        except AnswerError as exc:
            raise ToolError(f"The answer to {card.question!r} could not be understood ({exc}). {PROCEED}",
                            data={"asked": True, "understood": False}) from None
        if answer.skipped:
            return ToolResult(ok=True, text=f"The person skipped the question. {PROCEED}",
                              data={"skipped": True, "choices": [], "text": None})
        choices, text = list(answer.choices), answer.text
        parts = []
        if choices:
            parts.append("The person chose: " + ", ".join(f'"{c}"' for c in choices) + ".")
        if text is not None:
            parts.append(f"They wrote: {text}")
        return ToolResult(ok=True, text="\n".join(parts), data={"skipped": False, "choices": choices, "text": text})
