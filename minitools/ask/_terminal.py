"""The terminal port: a numbered card on the controlling terminal, answered by typing.

The card is written to ``/dev/tty`` (not stdout, which may be a pipe or a protocol channel)
and the answer read from it: numbers (several, separated by spaces or commas, when the card
allows multi-select), typed text when allowed, or ``s`` to skip. Reading goes through the
event loop, so a timeout really stops waiting and nothing is left blocked in a thread.
"""

from __future__ import annotations

import asyncio
import errno
import os
import re

from minitools.ask._card import Answer, Card
from minitools.ask._port import NoPersonAttached, QuestionTimeout

__all__ = ["TerminalPort", "render_card", "parse_reply"]

SKIP_WORDS = ("s", "skip")


def render_card(card: Card) -> str:
    """The card as a person sees it on a terminal."""
    title = "Permission needed" if card.kind == "permission" else "Question"
    lines = ["", f"== {title} ==", card.question]
    if card.context:
        lines.append(f"  ({card.context})")
    for i, option in enumerate(card.options, 1):
        desc = f" - {option.description}" if option.description else ""
        lines.append(f"  {i}. {option.label}{desc}")
    lines.append(_hint(card))
    return "\n".join(lines) + "\n"


def _hint(card: Card) -> str:
    ways = []
    if card.options:
        n = len(card.options)
        ways.append(f"numbers 1-{n} separated by spaces" if card.multi_select else f"a number 1-{n}")
    if card.allow_free_text:
        ways.append("your own answer")
    ways.append("s to skip")
    return "Type " + ", or ".join(ways) + ", then Enter."


class _Retry(Exception):
    """The reply cannot be used; the message says why, and the person is asked again."""


def parse_reply(line: str, card: Card) -> Answer | None:
    """One typed line as an answer; None for an empty line. Raises `_Retry` for a bad one."""
    reply = line.strip()
    if not reply:
        return None
    if reply.lower() in SKIP_WORDS:
        return Answer(skipped=True)
    tokens = [t for t in re.split(r"[\s,]+", reply) if t]
    if card.options and all(t.isdigit() for t in tokens):
        numbers = [int(t) for t in tokens]
        bad = [n for n in numbers if not 1 <= n <= len(card.options)]
        if bad:
            raise _Retry(f"there is no option {bad[0]}; choose from 1 to {len(card.options)}")
        if len(numbers) > 1 and not card.multi_select:
            raise _Retry("choose one option only")
        labels = list(dict.fromkeys(card.options[n - 1].label for n in numbers))
        return Answer(choices=tuple(labels))
    if card.allow_free_text:
        return Answer(text=reply)
    raise _Retry(_hint(card))


class TerminalPort:
    """Asks on the controlling terminal (``/dev/tty``); used by the CLI.

    A person is attached when the terminal can be opened. Questions are asked one at a time.
    """

    def __init__(self, tty: str = "/dev/tty", *, destination: str | None = "terminal") -> None:
        self.tty = tty
        self.destination = destination
        self._lock: asyncio.Lock | None = None

    def is_attached(self) -> bool:
        try:
            fd = os.open(self.tty, os.O_RDWR | os.O_NOCTTY)
        except OSError:
            return False
        os.close(fd)
        return True

    async def ask(self, card: Card, timeout: float | None = None) -> Answer:
        """Show the card and wait for a usable reply (or a skip, or the timeout)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            try:
                fd = os.open(self.tty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            except OSError as exc:
                raise NoPersonAttached(f"no terminal to ask on ({self.tty}: {exc.strerror})") from None
            try:
                return await self._dialog(fd, card, timeout)
            finally:
                os.close(fd)

    async def _dialog(self, fd: int, card: Card, timeout: float | None) -> Answer:
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[bytes] = asyncio.Queue()

        def readable() -> None:
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno != errno.EIO:  # EIO: the terminal hung up
                    raise
                data = b""
            if not data:
                loop.remove_reader(fd)
            chunks.put_nowait(data)

        async def converse() -> Answer:
            _write(fd, render_card(card) + "> ")
            pending = b""
            while True:
                data = await chunks.get()
                if not data:
                    raise NoPersonAttached("the terminal closed before an answer was given")
                pending += data
                while b"\n" in pending:
                    raw, pending = pending.split(b"\n", 1)
                    try:
                        answer = parse_reply(raw.decode("utf-8", "replace"), card)
                    except _Retry as retry:
                        _write(fd, f"{retry}\n> ")
                        continue
                    if answer is None:
                        _write(fd, "> ")
                        continue
                    return answer

        loop.add_reader(fd, readable)
        try:
            return await asyncio.wait_for(converse(), timeout)
        except asyncio.TimeoutError:
            _write(fd, f"\n(no answer within {timeout:g} s; the question was withdrawn)\n")
            raise QuestionTimeout(f"no answer on the terminal within {timeout:g} s") from None
        finally:
            loop.remove_reader(fd)


def _write(fd: int, text: str) -> None:
    data = text.replace("\n", "\r\n").encode("utf-8")
    while data:
        try:
            data = data[os.write(fd, data):]
        except BlockingIOError:
            continue  # a full terminal buffer drains quickly; the text is short
        except OSError:
            return  # the terminal went away; reading will say so
