"""Layering, the public surface, the schema, and wiring of the debug family."""

from __future__ import annotations

import ast
from pathlib import Path

import minitools.dap as dap
from minitools import Run, Tier


def test_dap_imports_only_protocol_transport_tracing() -> None:
    folder = Path(__file__).resolve().parents[2] / "minitools" / "dap"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("minitools"):
                inner = node.module.split(".")[1] if "." in node.module else ""
                assert inner in {"protocol", "transport", "tracing", "dap"}, f"{path.name} imports {node.module}"
    assert {"ADAPTERS", "detect", "DAPSession", "DebugSupervisor", "StepTimeout"} <= set(dap.__all__)
    assert [a.id for a in dap.ADAPTERS] == ["dart", "debugpy", "lldb", "delve"]
    lldb = dap.adapter_by_id("lldb")
    assert lldb is not None and "lldb-vscode-*" in lldb.binaries and "lldb-dap" in lldb.binaries


async def test_spec_schema_and_wiring(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True) as run:
        spec = next(s for s in run.tools() if s.name == "debug")
        assert spec.tier is Tier.EXEC and not spec.parallel_safe
        props = spec.parameters["properties"]
        assert all(p.get("description") for p in props.values())
        assert set(props["op"]["enum"]) >= {"adapters", "launch", "attach", "step_over", "variables", "terminate"}
        assert "debug" not in [s.name for s in run.tools("plan")]
        r = await run.call("debug", {"op": "launch"})
        assert not r.ok and "'program'" in r.text
        r = await run.call("debug", {"op": "stack"})
        assert not r.ok and "No debug session is running" in r.text
    async with Run(tmp_path, resources={"debug": False}) as run:
        assert "debug" not in [s.name for s in run.tools()]


async def test_launch_without_marker_says_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("print(1)\n")
    async with Run(tmp_path, approve=lambda s, a: True) as run:
        r = await run.call("debug", {"op": "launch", "program": "x.py"})
        assert not r.ok and "no root marker (pyproject.toml, setup.py, requirements.txt)" in r.text, r.text
