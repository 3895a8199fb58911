"""Whether an answer is right, against a ground truth neither strategy produced.

- Locations (definition, callers, implementations, find_pattern, new_diagnostics): the set of
  `file:line` must be the hand-checked set; a definition may name any of the lines that declare
  the symbol (an overload's signatures and its implementation) but no other.
- A type: one of the hand-checked spellings, compared without spaces and module prefixes.
- A value: the program's real output, from a run under a line tracer (`traced_value`).
- An edit (rename, replace): every hand-checked place changed and nothing else, then the
  project's checker reports nothing new and its tests pass.
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._model import Task
from ._projects import Project

TRACER = Path(__file__).with_name("_tracer.py")


def norm_type(text: str) -> str:
    text = re.sub(r"\b(t|typing|te|cabc|abc)\.", "", text)
    return re.sub(r"\s+", "", text).replace("'", "").replace('"', "")


def judge(task: Task, answer: Any, truth: Any) -> tuple[bool, str]:
    kind = task.kind
    if answer is None:
        return False, "no answer"
    if kind == "definition":
        got = set(answer)
        if not got:
            return False, "no definition found"
        extra = got - set(truth)
        return (not extra, f"not a declaration of this symbol: {sorted(extra)}" if extra else "")
    if kind in ("callers", "implementations", "find_pattern", "new_diagnostics"):
        got, want = set(answer), set(truth)
        if got == want:
            return True, ""
        return False, f"missing {sorted(want - got)[:6]} ({len(want - got)}), wrong {sorted(got - want)[:6]} ({len(got - want)})"
    if kind == "type":
        ok = norm_type(str(answer)) in {norm_type(t) for t in truth}
        return ok, "" if ok else f"answered {answer!r}"
    if kind == "value":
        ok = str(answer) == str(truth)
        return ok, "" if ok else f"answered {answer!r}, the program shows {truth!r}"
    raise ValueError(kind)


def changed_places(before: Path, after: Path, project: Project) -> tuple[list[tuple[str, int, int]], list[str]]:
    """The hunks an edit made, as (file, first, last) original lines (last < first for a pure
    insertion), and the files it changed."""
    hunks, files = [], []
    for old in project.files(before):
        rel = str(old.relative_to(before))
        new = after / rel
        a = old.read_text(errors="replace").splitlines()
        b = new.read_text(errors="replace").splitlines() if new.exists() else []
        if a == b:
            continue
        files.append(rel)
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag != "equal":
                hunks.append((rel, i1 + 1, i2))
    return hunks, files


def judge_edit(task: Task, project: Project, pristine: Path, edited: Path, baseline: Any) -> tuple[bool, str]:
    places = [(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in task.truth["places"]]
    hunks, _ = changed_places(pristine, edited, project)
    missed = [f"{f}:{n}" for f, n in places if not any(hf == f and lo <= n <= max(lo, hi) for hf, lo, hi in hunks)]
    stray = [f"{hf}:{lo}" for hf, lo, hi in hunks if not any(hf == f and lo <= n <= max(lo, hi) for f, n in places)]
    if missed or stray:
        return False, f"places missed {missed[:6]} ({len(missed)}), changed elsewhere {stray[:6]} ({len(stray)})"
    new = project.check(edited) - baseline
    if new:
        return False, f"the checker reports {sum(new.values())} new: {list(new)[:2]}"
    passed, tail = project.tests(edited)
    if not passed:
        return False, "the project's tests fail: " + " ".join(tail.split())[-200:]
    return True, ""


def traced_value(task: Task, root: Path) -> str | None:
    """The value the program really shows at the task's line, the first time the condition
    holds there: the program run under a line tracer (_tracer.py), not under either strategy."""
    a = task.args
    if "build" in a:
        return _gdb_value(task, root)
    spec = json.dumps({"file": str((root / a["file"]).resolve()), "line": a["line"], "condition": a["condition"], "expr": a["expr"]})
    proc = subprocess.run([sys.executable, str(TRACER), spec, *a["program"]], cwd=root, capture_output=True, text=True, timeout=120)
    m = re.search(r"^@@TRACED (.*)$", proc.stdout, re.M)
    return m[1] if m else None


def _gdb_value(task: Task, root: Path) -> str | None:
    """A C program's value: built as the task says, run under gdb in batch mode with a
    conditional breakpoint (neither strategy's debugger: minitools drives lldb)."""
    a = task.args
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "src"
        shutil.copytree(root, work)
        subprocess.run(["bash", "-c", a["build"]], cwd=work, check=True, capture_output=True, timeout=120)
        proc = subprocess.run(["gdb", "-nx", "-batch", "-ex", f"break {a['file']}:{a['line']} if {a['condition']}", "-ex", "run",
                               "-ex", f"print (long long)({a['expr']})", "--args", *a["program"]],
                              cwd=work, capture_output=True, text=True, timeout=120)
    m = re.search(r"^\$1 = (.*)$", proc.stdout, re.M)
    return m[1].strip() if m else None
