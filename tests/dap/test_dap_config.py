"""A debug adapter the configuration file adds ([[debug.adapters]]): the real debugpy adapter run
as an adapter of `.pyw` programs, which no built-in debugs, listed by `debug adapters`, chosen
from the program's suffix and by `adapter=`, and driven through a breakpoint."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from minitools import Run

PROG = "def total(numbers):\n    acc = 0\n    for x in numbers:\n        acc += x\n    return acc\n\n\nprint(total([1, 2, 3]))\n"


@pytest.fixture
def pyw_project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "tool.pyw").write_text(PROG)
    python = json.dumps(sys.executable)
    (tmp_path / "minitools.toml").write_text(
        f'[[debug.adapters]]\nid = "pyw"\ncommand = [{python}, "-m", "debugpy.adapter"]\nsuffixes = [".pyw"]\n'
        f'markers = ["pyproject.toml"]\nadapter_id = "debugpy"\nlaunch = {{ type = "python", python = [{python}] }}\n')
    return tmp_path


async def test_a_configured_adapter_debugs_what_no_built_in_does(pyw_project: Path) -> None:
    async with Run(pyw_project, approve=lambda spec, args: True) as plain:
        refused = await plain.call("debug", {"op": "launch", "program": "tool.pyw"})
    assert not refused.ok and 'no adapter debugs "tool.pyw"' in refused.text
    async with Run(pyw_project, config=True, approve=lambda spec, args: True) as run:
        listed = await run.call("debug", {"op": "adapters"})
        assert listed.data["adapters"][0]["id"] == "pyw" and listed.data["adapters"][0]["usable"], listed.text
        r = await run.call("debug", {"op": "breakpoints", "file": "tool.pyw", "lines": [4]})
        assert r.ok, r.text
        r = await run.call("debug", {"op": "launch", "program": "tool.pyw"})
        assert r.ok and "tool.pyw:4" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "acc + x"})
        assert r.ok and "1" in r.text, r.text
        r = await run.call("debug", {"op": "terminate"})
        assert r.ok, r.text
        unknown = await run.call("debug", {"op": "launch", "program": "tool.pyw", "adapter": "rdbg"})
    assert not unknown.ok and 'no debug adapter is called "rdbg"' in unknown.text and "pyw" in unknown.text
