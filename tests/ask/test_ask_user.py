"""ask_user and permission cards through Run.call, with a callable port."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools import Run, Tier, Tool, ToolResult, ToolSpec
from minitools.ask import CallablePort

DB = {"question": "Which database?", "options": [{"label": "postgres"}, {"label": "sqlite"}]}


def write_note(root: Path) -> Tool:
    async def handler(args: Mapping[str, Any]) -> ToolResult:
        (root / args["name"]).write_text(args["text"])
        return ToolResult(ok=True, text=f"wrote {args['name']}")

    spec = ToolSpec("write_note", Tier.WRITE, "Write a note.", {
        "type": "object", "additionalProperties": False, "required": ["name", "text"],
        "properties": {"name": {"type": "string", "description": "file name"},
                       "text": {"type": "string", "description": "its text"}}})
    return Tool(spec, handler)


async def test_registered_only_with_a_port_and_a_destination(tmp_path):
    async with Run(tmp_path) as run:
        assert "ask_user" not in [s.name for s in run.tools()]
    async with Run(tmp_path, questions=CallablePort(lambda c: {"skipped": True}, destination=None)) as run:
        assert "ask_user" not in [s.name for s in run.tools()]
    async with Run(tmp_path, questions=lambda c: {"skipped": True}) as run:
        spec = next(s for s in run.tools("plan") if s.name == "ask_user")
        assert spec.tier is Tier.READ


async def test_an_answer_returns_the_labels_verbatim(tmp_path):
    cards = []

    def person(card):
        cards.append(card)
        return {"choices": ["sqlite", "postgres"]} if card["multi_select"] else {"choices": ["sqlite"]}

    async with Run(tmp_path, questions=person) as run:
        one = await run.call("ask_user", DB)
        many = await run.call("ask_user", dict(DB, multi_select=True))
    assert one.ok and one.data == {"skipped": False, "choices": ["sqlite"], "text": None}
    assert '"sqlite"' in one.text
    assert many.ok and many.data["choices"] == ["sqlite", "postgres"]
    assert cards[0]["kind"] == "question" and cards[0]["options"] == DB["options"]


async def test_free_text_skip_and_async_callables(tmp_path):
    async def person(card):
        await asyncio.sleep(0)
        return {"skipped": True} if "later" in card["question"] else {"choices": [], "text": "use mariadb"}

    async with Run(tmp_path, questions=person) as run:
        typed = await run.call("ask_user", dict(DB, allow_free_text=True))
        skipped = await run.call("ask_user", {"question": "Decide later?", "allow_free_text": True})
    assert typed.ok and typed.data["text"] == "use mariadb" and "use mariadb" in typed.text
    assert skipped.ok and skipped.data["skipped"] is True
    assert "stated assumption" in skipped.text and "do not ask this question again" in skipped.text


async def test_timeout_is_an_error_with_the_same_instruction(tmp_path):
    never = asyncio.Event()

    async def asleep(card):
        await never.wait()

    async with Run(tmp_path, questions=asleep, question_timeout=0.1) as run:
        result = await run.call("ask_user", DB)
    assert not result.ok and result.data["timed_out"] is True
    assert "within 0.1 s" in result.text and "stated assumption" in result.text


async def test_no_person_attached_fails_at_once(tmp_path):
    asked = []
    port = CallablePort(lambda c: asked.append(c) or {"choices": ["sqlite"]}, attached=lambda: False)
    async with Run(tmp_path, questions=port) as run:
        result = await run.call("ask_user", DB)
    assert not result.ok and "No person is attached" in result.text and asked == []


async def test_an_empty_answer_is_never_success(tmp_path):
    async with Run(tmp_path, questions=lambda c: {"choices": []}) as run:
        result = await run.call("ask_user", DB)
    assert not result.ok and "empty" in result.text


async def test_an_invalid_card_is_refused_before_anyone_is_asked(tmp_path):
    asked = []
    async with Run(tmp_path, questions=lambda c: asked.append(c) or {"skipped": True}) as run:
        dup = await run.call("ask_user", {"question": "?", "options": [{"label": "a"}, {"label": "a"}]})
        none = await run.call("ask_user", {"question": "Anything?"})
        blank = await run.call("ask_user", {"question": "q", "options": [{"label": "   "}]})
    assert not dup.ok and "unique" in dup.text
    assert not none.ok and "allow_free_text" in none.text
    assert not blank.ok and "non-empty label" in blank.text
    assert asked == []


async def test_a_permission_card_allows_and_denies_a_write(tmp_path):
    cards = []
    answers = iter([{"choices": ["allow once"]}, {"choices": ["deny"]}, {"choices": ["maybe"]}])

    def person(card):
        cards.append(card)
        return next(answers)

    async with Run(tmp_path, questions=person, tools=[write_note(tmp_path)]) as run:
        allowed = await run.call("write_note", {"name": "a.txt", "text": "hello"})
        denied = await run.call("write_note", {"name": "b.txt", "text": "nope"})
        garbled = await run.call("write_note", {"name": "c.txt", "text": "nope"})
    assert allowed.ok and (tmp_path / "a.txt").read_text() == "hello"
    assert not denied.ok and "denied" in denied.text and "Nothing was done" in denied.text
    assert not garbled.ok and "could not be understood" in garbled.text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    card = cards[0]
    assert card["kind"] == "permission" and "write_note" in card["question"]
    assert "name='a.txt'" in card["context"]
    assert [o["label"] for o in card["options"]] == ["allow once", "allow for this run", "deny"]


async def test_a_permission_card_with_nobody_attached_fails_closed(tmp_path):
    port = CallablePort(lambda c: {"choices": ["allow once"]}, attached=lambda: False)
    async with Run(tmp_path, questions=port, tools=[write_note(tmp_path)]) as run:
        result = await run.call("write_note", {"name": "a.txt", "text": "x"})
    assert not result.ok and "no person is attached" in result.text
    assert not (tmp_path / "a.txt").exists()


async def test_a_callable_that_raises_stop_iteration_ends_the_call(tmp_path):
    # a callable answering from an iterator that ran out: asyncio.to_thread cannot pass a
    # StopIteration on, so the call waited forever
    answers = iter([{"choices": ["postgres"]}])
    async with Run(tmp_path, questions=lambda card: next(answers), strict=False) as run:
        first = await asyncio.wait_for(run.call("ask_user", DB), 10)
        second = await asyncio.wait_for(run.call("ask_user", DB), 10)
    assert first.ok and second.ok is False and "StopIteration" in second.text, second.text
