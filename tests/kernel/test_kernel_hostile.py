"""Cells that try to take the machine: a kernel's memory is bounded (kernel_memory_mb), the cell
that reaches the bound fails with a note saying so, and the kernel lives on with its state (a
Python cell) or is reported lost (a JavaScript one, whose engine aborts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import cell
from minitools import Run

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


async def test_a_javascript_cell_that_grows_without_bound_loses_its_kernel_loudly(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_memory_mb=512) as run:
        grown = await run.call("eval", cell("const a = []; while (true) a.push(new Array(1e6).fill(1));",
                                            language="javascript"))
        after = await run.call("eval", cell("1 + 1", language="javascript"))
    assert not grown.ok and "KERNEL DIED" in grown.text and "STATE LOST" in grown.text, grown.text[:600]
    assert after.ok and "STATE LOST" in after.text and "Out: 2" in after.text
