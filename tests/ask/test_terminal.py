"""The terminal port, driven through a real pseudo-terminal as a person would type."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap

import pytest

from minitools.ask import Answer, Card, NoPersonAttached, QuestionTimeout, TerminalPort

CARD_DICT = {"question": "Which database?", "context": "the service needs one",
             "options": [{"label": "postgres", "description": "the default"}, {"label": "sqlite"}, {"label": "none"}]}
CARD = Card.parse(CARD_DICT)


async def test_a_number_chooses_an_option_after_a_bad_reply(pty_pair):
    driver, tty = pty_pair
    port = TerminalPort(tty)
    assert port.is_attached()
    asking = asyncio.create_task(port.ask(CARD, timeout=30))
    shown = await driver.expect("> ")
    assert "Which database?" in shown and "1. postgres - the default" in shown and "3. none" in shown
    assert "(the service needs one)" in shown and "s to skip" in shown
    driver.type("7")
    await driver.expect("there is no option 7")
    driver.type("1 2")
    await driver.expect("choose one option only")
    driver.type("2")
    assert await asking == Answer(choices=("sqlite",))


async def test_multi_select_free_text_and_skip(pty_pair):
    driver, tty = pty_pair
    port = TerminalPort(tty)
    multi = asyncio.create_task(port.ask(Card.parse(dict(CARD_DICT, multi_select=True)), timeout=30))
    await driver.expect("numbers 1-3 separated by spaces")
    driver.type("3, 1")
    assert await multi == Answer(choices=("none", "postgres"))

    free = asyncio.create_task(port.ask(Card.parse(dict(CARD_DICT, allow_free_text=True)), timeout=30))
    await driver.expect("your own answer")
    driver.type("")  # an empty line is not an answer: asked again
    await driver.expect("> ")
    driver.type("mariadb, for now")
    assert await free == Answer(text="mariadb, for now")

    skipped = asyncio.create_task(port.ask(CARD, timeout=30))
    await driver.expect("> ")
    driver.type("banana")  # no free text on this card
    await driver.expect("Type a number 1-3")
    driver.type("s")
    assert await skipped == Answer(skipped=True)


async def test_timeout_withdraws_the_question(pty_pair):
    driver, tty = pty_pair
    with pytest.raises(QuestionTimeout):
        await TerminalPort(tty).ask(CARD, timeout=0.2)
    await driver.expect("the question was withdrawn")


async def test_a_terminal_that_hangs_up_means_nobody_is_attached():
    import pty

    master, slave = pty.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    port = TerminalPort(name)
    asking = asyncio.create_task(port.ask(CARD, timeout=30))
    # the port has the slave open once the card is shown; then the person's side goes away
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    loop.add_reader(master, lambda: ready.done() or ready.set_result(None))
    await asyncio.wait_for(ready, 10)
    loop.remove_reader(master)
    os.close(master)
    with pytest.raises(NoPersonAttached):
        await asyncio.wait_for(asking, 10)


CHILD = textwrap.dedent("""
    import asyncio, json, os, sys
    # become a session leader whose controlling terminal is the pty, as a login shell is
    fd = os.open(sys.argv[1], os.O_RDWR)
    from minitools.ask import Card, TerminalPort
    port = TerminalPort()  # the default: /dev/tty
    card = Card.parse(json.loads(sys.argv[2]))
    answer = asyncio.run(port.ask(card, timeout=30))
    with open(sys.argv[3], "w") as out:
        json.dump({"attached": port.is_attached(), "answer": answer.to_dict()}, out)
""")


async def test_the_default_port_asks_on_the_controlling_terminal(pty_pair, tmp_path):
    driver, tty = pty_pair
    out = tmp_path / "answer.json"
    child = subprocess.Popen([sys.executable, "-c", CHILD, tty, json.dumps(CARD_DICT), str(out)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        await driver.expect("Which database?", timeout=30)
        await driver.expect("> ")
        driver.type("1")
        code = await asyncio.wait_for(asyncio.to_thread(child.wait), 30)
    finally:
        child.kill()
        child.wait()
    assert code == 0
    assert json.loads(out.read_text()) == {"attached": True, "answer": {"choices": ["postgres"]}}


def test_without_a_controlling_terminal_nobody_is_attached():
    probe = "from minitools.ask import TerminalPort; print(TerminalPort().is_attached())"
    done = subprocess.run([sys.executable, "-c", probe], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, start_new_session=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


async def test_a_permission_card_on_the_terminal_allows_then_denies_a_write(pty_pair, tmp_path):
    from collections.abc import Mapping
    from typing import Any

    from minitools import Run, Tier, Tool, ToolResult, ToolSpec

    async def write_note(args: Mapping[str, Any]) -> ToolResult:
        (tmp_path / args["name"]).write_text("x")
        return ToolResult(ok=True, text="wrote it")

    spec = ToolSpec("write_note", Tier.WRITE, "Write a note.", {
        "type": "object", "additionalProperties": False, "required": ["name"],
        "properties": {"name": {"type": "string", "description": "file name"}}})
    driver, tty = pty_pair
    async with Run(tmp_path, questions=TerminalPort(tty), tools=[Tool(spec, write_note)]) as run:
        allowed = asyncio.create_task(run.call("write_note", {"name": "a.txt"}))
        shown = await driver.expect("> ")
        assert "Permission needed" in shown and "Allow `write_note` to change files?" in shown
        assert "1. allow once" in shown and "3. deny" in shown and "name='a.txt'" in shown
        driver.type("1")
        assert (await allowed).ok
        denied = asyncio.create_task(run.call("write_note", {"name": "b.txt"}))
        await driver.expect("> ")
        driver.type("3")
        result = await denied
    assert not result.ok and "denied" in result.text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
