"""The question card and its answer: one shape everywhere (docs/architecture.md, "The contract").

    card   = {kind: "question" | "permission", question, context?, options: [{label, description?}],
              allow_free_text, multi_select}
    answer = {choices: [label, ...], text?} | {skipped: true}

A bad card is the asker's fault and is refused before anyone is shown it (`CardError`);
a bad answer is the answerer's fault (`AnswerError`). An empty answer is never valid:
a person either chose, typed, or skipped (docs/reference.md, "Questions and workers": empty answers once read as success).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Card",
    "Option",
    "Answer",
    "CardError",
    "AnswerError",
    "MAX_QUESTION",
    "MAX_CONTEXT",
    "MAX_OPTIONS",
    "MAX_LABEL",
    "MAX_DESCRIPTION",
    "MAX_TEXT",
]

MAX_QUESTION = 1000
MAX_CONTEXT = 4000
MAX_OPTIONS = 12
MAX_LABEL = 80
MAX_DESCRIPTION = 300
MAX_TEXT = 10000  # a typed answer
KINDS = ("question", "permission")


class CardError(ValueError):
    """The card cannot be shown as it is; the message says which field and how to fix it."""


class AnswerError(ValueError):
    """The answer does not fit the card it answers (unknown label, empty, several for one)."""


def _text(card: Mapping[str, Any], key: str, limit: int, *, required: bool) -> str | None:
    value = card.get(key)
    if value is None or (value == "" and not required):
        if required:
            raise CardError(f"the card needs a {key!r}: a non-empty string")
        return None
    if not isinstance(value, str):
        raise CardError(f"the card's {key!r} must be a string, got {type(value).__name__}")
    if required and not value.strip():
        raise CardError(f"the card's {key!r} is blank; write what you want to ask")
    if len(value) > limit:
        raise CardError(f"the card's {key!r} is {len(value)} characters; keep it under {limit}")
    return value


@dataclass(frozen=True)
class Option:
    label: str
    description: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label}
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Card:
    """A validated card. Build one with `Card.parse(dict)`."""

    question: str
    options: tuple[Option, ...] = ()
    context: str | None = None
    allow_free_text: bool = False
    multi_select: bool = False
    kind: str = "question"

    @classmethod
    def parse(cls, card: Mapping[str, Any]) -> Card:
        """Validate a card dict; raise `CardError` naming the first problem."""
        if not isinstance(card, Mapping):
            raise CardError(f"a card is a JSON object, got {type(card).__name__}")
        kind = card.get("kind", "question")
        if kind not in KINDS:
            raise CardError(f"the card's kind {kind!r} is unknown; use 'question' or 'permission'")
        question = _text(card, "question", MAX_QUESTION, required=True)
        context = _text(card, "context", MAX_CONTEXT, required=False)
        flags = {}
        for key in ("allow_free_text", "multi_select"):
            value = card.get(key, False)
            if not isinstance(value, bool):
                raise CardError(f"the card's {key!r} must be true or false, got {value!r}")
            flags[key] = value
        raw = card.get("options", [])
        if raw is None:
            raw = []
        if not isinstance(raw, (list, tuple)):
            raise CardError(f"the card's 'options' must be a list of {{label, description?}}, got {type(raw).__name__}")
        if len(raw) > MAX_OPTIONS:
            raise CardError(f"the card has {len(raw)} options; give at most {MAX_OPTIONS} (a person reads them all)")
        options: list[Option] = []
        seen: set[str] = set()
        for i, item in enumerate(raw, 1):
            if isinstance(item, str):
                item = {"label": item}
            if not isinstance(item, Mapping):
                raise CardError(f"option {i} must be an object {{label, description?}}, got {item!r}")
            extra = set(item) - {"label", "description"}
            if extra:
                raise CardError(f"option {i} has unknown fields {sorted(extra)}; an option has label and description")
            label = item.get("label")
            if not isinstance(label, str) or not label.strip():
                raise CardError(f"option {i} needs a non-empty label, got {label!r}")
            label = label.strip()
            if len(label) > MAX_LABEL:
                raise CardError(f"option {i}'s label is {len(label)} characters; keep labels under {MAX_LABEL}")
            if label in seen:
                raise CardError(f"two options are labelled {label!r}; labels must be unique, since the answer names them")
            seen.add(label)
            description = item.get("description")
            if description is not None:
                if not isinstance(description, str):
                    raise CardError(f"option {i}'s description must be a string, got {description!r}")
                if len(description) > MAX_DESCRIPTION:
                    raise CardError(f"option {i}'s description is {len(description)} characters; keep it under {MAX_DESCRIPTION}")
            options.append(Option(label, description or None))
        if not options and not flags["allow_free_text"]:
            raise CardError("the card has no options and does not allow free text, so it cannot be answered; "
                            "give at least one option or set allow_free_text")
        if flags["multi_select"] and not options:
            raise CardError("multi_select needs options to select from")
        return cls(question=question or "", options=tuple(options), context=context, kind=kind, **flags)

    @property
    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "question": self.question}
        if self.context:
            out["context"] = self.context
        out["options"] = [o.to_dict() for o in self.options]
        out["allow_free_text"] = self.allow_free_text
        out["multi_select"] = self.multi_select
        return out


@dataclass(frozen=True)
class Answer:
    """A validated answer: chosen labels (verbatim) and typed text, or a skip."""

    choices: tuple[str, ...] = ()
    text: str | None = None
    skipped: bool = False

    @classmethod
    def parse(cls, answer: Any, card: Card) -> Answer:
        """Check `answer` against `card`; raise `AnswerError` for anything a person did not say."""
        if not isinstance(answer, Mapping):
            raise AnswerError(f"an answer is an object {{choices, text?}} or {{skipped: true}}, got {answer!r}")
        if answer.get("skipped") is True:
            return cls(skipped=True)
        choices = answer.get("choices", [])
        if choices is None:
            choices = []
        if not isinstance(choices, (list, tuple)) or not all(isinstance(c, str) for c in choices):
            raise AnswerError(f"an answer's choices are a list of labels, got {choices!r}")
        unknown = [c for c in choices if c not in card.labels]
        if unknown:
            raise AnswerError(f"the answer chose {unknown!r}, which the card does not offer (options: {card.labels!r})")
        if len(set(choices)) != len(choices):
            raise AnswerError(f"the answer chose the same option twice: {list(choices)!r}")
        if len(choices) > 1 and not card.multi_select:
            raise AnswerError(f"the answer chose {len(choices)} options but the card allows only one")
        text = answer.get("text")
        if text is not None and not isinstance(text, str):
            raise AnswerError(f"an answer's text must be a string, got {text!r}")
        if text is not None and not text.strip():
            text = None
        if text is not None:
            if not card.allow_free_text:
                raise AnswerError("the answer has typed text but the card does not allow free text")
            if len(text) > MAX_TEXT:
                raise AnswerError(f"the typed answer is {len(text)} characters; the limit is {MAX_TEXT}")
        if not choices and text is None:
            raise AnswerError("the answer is empty: it neither chose an option nor typed text nor skipped")
        return cls(choices=tuple(choices), text=text)

    def to_dict(self) -> dict[str, Any]:
        if self.skipped:
            return {"skipped": True}
        out: dict[str, Any] = {"choices": list(self.choices)}
        if self.text is not None:
            out["text"] = self.text
        return out
