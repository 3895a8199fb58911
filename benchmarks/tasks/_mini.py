"""The minitools strategy: the calls a careful agent makes through a `Run` (lsp, lsp_rename,
ast_grep, ast_edit + resolve, debug, and a write wrapped with its new diagnostics).

It reads what a model reads: each result's text (the answer is taken from `data`, which holds
the same facts as JSON). The steps depend on the question and on earlier results, never on the
task's ground truth. A definition is asked for without its body (`body: false`): the question is
where, not what.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from minitools import Run

from . import _reading as rd
from ._model import Attempt, Step, Task
from ._projects import Project

PAGE = 200


class Caller:
    def __init__(self, run: Run, attempt: Attempt) -> None:
        self.run = run
        self.attempt = attempt

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        start = time.perf_counter()
        result = await self.run.call(tool, args)
        shown = {k: v for k, v in args.items() if k not in ("action", "op")}
        head = args.get("action") or args.get("op") or ""
        self.attempt.steps.append(Step(f"{tool} {head} {shown}".replace("  ", " "), result.text, time.perf_counter() - start))
        return result


async def solve(task: Task, project: Project, run: Run, attempt: Attempt) -> Any:
    return await KIND_SOLVERS[task.kind](Caller(run, attempt), task, project)


def _locations(result: Any) -> list[str]:
    if not result.ok:
        return []
    return sorted({f"{loc['file']}:{loc['line']}" for loc in result.data.get("locations", [])})


def _position(task: Task) -> dict[str, Any]:
    return {"file": task.args["file"], "line": task.args["line"], "symbol": task.args["name"]}


async def definition(mt: Caller, task: Task, project: Project) -> list[str]:
    return _locations(await mt.call("lsp", {"action": "definition", **_position(task), "body": False}))


async def callers(mt: Caller, task: Task, project: Project) -> list[str]:
    """References, read line by line: a reference whose line calls the name is a call site (the
    reading rule the shell uses for a hit, applied to the server's rows)."""
    found: list[str] = []
    offset = 0
    while True:
        r = await mt.call("lsp", {"action": "references", **_position(task), "offset": offset} if offset else
                          {"action": "references", **_position(task)})
        if not r.ok:
            return found
        for loc in r.data.get("locations", []):
            text = loc.get("text", "")
            code = rd.code_part(text, project.language)
            if rd.calls(code, task.args["name"]) and not rd.is_definition(code, task.args["name"], project.language):
                found.append(f"{loc['file']}:{loc['line']}")
        more = re.search(r"offset (\d+) for the next", r.text)
        if not more:
            return sorted(set(found))
        offset = int(more[1])


async def implementations(mt: Caller, task: Task, project: Project) -> list[str]:
    return _locations(await mt.call("lsp", {"action": "implementation", **_position(task), "body": False}))


HOVER_TYPE = {
    "python": re.compile(r"\((?:variable|parameter|constant)\) (?:\w+): (.+?)\s*(?:\n|```|$)"),
    "typescript": re.compile(r"(?:const|let|var|\(parameter\)|\(property\)) [\w$.]+\??: (.+?)\s*(?:\n```|$)", re.S),
    "c": re.compile(r"Type: `([^`]+)`"),
}


async def type_of(mt: Caller, task: Task, project: Project) -> str | None:
    r = await mt.call("lsp", {"action": "hover", **_position(task)})
    m = HOVER_TYPE[project.language].search(r.text) if r.ok else None
    return m[1].strip() if m else None


async def rename(mt: Caller, task: Task, project: Project) -> str:
    await mt.call("lsp_rename", {**_position(task), "new_name": task.args["new"]})
    return "edited"


async def find_pattern(mt: Caller, task: Task, project: Project) -> list[str]:
    found: list[str] = []
    offset = 0
    while True:
        args = {"pattern": task.args["pattern"], "language": project.language, "max_results": PAGE}
        if task.args.get("path"):
            args["path"] = task.args["path"]
        if offset:
            args["offset"] = offset
        r = await mt.call("ast_grep", args)
        if not r.ok:
            return found
        found += [f"{m['file']}:{m['start']['line']}" for m in r.data.get("matches", [])]
        more = re.search(r"offset (\d+) for the next", r.text)
        if not more:
            return sorted(set(found))
        offset = int(more[1])


async def replace(mt: Caller, task: Task, project: Project) -> str:
    args = {"pattern": task.args["pattern"], "rewrite": task.args["rewrite"], "language": project.language}
    if task.args.get("path"):
        args["path"] = task.args["path"]
    r = await mt.call("ast_edit", args)
    m = re.search(r'edit_id "(\w+)"', r.text)
    if m:
        await mt.call("resolve", {"edit_id": m[1], "action": "accept"})
    return "edited"


async def value(mt: Caller, task: Task, project: Project) -> str | None:
    """A conditional breakpoint, a launch that stops there, the expression evaluated in the
    frame. A C program is built first, with a shell command in an eval cell."""
    a = task.args
    if project.language == "c":
        await mt.call("eval", {"code": f"!{a['build']}", "description": "build the program with debug information"})
    await mt.call("debug", {"op": "breakpoints", "file": a["file"], "lines": [{"line": a["line"], "condition": a["condition"]}]})
    program, *argv = a["program"]
    r = await mt.call("debug", {"op": "launch", "program": program, "args": argv})
    answer = None
    if r.ok and "stopped" in r.text.lower():
        expression = f"repr({a['expr']})" if project.language == "python" else a["expr"]
        e = await mt.call("debug", {"op": "evaluate", "expression": expression})
        if e.ok:
            answer = _unquote_repr(e.data["result"]) if project.language == "python" else str(e.data["result"]).strip()
    await mt.call("debug", {"op": "terminate"})
    return answer


def _unquote_repr(text: str) -> str:
    """debugpy shows a string result as its repr: `repr(x)` comes back quoted once more."""
    text = str(text).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        import ast

        try:
            return str(ast.literal_eval(text))
        except (ValueError, SyntaxError):
            return text
    return text


async def new_diagnostics(mt: Caller, task: Task, project: Project) -> list[str]:
    """The host's own write, wrapped by `Run.wrap`: one call, whose result carries what is new."""
    a = task.args
    path = Path(mt.run.root) / a["file"]

    def write(path: str) -> str:
        lines = Path(path).read_text().splitlines(keepends=True)
        lines[a["line"] - 1] = lines[a["line"] - 1].replace(a["old"], a["new"], 1)
        Path(path).write_text("".join(lines))
        return f"wrote {a['file']}"

    start = time.perf_counter()
    wrapped = mt.run.wrap(write)
    text = await wrapped(path=str(path))
    mt.attempt.steps.append(Step(f"write {a['file']} (wrapped)", str(text), time.perf_counter() - start))
    found = re.findall(r"^\s*([\w./-]+\.\w+):(\d+)(?::\d+)?:? .*?(?:error|warning)", str(text), re.M)
    return sorted({f"{f}:{n}" for f, n in found})


KIND_SOLVERS = {
    "definition": definition, "callers": callers, "implementations": implementations, "type": type_of,
    "rename": rename, "find_pattern": find_pattern, "replace": replace, "value": value,
    "new_diagnostics": new_diagnostics,
}

