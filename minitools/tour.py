"""The main job: a Run over the bundled sample project, every registered tool called the
way a model would call it, and what the model would read printed after each call.

The sample is copied to a temporary directory first, so the writes the tour accepts
(a structural rewrite, a rename) never touch the repository.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools.registry import Surface
from minitools.run import Run
from minitools.toolspec import ToolResult

__all__ = ["sample_project", "run_tour", "STEPS"]


def _example(name: str) -> Path:
    """A folder of examples/: inside an installed package (the wheel carries it as
    minitools/_examples/, see setup.py), else in the checkout beside the package."""
    here = Path(__file__).resolve().parent
    packaged = here / "_examples" / name
    return packaged if packaged.is_dir() else here.parent / "examples" / name


def sample_project() -> Path:
    """The sample project the tour works on (examples/sample)."""
    return _example("sample")


@dataclass
class Step:
    tool: str
    args: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]
    note: str
    surface: str = "full"
    # remember something from the result for later steps: key -> function of the result
    keep: dict[str, Callable[[ToolResult], Any]] = field(default_factory=dict)


def _edit_id(result: ToolResult) -> Any:
    return result.data.get("edit_id") if isinstance(result.data, dict) else None


STEPS: list[Step] = [
    Step("ast_grep", {"pattern": "if ($X != null) $X.dispose()", "language": "dart"},
         "A guard that disposes what it checked — the repeated $X must capture the same text."),
    Step("ast_grep", {"pattern": "print($A)", "language": "dart"},
         "Dart's print($A) parses as a function signature at top level; the scaffold ladder finds the call."),
    Step("ast_grep", {"pattern": "if $X is None: $$$BODY", "language": "python", "path": "app"},
         "Python, a sequence metavariable for the body."),
    Step("ast_grep", {"pattern": "free($P)", "language": "c"}, "C: a call that plain ast-grep parses as a declaration."),
    Step("ast_edit", {"pattern": "print($$$ARGS)", "rewrite": "log.info($$$ARGS)", "language": "python", "path": "app"},
         "A staged rewrite: nothing is written until resolve accepts it.",
         keep={"edit_id": _edit_id}),
    Step("resolve", lambda mem: {"edit_id": mem.get("edit_id") or "edit_1", "action": "discard"},
         "Discard it: the files stay as they were."),
    Step("symbol_edit", {"file": "app/inventory.py", "line": 27, "symbol": "find", "action": "replace",
                         "code": "def find(self, name: str) -> Item | None:\n    return self.items.get(name)"},
         "An edit by symbol: the method's whole extent (from the language server, else the parser), staged too.",
         keep={"edit_id": _edit_id}),
    Step("resolve", lambda mem: {"edit_id": mem.get("edit_id") or "edit_2", "action": "discard"},
         "Discard it as well."),
    Step("lsp", {"action": "status"}, "Which language servers can run here, and why not."),
    Step("lsp", {"action": "definition", "file": "app/report.py", "line": 8, "symbol": "Item"},
         "Positions are a line and a symbol on it, never a column."),
    Step("lsp", {"action": "hover", "file": "app/inventory.py", "line": 27, "symbol": "find"},
         "Signature and doc comment."),
    Step("lsp", {"action": "references", "file": "app/inventory.py", "line": 9, "symbol": "Item"},
         "Every use, capped at 50."),
    Step("lsp_rename", {"file": "app/inventory.py", "line": 33, "symbol": "value", "new_name": "total_value"},
         "A project-wide rename: every file or none."),
    Step("eval", {"code": "import statistics\nprices = [0.5, 0.75, 1.25]\nstatistics.mean(prices)",
                  "description": "mean price of the sample items"},
         "A persistent Python kernel: the last expression comes back like a notebook."),
    Step("eval", {"code": "hits = tool('ast_grep', {'pattern': 'print($$$A)', 'language': 'python'})\nprint(hits.splitlines()[0])\nhits.data['total']",
                  "description": "count print calls through the tool bridge"},
         "Variables survive between cells, and tool() calls back into the Run's registry."),
    Step("eval", {"code": "const lines = [{price: 2, quantity: 3}];\nlines.reduce((s, l) => s + l.price * l.quantity, 0)",
                  "description": "total of a cart in javascript", "language": "javascript"},
         "The same contract on node."),
    Step("debug", {"op": "adapters"}, "Which debug adapters are usable here, and why not."),
    Step("debug", {"op": "breakpoints", "file": "app/report.py", "lines": [17]}, "Breakpoints may be set before launch."),
    Step("debug", {"op": "launch", "program": "main.py", "args": []},
         "Run the program to the first breakpoint."),
    Step("debug", {"op": "evaluate", "expression": "total"}, "Evaluate in the stopped frame."),
    Step("debug", {"op": "terminate"}, "End the session; no process is left behind."),
    Step("vibe_spawn", {"brief": "Count the files of this project by extension.", "label": "count files", "tier": "fast"},
         "A background worker: spawn returns at once; the worker keeps running.",
         keep={"worker_id": lambda r: r.data.get("worker_id") if isinstance(r.data, dict) else None}),
    Step("vibe_wait", lambda mem: {"worker_id": mem.get("worker_id") or "w1", "timeout_seconds": 30},
         "Wait until it settles."),
    Step("vibe_list", {}, "Every worker: tier, status, elapsed time and last result."),
    Step("ask_user", {"question": "Which price rounding should the report use?",
                      "options": [{"label": "cents"}, {"label": "whole units"}]},
         "The only way a run asks a person (only when a question port is wired)."),
]


def _scripted_person(card: dict[str, Any]) -> dict[str, Any]:
    print(f"  (a scripted person sees the card {card['question']!r} and picks {card['options'][0]['label']!r})")
    return {"choices": [card["options"][0]["label"]]}


def _print(text: str = "") -> None:
    print(text, flush=True)


def _shorten(text: str, limit: int = 1800) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"


async def run_tour(sample: Path | None = None, *, out: Callable[[str], None] = _print) -> int:
    """Run the tour; returns 0 when every call that ran came back as the tour expects."""
    source = sample or sample_project()
    with tempfile.TemporaryDirectory(prefix="minitools-tour-") as tmp:
        root = Path(tmp) / source.name
        shutil.copytree(source, root)
        # The tour approves every write and exec call itself, and a scripted person answers
        # ask_user with the first option; a real host wires its own approver and question port.
        worker = _example("workers") / "count_files.py"
        roster = {"fast": [sys.executable, str(worker), "{brief_file}", "{result_file}"]}
        async with Run(root, approve=lambda spec, args: True, questions=_scripted_person, vibe=roster) as run:
            out(f"minitools tour — a Run over a copy of {source.name}/ ({run.conversation_id})")
            out("")
            out("Registered tools (full surface):")
            for spec in run.tools():
                serial = ", serialised" if not spec.parallel_safe else ""
                out(f"  {spec.name:<12} {spec.tier.value:<5}{serial}")
            for surface in (Surface.PLAN, Surface.READONLY):
                names = ", ".join(s.name for s in run.tools(surface)) or "none"
                out(f"The {surface.value} surface sees read-tier tools only: {names}")
            refused = next((s for s in run.tools() if s.tier.value != "read"), None)
            if refused is not None:
                result = await run.call(refused.name, {}, surface="plan")
                out(f"Calling {refused.name} on the plan surface is refused: {result.text}")
            out("")
            memory: dict[str, Any] = {}
            ran = 0
            for step in STEPS:
                if run.registry.get(step.tool) is None:
                    continue
                args = step.args(memory) if callable(step.args) else step.args
                out(f"── {step.note}")
                out(f"→ {step.tool}({json.dumps(args, ensure_ascii=False)})")
                result = await run.call(step.tool, args, surface=step.surface)
                flag = "" if result.ok else "[not ok] "
                out(textwrap.indent(_shorten(flag + result.text), "  "))
                for mime, blob in result.images:
                    out(f"  [image {mime}, {len(blob)} bytes]")
                for key, pick in step.keep.items():
                    memory[key] = pick(result)
                out("")
                ran += 1
            missing = sorted({s.tool for s in STEPS} - set(run.registry.names()))
            if missing:
                out(f"Not wired in this run (so not shown): {', '.join(missing)}")
            out(f"{ran} tool calls made.")
            out("")
            out("The same tools for an agent host (Claude Code, Codex, Cursor, VS Code, Zed, ...): "
                "`minitools mcp --root DIR` is a Model Context Protocol server on stdio,")
            out("e.g. `claude mcp add minitools -- minitools mcp --root .` (README.md, \"MCP\").")
    return 0
