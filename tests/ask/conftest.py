"""A pseudo-terminal the tests type into, as a person would."""

from __future__ import annotations

import asyncio
import os
import pty
from collections.abc import Iterator

import pytest


class PtyDriver:
    """The person's side of a pseudo-terminal: read what is shown, type replies."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.seen = ""
        self._offset = 0

    async def expect(self, text: str, timeout: float = 10.0) -> str:
        """Wait until `text` has been shown since the last expect; return what came before it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.seen[self._offset:]:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{text!r} never appeared; the terminal showed {self.seen[self._offset:]!r}")
            ready = loop.create_future()
            loop.add_reader(self.master, lambda fut=ready: fut.done() or fut.set_result(None))
            try:
                await asyncio.wait_for(ready, remaining)
            except asyncio.TimeoutError:
                continue
            finally:
                loop.remove_reader(self.master)
            try:
                self.seen += os.read(self.master, 4096).decode("utf-8", "replace")
            except OSError:
                raise AssertionError(f"the terminal closed before {text!r} appeared; it showed {self.seen!r}") from None
        end = self.seen.index(text, self._offset) + len(text)
        before = self.seen[self._offset:end]
        self._offset = end
        return before

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode("utf-8"))


@pytest.fixture
def pty_pair() -> Iterator[tuple[PtyDriver, str]]:
    master, slave = pty.openpty()
    try:
        yield PtyDriver(master), os.ttyname(slave)
    finally:
        os.close(slave)
        os.close(master)
