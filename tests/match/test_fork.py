"""The one-shot search (the CLI's): forked copies share the files out; the results are the
in-process search's; a child that fails costs only time; no child outlives the search; no
fork while another thread runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from minitools.match import Searcher, _fork, compile_pattern

FUNCTIONS = 200  # per file, and one more in each next file: some 700 KiB in all, worth a fork


def _tree(root: Path, n: int = 40) -> None:
    for i in range(n):
        d = root / f"pkg{i % 4}"
        d.mkdir(exist_ok=True)
        body = "".join(f"def f{j}(x):\n    if x is None:\n        return foo({i}, {j})\n    return x\n" for j in range(FUNCTIONS + i))
        (d / f"m{i}.py").write_text(body)
    (root / "pkg0" / "latin.py").write_bytes(b"foo('\xe9')\n")


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pids: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    return pids


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_one_shot_search_forks_and_finds_what_one_process_finds(tmp_path: Path, forks: list[int]) -> None:
    _tree(tmp_path)
    pattern = compile_pattern("if $X is None: $$$B", "python")
    alone = Searcher(tmp_path, workers=1).search(pattern)
    forked = Searcher(tmp_path, workers=2, one_shot=True).search(pattern)
    assert len(forks) == 1
    assert forked.matches == alone.matches and forked.total == alone.total > 2000
    assert (forked.files_searched, forked.files_matched, forked.skipped) == (40, 40, {"non-utf8": 1})
    assert all(_gone(pid) for pid in forks)


def _in_children(monkeypatch: pytest.MonkeyPatch, fail: Callable[[], None]) -> None:
    """Make every forked child call `fail` where it would search."""
    parent = os.getpid()
    real = Searcher.search_files

    def search_files(self: Searcher, pattern: object, files: object, *args: object, **kwargs: object) -> object:
        if os.getpid() != parent:
            fail()
        return real(self, pattern, files, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Searcher, "search_files", search_files)


def _run_out() -> None:
    raise MemoryError("the child ran out")


def test_a_failing_child_costs_time_not_results(tmp_path: Path, forks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path)
    _in_children(monkeypatch, _run_out)
    pattern = compile_pattern("foo($A, $B)", "python")
    result = Searcher(tmp_path, workers=3, one_shot=True).search(pattern)
    assert len(forks) == 2
    assert result.total == sum(FUNCTIONS + i for i in range(40))
    assert all(_gone(pid) for pid in forks)


def test_a_child_killed_mid_search_is_searched_again_in_process(tmp_path: Path, forks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path)
    _in_children(monkeypatch, lambda: os._exit(9))  # dies without a word
    result = Searcher(tmp_path, workers=2, one_shot=True).search(compile_pattern("foo($A, $B)", "python"))
    assert result.total == sum(FUNCTIONS + i for i in range(40))
    assert all(_gone(pid) for pid in forks)


def test_no_fork_while_another_thread_runs(tmp_path: Path, forks: list[int]) -> None:
    _tree(tmp_path)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not _fork.fork_available()
        result = Searcher(tmp_path, workers=2, one_shot=True).search(compile_pattern("foo($A, $B)", "python"))
    finally:
        stop.set()
        other.join()
    assert forks == [] and result.total == sum(FUNCTIONS + i for i in range(40))


def test_the_cli_output_is_the_in_process_search_s(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "pkg1" / "big.py").write_text("foo(1, 2)\n" * 3000)
    pattern = compile_pattern("foo($A, $B)", "python")
    alone = Searcher(tmp_path, workers=1).search(pattern)
    proc = subprocess.run(
        [sys.executable, "-m", "minitools", "ast-grep", "foo($A, $B)", ".", "--lang", "python", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [m.to_json() for m in alone.matches]


def test_a_forked_search_hands_out_runs_of_even_size_in_order() -> None:
    """The last run is no bigger than the others: filled to an even share one by one, the runs
    ran out three quarters of the way and the last took the rest, a tail one process spent
    alone (a quarter of the rxjs benchmark's search)."""
    from minitools.match._many_files import _runs

    sizes = [(i * 7919) % 9000 + 1000 for i in range(500)]  # 1-10 KB, as a package's files are
    files = [f"f{i}.ts" for i in range(len(sizes))]
    size_of = dict(zip(files, sizes))
    runs = _runs(files, sizes, 64)
    assert [f for run in runs for f in run] == files  # every file once, in order
    assert len(runs) <= 64
    share = sum(sizes) / 64
    weights = [sum(size_of[f] for f in run) for run in runs]
    assert max(weights) <= share + max(sizes), weights
    assert _runs(files[:10], sizes[:10], 64) == [[f] for f in files[:10]]
