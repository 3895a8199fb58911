"""The task benchmark's ground truth is consistent with the projects it is about, and both of its
strategies run (benchmarks/bench_tasks.py, benchmarks/tasks/)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from tasks import KINDS, PROJECTS, TASKS, Task  # noqa: E402
from tasks._judge import traced_value  # noqa: E402
from tasks._runner import run_tasks  # noqa: E402


def _lay(name: str, tmp_path: Path) -> Path:
    try:
        return PROJECTS[name].lay(tmp_path / name)
    except SystemExit as exc:  # the corpus is missing: the message names the set-up step
        pytest.skip(str(exc))


def _line(root: Path, place: str) -> str:
    file, number = place.rsplit(":", 1)
    lines = (root / file).read_text(errors="replace").splitlines()
    assert 1 <= int(number) <= len(lines), f"{place} is past the end of {file}"
    return lines[int(number) - 1]


def _places(task: Task) -> list[str]:
    if task.kind in ("type", "value"):
        return []
    return task.truth["places"] if isinstance(task.truth, dict) else list(task.truth)


def test_the_tasks_cover_what_the_benchmark_claims() -> None:
    assert len(TASKS) >= 40
    assert len({t.id for t in TASKS}) == len(TASKS)
    assert {t.kind for t in TASKS} == set(KINDS)
    assert len({PROJECTS[t.project].language for t in TASKS}) >= 3
    assert any(t.trivial for t in TASKS) and any(not t.trivial for t in TASKS)


@pytest.mark.parametrize("project", sorted(PROJECTS))
def test_every_listed_place_is_there(project: str, tmp_path: Path) -> None:
    """Each line a truth names exists and holds what the task is about: the name for definitions,
    calls, implementations and renames, the call for a pattern."""
    root = _lay(project, tmp_path)
    for task in [t for t in TASKS if t.project == project]:
        name = task.args.get("name")
        for place in _places(task):
            text = _line(root, place)
            if task.kind in ("definition", "implementations", "rename"):
                assert re.search(rf"\b{re.escape(name)}\b", text), (task.id, place, text)
            elif task.kind == "callers":
                assert re.search(rf"\b{re.escape(name)}\s*\(", text), (task.id, place, text)
            elif task.kind in ("find_pattern", "replace"):
                head = re.match(r"[\w.]+", task.args["pattern"].removeprefix("new "))
                assert head and head[0].split(".")[-1] in text, (task.id, place, text)
        if "file" in task.args and "line" in task.args and task.kind not in ("value",):
            assert name is None or name in _line(root, f"{task.args['file']}:{task.args['line']}"), task.id


def _calls(root: Path, folder: str, keep) -> list[str]:
    found = []
    for path in sorted((root / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and keep(node):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return sorted(found)


def test_click_call_lists_agree_with_pythons_own_parser(tmp_path: Path) -> None:
    root = _lay("click", tmp_path)
    by_id = {t.id: t for t in TASKS}
    echo_err = _calls(root, "src", lambda n: isinstance(n.func, ast.Name) and n.func.id == "echo" and any(
        k.arg == "err" and isinstance(k.value, ast.Constant) and k.value.value is True for k in n.keywords))
    assert echo_err == sorted(by_id["click/find-echo-err"].truth)
    fail_literal = _calls(root, ".", lambda n: isinstance(n.func, ast.Attribute) and n.func.attr == "fail"
                          and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                          and bool(n.args) and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str))
    assert fail_literal == sorted(by_id["click/find-fail-literal"].truth)
    is_str = _calls(root, "src", lambda n: isinstance(n.func, ast.Name) and n.func.id == "isinstance" and len(n.args) == 2
                    and isinstance(n.args[1], ast.Name) and n.args[1].id == "str")
    assert is_str == sorted(by_id["click/replace-isinstance-str"].truth["places"])


@pytest.mark.parametrize("project", sorted({t.project for t in TASKS if t.kind == "value"}))
def test_the_values_are_the_programs_own(project: str, tmp_path: Path) -> None:
    """The committed value is what the program shows: a Python program under a line tracer, a C
    program under gdb."""
    root = _lay(project, tmp_path)
    for task in [t for t in TASKS if t.kind == "value" and t.project == project]:
        assert traced_value(task, root) == task.truth, task.id


@pytest.mark.timeout(120)
async def test_both_strategies_answer_one_small_task(tmp_path: Path) -> None:
    _lay("zlib", tmp_path / "probe")
    task = next(t for t in TASKS if t.id == "zlib/def-bail")
    outcomes, _ = await run_tasks([task], tmp_path / "work", log=lambda line: None)
    (outcome,) = outcomes
    for strategy in ("shell", "minitools"):
        attempt = outcome.attempts[strategy]
        assert not attempt.error, attempt.error
        assert attempt.calls >= 1 and attempt.bytes > 0
        assert outcome.right[strategy], (strategy, attempt.answer, outcome.why[strategy])
