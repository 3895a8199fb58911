"""Cells that try to take the machine: a kernel's memory is bounded (kernel_memory_mb), the cell
that reaches the bound fails with a note saying so, and the kernel lives on with its state (a
Python cell) or is reported lost (a JavaScript one, whose engine aborts)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import cell
from minitools import Run
from minitools.kernel import CellOutput, KernelPool
from minitools.kernel._output import KEPT_OUTPUTS

GROWERS = {
    # Python 3.11 keeps frames on the heap: recursion under a limit of 10**9 took 10 GB in 20 s
    "recursion": "import sys\nsys.setrecursionlimit(10**9)\ndef down(n):\n    return down(n + 1)\ndown(0)",
    "a list that never stops": "grow = []\nwhile True:\n    grow.append(bytearray(10**6))",
}


@pytest.mark.parametrize("grower", list(GROWERS))
async def test_a_python_cell_that_grows_without_bound_stops_at_the_kernels_memory(tmp_path: Path, grower: str) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_memory_mb=256) as run:
        await run.call("eval", cell("kept = 41"))
        grown = await run.call("eval", cell(GROWERS[grower]))
        after = await run.call("eval", cell("grow = None\nkept + 1"))
    assert not grown.ok and "OUT OF MEMORY" in grown.text and "256 MB (kernel_memory_mb)" in grown.text, grown.text[-600:]
    assert after.ok and "Out: 42" in after.text and "STATE LOST" not in after.text, after.text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
async def test_a_javascript_cell_that_grows_without_bound_loses_its_kernel_loudly(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_memory_mb=512) as run:
        grown = await run.call("eval", cell("const a = []; while (true) a.push(new Array(1e6).fill(1));",
                                            language="javascript"))
        after = await run.call("eval", cell("1 + 1", language="javascript"))
    assert not grown.ok and "KERNEL DIED" in grown.text and "STATE LOST" in grown.text, grown.text[:600]
    assert after.ok and "STATE LOST" in after.text and "Out: 2" in after.text



def test_a_cell_that_prints_forever_saves_a_bounded_file_and_old_files_go(tmp_path: Path) -> None:
    # the file holding a capped cell's output grew as long as the cell printed (1 GB for 1 GB),
    # and every capped cell of a Run kept its own
    big = CellOutput(1000, tmp_path / "out.txt", max_saved=10_000)
    for _ in range(100):
        big.write("x" * 1000 + "\n")
    big.close()
    assert (tmp_path / "out.txt").stat().st_size == 10_000
    assert "the first 10000 of its 100100 characters are in" in big.text() and "no more is saved" in big.text()
    pool = KernelPool(tmp_path, spill_dir=tmp_path / "spill")
    for _ in range(KEPT_OUTPUTS + 5):
        output = pool.new_output("python", 200)
        output.write("y" * 300)
        output.close()
    assert len(list((tmp_path / "spill").iterdir())) == KEPT_OUTPUTS
    assert output.spill_path.exists() and "the full output (300 characters)" in output.text()


JS_STOPPERS = {
    # node ended on the budget's SIGINT (state lost) while the cell held the event loop
    "a loop that never yields": "var kept = 5; while (true) {}",
    "an await that never settles": "var kept = 5; await new Promise(() => {})",
}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("stopper", list(JS_STOPPERS))
async def test_a_javascript_cell_past_its_budget_is_interrupted_and_the_kernel_keeps_its_state(
        tmp_path: Path, stopper: str) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_budget=1,
                   kernel_interrupt_grace=5) as run:
        stopped = await run.call("eval", cell(JS_STOPPERS[stopper], language="javascript"))
        after = await run.call("eval", cell("kept + 1", language="javascript"))
    assert not stopped.ok and stopped.data["status"] == "interrupted" and "INTERRUPTED" in stopped.text, stopped.text
    assert "STATE LOST" not in stopped.text
    assert after.ok and "Out: 6" in after.text and "STATE LOST" not in after.text, after.text


async def _until(condition: Callable[[], bool], bound: float = 10.0) -> None:
    """Wait until `condition` holds, `bound` seconds at most (the caller asserts what it needs)."""
    deadline = time.monotonic() + bound
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def _running(token: str) -> list[int]:
    """The live processes whose command line holds `token`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if token.encode() in handle.read():
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("setsid") is None, reason="node or setsid is not installed")
async def test_what_a_cell_starts_outside_the_kernels_process_group_dies_with_the_run(tmp_path: Path) -> None:
    # a child that called setsid, or that node spawned detached, outlived the Run (init adopted it)
    token = f"{300 + os.getpid() % 600}.{os.getpid()}"  # sleep's argument: this test's own
    escapes = [
        cell(f"import os\nif os.fork() == 0:\n    os.setsid()\n    os.execvp('sleep', ['sleep', '{token}'])"),
        cell(f"import subprocess\nsubprocess.Popen(['setsid', 'sleep', '{token}'])"),
        cell(f"require('child_process').spawn('sleep', ['{token}'], {{detached: true}}).unref()", language="javascript"),
    ]
    try:
        async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}) as run:
            for escape in escapes:
                started = await run.call("eval", escape)
                assert started.ok, started.text
            await _until(lambda: len(_running(token)) == 3)  # they run while the Run does
        await _until(lambda: not _running(token))
        assert _running(token) == []
    finally:
        for pid in _running(token):
            os.kill(pid, signal.SIGKILL)


