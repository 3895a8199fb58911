"""The card model: bad cards are refused with a clear message; answers must fit their card."""

from __future__ import annotations

import pytest

from minitools.ask import MAX_OPTIONS, Answer, AnswerError, Card, CardError

GOOD = {"question": "Which database?", "options": [{"label": "postgres", "description": "the default"}, {"label": "sqlite"}]}


@pytest.mark.parametrize(
    "card, message",
    [
        ({"options": [{"label": "a"}]}, "needs a 'question'"),
        ({"question": "   ", "options": [{"label": "a"}]}, "blank"),
        ({"question": "q"}, "no options and does not allow free text"),
        ({"question": "q", "options": []}, "no options and does not allow free text"),
        ({"question": "q", "options": [{"label": ""}]}, "option 1 needs a non-empty label"),
        ({"question": "q", "options": [{"label": "a"}, {"label": "a"}]}, "labels must be unique"),
        ({"question": "q", "options": [{"label": "a", "colour": "red"}]}, "unknown fields"),
        ({"question": "q", "options": [{"label": "x" * 81}]}, "keep labels under 80"),
        ({"question": "q" * 1001, "allow_free_text": True}, "keep it under 1000"),
        ({"question": "q", "options": [{"label": str(i)} for i in range(MAX_OPTIONS + 1)]}, "at most 12"),
        ({"question": "q", "allow_free_text": "yes"}, "must be true or false"),
        ({"question": "q", "allow_free_text": True, "multi_select": True}, "multi_select needs options"),
        ({"question": "q", "kind": "poll", "allow_free_text": True}, "kind 'poll' is unknown"),
        ("what?", "a card is a JSON object"),
    ],
)
def test_bad_cards_are_refused_with_the_reason(card, message):
    with pytest.raises(CardError, match=message):
        Card.parse(card)


def test_a_good_card_round_trips():
    card = Card.parse(GOOD)
    assert card.labels == ["postgres", "sqlite"]
    assert Card.parse(card.to_dict()) == card
    assert Card.parse({"question": "Anything else?", "allow_free_text": True}).options == ()


@pytest.mark.parametrize(
    "answer, message",
    [
        ({"choices": []}, "empty"),
        ({}, "empty"),
        ({"choices": [], "text": "  "}, "empty"),
        ({"choices": ["mysql"]}, "does not offer"),
        ({"choices": ["postgres", "sqlite"]}, "allows only one"),
        ({"choices": ["sqlite"], "text": "hm"}, "does not allow free text"),
        ({"choices": "postgres"}, "list of labels"),
        (None, "an answer is an object"),
    ],
)
def test_answers_that_do_not_fit_the_card(answer, message):
    with pytest.raises(AnswerError, match=message):
        Answer.parse(answer, Card.parse(GOOD))


def test_answers_that_fit():
    card = Card.parse(dict(GOOD, multi_select=True, allow_free_text=True))
    assert Answer.parse({"choices": ["sqlite", "postgres"]}, card).choices == ("sqlite", "postgres")
    assert Answer.parse({"text": "neither"}, card).to_dict() == {"choices": [], "text": "neither"}
    assert Answer.parse({"skipped": True}, card).to_dict() == {"skipped": True}
