"""Question cards as MCP form elicitations (``elicitation/create``), for a client that declared
the elicitation capability (docs/architecture.md, "minitools mcp").

The card becomes a flat form: its options an enum of their labels (``choice``), a multi-select
card an array of them (``choices``; on the 2025-06-18 revision, which has no array fields, one
boolean per option), free text a string (``text``). ``accept`` gives the answer; ``decline`` and
``cancel``, or an accepted form with nothing in it, mean the question was skipped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.ask import Answer, Card, NoPersonAttached, QuestionTimeout

__all__ = ["ElicitPort", "card_form", "form_answer"]

SendRequest = Callable[[str, dict[str, Any]], Awaitable[Any]]

# the revision whose elicitation schema has no array (multi-select) fields
_NO_ARRAYS = "2025-06-18"


def card_form(card: Card, version: str) -> dict[str, Any]:
    """The ``elicitation/create`` params that show `card`."""
    lines = [card.question]
    if card.context:
        lines += ["", card.context]
    described = [o for o in card.options if o.description]
    if described:
        lines += [""] + [f"- {o.label}: {o.description}" for o in described]
    properties: dict[str, Any] = {}
    required: list[str] = []
    labels = card.labels
    if labels and card.multi_select and version == _NO_ARRAYS:
        for i, label in enumerate(labels, 1):
            properties[f"option_{i}"] = {"type": "boolean", "title": label, "default": False}
    elif labels and card.multi_select:
        properties["choices"] = {"type": "array", "title": "Choose one or more",
                                 "items": {"type": "string", "enum": labels}}
        if not card.allow_free_text:
            properties["choices"]["minItems"] = 1
            required.append("choices")
    elif labels:
        properties["choice"] = {"type": "string", "title": "Choose one", "enum": labels}
        if not card.allow_free_text:
            required.append("choice")
    if card.allow_free_text:
        properties["text"] = {"type": "string", "title": "Or write your answer" if labels else "Your answer"}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    params: dict[str, Any] = {"message": "\n".join(lines), "requestedSchema": schema}
    if version != _NO_ARRAYS:
        params["mode"] = "form"
    return params


def form_answer(card: Card, response: Any) -> dict[str, Any]:
    """The client's ``elicitation/create`` result as an answer dict (not yet checked against the card)."""
    if not isinstance(response, dict) or response.get("action") != "accept":
        return {"skipped": True}
    content = response.get("content") or {}
    if not isinstance(content, dict):
        return {"choices": content}  # not a form's content: Answer.parse says what is wrong
    choices: Any = []
    if "choice" in content:
        choices = [content["choice"]] if content["choice"] not in (None, "") else []
    elif "choices" in content:
        choices = content["choices"]
    else:
        choices = [label for i, label in enumerate(card.labels, 1) if content.get(f"option_{i}") is True]
    text = content.get("text")
    if not choices and (text is None or (isinstance(text, str) and not text.strip())):
        return {"skipped": True}
    answer: dict[str, Any] = {"choices": choices}
    if text is not None:
        answer["text"] = text
    return answer


class ElicitPort:
    """A question port that asks through the MCP client. `send(method, params)` sends one
    request to the client; `version()` is the negotiated revision and `attached()` whether the
    client declared form elicitation."""

    destination: str | None = "the MCP client"

    def __init__(self, send: SendRequest, *, version: Callable[[], str], attached: Callable[[], bool]) -> None:
        self._send = send
        self._version = version
        self._attached = attached

    def is_attached(self) -> bool:
        return self._attached()

    async def ask(self, card: Card, timeout: float | None = None) -> Answer:
        """Show the card as a form and wait for the person; the answer is checked against the card."""
        if not self._attached():
            raise NoPersonAttached("the MCP client did not declare the elicitation capability")
        try:
            response = await asyncio.wait_for(self._send("elicitation/create", card_form(card, self._version())), timeout)
        except asyncio.TimeoutError:
            raise QuestionTimeout(f"the MCP client gave no answer within {timeout:g} s") from None
        except Exception as exc:  # the client's error response, or it went away
            raise NoPersonAttached(f"the MCP client could not ask the question ({exc})") from exc
        return Answer.parse(form_answer(card, response), card)
