"""Layering, the public surface, the schema, and wiring of the debug family."""

from __future__ import annotations

import ast
from pathlib import Path

import minitools.dap as dap
from minitools import Run, Tier


def test_dap_imports_only_protocol_transport_tracing_schema() -> None:
    folder = Path(__file__).resolve().parents[2] / "minitools" / "dap"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("minitools"):
                inner = node.module.split(".")[1] if "." in node.module else ""
                assert inner in {"protocol", "transport", "tracing", "schema", "states", "dap"}, f"{path.name} imports {node.module}"
    assert {"ADAPTERS", "detect", "DAPSession", "DebugSupervisor", "StepTimeout"} <= set(dap.__all__)
    assert [a.id for a in dap.ADAPTERS] == ["dart", "debugpy", "lldb", "delve", "node", "perl"]
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


def test_which_adapter_debugs_a_program(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "main.go").write_text("package main\n")
    (tmp_path / "empty").mkdir()
    for name, mode in (("app", 0o755), ("app.out", 0o755), ("data.out", 0o644), ("x.py", 0o644), ("x.dart", 0o644),
                       ("x.js", 0o644), ("x.mjs", 0o644), ("x.ts", 0o644), ("x.tsx", 0o644)):
        (tmp_path / name).write_text("")
        (tmp_path / name).chmod(mode)
    found = {name: getattr(dap.adapter_for_program(tmp_path / name), "id", None)
             for name in ("pkg", "empty", "app", "app.out", "data.out", "x.py", "x.dart", "x.js", "x.mjs", "x.ts", "x.tsx")}
    assert found == {"pkg": "delve", "empty": None, "app": "lldb", "app.out": "lldb", "data.out": None,
                     "x.py": "debugpy", "x.dart": "dart", "x.js": "node", "x.mjs": "node", "x.ts": "node", "x.tsx": None}


def test_a_python_package_adapter_that_no_python_imports(pyproject: Path) -> None:
    debugpy = dap.adapter_by_id("debugpy")
    assert debugpy is not None
    det = dap.detect(pyproject, debugpy, probe=lambda argv: (False, "no"))
    assert not det.usable and det.markers
    assert det.reason.startswith("debugpy is not importable by ") and det.reason.endswith("(pip install debugpy)")
    det = dap.detect(pyproject, debugpy, probe=lambda argv: (True, ""))
    assert det.usable and det.command[1:] == ["-m", "debugpy.adapter"] and det.interpreter is not None


async def test_attach_by_port_names_the_adapters_that_can(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True) as run:
        r = await run.call("debug", {"op": "attach", "port": 9, "adapter": "lldb"})
        assert not r.ok and ("supported for debugpy (a process started with debugpy.listen), node (a process started with "
                              "node --inspect=PORT) only") in r.text, r.text
        assert "lldb has no attach-by-port" in r.text