async def test_what_a_cell_sends_the_run_never_costs_the_kernel(tmp_path: Path) -> None:
    # one print of 100 MB, a display or tool() arguments over the host's 64 MiB frame: the host
    # refused the frame and killed the kernel, state lost, with no word of why; arguments that are
    # not JSON raised the protocol's own error from inside minitools
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_max_output=1000) as run:
        printed = await run.call("eval", cell("kept = 1\nprint('x' * 100_000_000)"))
        shown = await run.call("eval", cell("display({'text/plain': 'y' * 100_000_000}, raw=True)"))
        sent = await run.call("eval", cell("tool('ast_grep', {'pattern': 'x' * 100_000_000})"))
        odd = await run.call("eval", cell("tool('ast_grep', {'pattern': {1, 2}})"))
        after = await run.call("eval", cell("kept + 1"))
    assert printed.ok and printed.data["output_chars"] == 100_000_001, printed.text[-300:]
    assert not shown.ok and "display: the output is 100,000,109 bytes, over the" in shown.text and "show less" in shown.text
    assert not sent.ok and "tool('ast_grep', ...): the arguments are 100,000,096 bytes" in sent.text
    assert not odd.ok and "the arguments are not JSON" in odd.text and "set" in odd.text and "_framing" not in odd.text
    assert after.ok and "Out: 2" in after.text and "STATE LOST" not in after.text, after.text


async def test_threads_of_a_cell_calling_tools_at_once_each_get_their_answer(tmp_path: Path) -> None:
    # each thread read the channel and dropped the replies meant for the others: the cell hung
    # until the budget killed the kernel
    (tmp_path / "a.py").write_text("print(1)\n")
    code = ("import threading\nfound = []\n"
            "def ask(n):\n    found.append((n, tool('ast_grep', {'pattern': 'print($A)', 'language': 'python'}).ok))\n"
            "threads = [threading.Thread(target=ask, args=(n,)) for n in range(20)]\n"
            "for t in threads: t.start()\nfor t in threads: t.join()\nsorted(found) == [(n, True) for n in range(20)]")
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_budget=20) as run:
        asked = await run.call("eval", cell(code))
    assert asked.ok and "Out: True" in asked.text, asked.text


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
async def test_what_a_javascript_cell_sends_the_run_never_costs_the_kernel(tmp_path: Path) -> None:
    # console.log of 100 MB, or tool() arguments as large: the host killed the kernel, state lost
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_max_output=1000) as run:
        printed = await run.call("eval", cell("var kept = 1; console.log('x'.repeat(100_000_000))", language="javascript"))
        sent = await run.call("eval", cell("await tool('ast_grep', {pattern: 'x'.repeat(100_000_000)})",
                                           language="javascript"))
        after = await run.call("eval", cell("kept + 1", language="javascript"))
    assert printed.ok and printed.data["output_chars"] == 100_000_001, printed.text[-300:]
    assert not sent.ok and 'tool("ast_grep", ...): the arguments are 100,000,067 bytes, over the' in sent.text, sent.text
    assert after.ok and "Out: 2" in after.text and "STATE LOST" not in after.text, after.text
