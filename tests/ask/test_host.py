"""The host port with an in-memory host: the card goes out as an `ask` request, the answer is checked."""

from __future__ import annotations

import asyncio

import pytest

from minitools.ask import Answer, AnswerError, Card, HostPort, NoPersonAttached, QuestionTimeout

CARD_DICT = {"kind": "question", "question": "Ship it?", "options": [{"label": "yes"}, {"label": "no"}],
             "allow_free_text": False, "multi_select": False}
CARD = Card.parse(CARD_DICT)


async def test_sends_the_card_as_an_ask_request_and_returns_the_answer():
    sent = []

    async def send(method, params):
        sent.append((method, params))
        return {"choices": ["yes"]}

    port = HostPort(send)
    assert port.destination == "host" and port.is_attached()
    assert await port.ask(CARD) == Answer(choices=("yes",))
    assert sent == [("ask", CARD_DICT)]


async def test_a_host_error_means_nobody_could_be_asked():
    async def send(method, params):
        raise RuntimeError("method 'ask' not found")

    with pytest.raises(NoPersonAttached, match="method 'ask' not found"):
        await HostPort(send).ask(CARD)


async def test_timeout_and_bad_answers():
    never = asyncio.Event()

    async def silent(method, params):
        await never.wait()

    with pytest.raises(QuestionTimeout):
        await HostPort(silent).ask(CARD, timeout=0.05)

    async def empty(method, params):
        return {"choices": []}

    with pytest.raises(AnswerError, match="empty"):
        await HostPort(empty).ask(CARD)

    async def unoffered(method, params):
        return {"choices": ["maybe"]}

    with pytest.raises(AnswerError, match="does not offer"):
        await HostPort(unoffered).ask(CARD)



def test_attached_follows_the_hosts_callable():
    attached = [False]
    port = HostPort(lambda m, p: None, attached=lambda: attached[0])  # type: ignore[arg-type,return-value]
    assert not port.is_attached()
    attached[0] = True
    assert port.is_attached()
