"""A cancelled search stops: the cancel of a tool call reaches the thread that
searches, through the search's budget, and the shard workers that share the search, through
their pipes. No timings: each test waits, bounded, for the search to return, and asserts it
returned early, having searched only part of the files, saying why."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from minitools import Run
from minitools.match import FilesOutcome, Searcher, compile_pattern

DENSE = "".join(f"f(x{i})\n" for i in range(3000))  # about 30 KB of calls: a file takes a while


@pytest.fixture
def dense(tmp_path: Path) -> Path:
    for k in range(400):
        (tmp_path / f"m{k:03}.py").write_text(DENSE)
    return tmp_path


async def test_a_cancelled_tool_call_stops_its_search_thread(dense: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, returned = threading.Event(), threading.Event()
    outcomes: list[FilesOutcome] = []
    search_files = Searcher.search_files

    def watched(self: Searcher, *args: Any, **kwargs: Any) -> FilesOutcome:
        started.set()
        try:
            outcome = search_files(self, *args, **kwargs)
            outcomes.append(outcome)
            return outcome
        finally:
            returned.set()

    monkeypatch.setattr(Searcher, "search_files", watched)
    async with Run(dense, resources={"lsp": False, "parser": Searcher(dense, workers=1)}) as run:
        call = asyncio.ensure_future(run.call("ast_grep", {"pattern": "f($A)", "language": "python"}))
        assert await asyncio.to_thread(started.wait, 60)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert await asyncio.to_thread(returned.wait, 60)
    (outcome,) = outcomes
    assert outcome.stopped == "cancelled"
    assert outcome.searched < 400


def test_a_cancel_reaches_the_shard_workers(dense: Path) -> None:
    searcher = Searcher(dense, workers=3, pool_min_files=1, pool_min_bytes=0)
    try:
        pattern = compile_pattern("f($A)", "python")
        files = searcher.collect(None, "python")
        budget = searcher.budget()
        local = searcher.search_files

        def cancelled_while_the_workers_search(*args: Any, **kwargs: Any) -> FilesOutcome:
            budget.cancel()  # the workers have their shares by now: the cancel goes down their pipes
            return local(*args, **kwargs)

        searcher.search_files = cancelled_while_the_workers_search  # type: ignore[method-assign]
        result = searcher.search(pattern, files=files, budget=budget)
        assert result.stopped == "cancelled"
        assert result.files_searched < len(files) / 3  # the workers' two thirds stopped too
        # the workers go on serving: the next search is answered in full
        del searcher.search_files
        whole = searcher.search(pattern, files=files[:100], budget=searcher.budget(10))
        assert whole.stopped is None and whole.total == 100 * 3000
    finally:
        searcher.close()
