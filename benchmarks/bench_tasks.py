"""Task benchmark: what an agent spends to get a right answer with minitools and with a shell, on real projects.

Each task (benchmarks/tasks/: Click in Python, rxjs in TypeScript, zlib's examples in C) is a
question an agent meets: where is X defined, who calls X, every implementation of a method, the
type of a name, rename X, find or rewrite every call of a shape, the value of a variable when a
loop meets a condition, did this edit break anything. Two scripted strategies answer it, each in
its own copy of the project: *shell* (grep, sed -n, sed -i, the program run with a print added,
the project's checker; the reading rules in benchmarks/tasks/_reading.py) and *minitools* (calls
through a Run on the real servers and adapters: basedpyright, typescript-language-server, clangd,
debugpy). Neither looks at the answer to choose a step. Each answer is judged against a ground
truth neither produced: hand-checked lists committed with the tasks, the program's real output
(run under a line tracer), and for an edit the places that must change, then the project's own
checker and tests. Per task: calls, bytes the model reads (every command's or tool's output),
wall time, right or wrong. A language server's start (once a session) is reported apart.
Prints the summary tables (the README's); a run of every task also writes each task's row, with why
an answer was wrong, into benchmarks/README.md; the JSON is benchmarks/results/bench_tasks.json.

    python benchmarks/bench_tasks.py [--only KIND|PROJECT|TASK-ID ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from tasks import KINDS, PROJECTS, TASKS  # noqa: E402
from tasks._runner import STRATEGIES, Outcome, run_tasks  # noqa: E402

RESULTS = HERE / "results"
README = HERE / "README.md"
TASKS_START, TASKS_END = "<!-- TASKS:START -->", "<!-- TASKS:END -->"


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def summary_rows(outcomes: list[Outcome]) -> list[dict]:
    """Per kind: right answers of each strategy; for the tasks both got right, the median ratio
    (minitools / shell) of bytes and of calls."""
    rows = []
    for kind in [*KINDS, "all"]:
        group = [o for o in outcomes if kind in ("all", o.task.kind)]
        if not group:
            continue
        both = [o for o in group if all(o.right.values())]
        rows.append({
            "kind": kind, "tasks": len(group),
            "right": {s: sum(o.right[s] for o in group) for s in STRATEGIES},
            "both_right": len(both),
            "bytes_ratio": statistics.median(_ratio(o.attempts["minitools"].bytes, o.attempts["shell"].bytes) for o in both) if both else None,
            "calls_ratio": statistics.median(_ratio(o.attempts["minitools"].calls, o.attempts["shell"].calls) for o in both) if both else None,
            "seconds_ratio": statistics.median(_ratio(o.attempts["minitools"].seconds, o.attempts["shell"].seconds) for o in both) if both else None,
        })
    return rows


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def summary_table(outcomes: list[Outcome]) -> list[str]:
    lines = ["| kind | tasks | right: shell | right: minitools | both right | bytes ratio (median) | calls ratio (median) | time ratio (median) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in summary_rows(outcomes):
        name = f"**{r['kind']}**" if r["kind"] == "all" else r["kind"]
        lines.append(f"| {name} | {r['tasks']} | {r['right']['shell']} | {r['right']['minitools']} | {r['both_right']} "
                     f"| {_fmt(r['bytes_ratio'])} | {_fmt(r['calls_ratio'])} | {_fmt(r['seconds_ratio'])} |")
    return lines


def task_table(outcomes: list[Outcome]) -> list[str]:
    lines = ["| task | kind | shell: right | calls | bytes | s | minitools: right | calls | bytes | s | why wrong |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        cells = []
        for s in STRATEGIES:
            a = o.attempts[s]
            cells.append(f"{'yes' if o.right[s] else '**no**'} | {a.calls} | {a.bytes:,} | {a.seconds:.2f}")
        why = "; ".join(f"{s}: {o.why[s]}" for s in STRATEGIES if o.why[s]).replace("|", "/")
        mark = " (trivial)" if o.task.trivial else ""
        lines.append(f"| {o.task.id}{mark} | {o.task.kind} | {' | '.join(cells)} | {why[:300]} |")
    return lines


def project_table(startups: dict[str, float]) -> list[str]:
    lines = ["| project | language | source | language server start, once a session (s) |", "|---|---|---|---|"]
    for name, seconds in startups.items():
        p = PROJECTS[name]
        lines.append(f"| {name} | {p.language} | {p.source} | {seconds:.1f} |")
    return lines


def where_the_shell_wins(outcomes: list[Outcome]) -> str:
    """One sentence, from the results: the tasks only the shell got right, and the share of the
    tasks both got right where the shell read fewer bytes."""
    only_shell = [o.task.id for o in outcomes if o.right["shell"] and not o.right["minitools"]]
    both = [o for o in outcomes if all(o.right.values())]
    cheaper = [o for o in both if o.attempts["shell"].bytes < o.attempts["minitools"].bytes]
    trivial = [o for o in cheaper if o.task.trivial]
    return (f"Where the shell wins: it alone was right on {len(only_shell)} task{'s' * (len(only_shell) != 1)}"
            f"{' (' + ', '.join(only_shell) + ')' if only_shell else ''}, and of the {len(both)} tasks both got right it read "
            f"fewer bytes on {len(cheaper)} ({len(trivial)} of them trivial: a name used in one sense), "
            f"kinds: {', '.join(sorted({o.task.kind for o in cheaper})) or 'none'}.")


def write_full_table(outcomes: list[Outcome], startups: dict[str, float], header: str) -> None:
    """The per-task table into benchmarks/README.md, between its TASKS markers."""
    text = README.read_text() if README.exists() else f"# Benchmarks\n\n{TASKS_START}\n{TASKS_END}\n"
    head, rest = text.split(TASKS_START, 1)
    _, tail = rest.split(TASKS_END, 1)
    body = "\n".join([header, "", *summary_table(outcomes), "", *task_table(outcomes), "", *project_table(startups), ""])
    README.write_text(head + TASKS_START + "\n\n" + body + "\n" + TASKS_END + tail)


def to_json(outcomes: list[Outcome], startups: dict[str, float], seconds: float) -> dict:
    return {
        "date": time.strftime("%Y-%m-%d"), "machine": f"{platform.machine()}, {platform.system()}, python {platform.python_version()}",
        "total_seconds": round(seconds, 1), "startups": startups, "summary": summary_rows(outcomes),
        "tasks": [{
            "id": o.task.id, "project": o.task.project, "kind": o.task.kind, "question": o.task.question,
            "trivial": o.task.trivial, "truth": o.truth,
            **{s: {"right": o.right[s], "why": o.why[s], "calls": o.attempts[s].calls, "bytes": o.attempts[s].bytes,
                   "seconds": round(o.attempts[s].seconds, 3), "answer": o.attempts[s].answer,
                   "steps": [{"call": st.call, "bytes": len(st.output.encode()), "seconds": round(st.seconds, 3)}
                             for st in o.attempts[s].steps]}
               for s in STRATEGIES},
        } for o in outcomes],
    }


def select(only: list[str]) -> list:
    if not only:
        return list(TASKS)
    return [t for t in TASKS if t.kind in only or t.project in only or t.id in only]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="kinds, projects or task ids")
    parser.add_argument("--keep", type=Path, help="lay the projects' copies here and keep them")
    parser.add_argument("--json", type=Path, default=RESULTS / "bench_tasks.json")
    opts = parser.parse_args(argv)
    tasks = select(opts.only)
    if not tasks:
        print(f"no task matches {opts.only}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-tasks-") as tmp:
        workdir = opts.keep or Path(tmp)
        outcomes, startups = asyncio.run(run_tasks(tasks, workdir, log=lambda line: print(line, file=sys.stderr, flush=True)))
    seconds = time.perf_counter() - start
    header = (f"{len(tasks)} tasks on {len(startups)} projects, measured {time.strftime('%Y-%m-%d')} on "
              f"{platform.machine()} ({platform.system()}, {os.cpu_count()} cores), {seconds:.0f} s in all.")
    print(header + "\n")
    print("\n".join(summary_table(outcomes)) + "\n")
    print("\n".join(project_table(startups)) + "\n")
    print("> " + where_the_shell_wins(outcomes) + "\n")
    if not opts.only:
        write_full_table(outcomes, startups, header)
        print(f"the table of every task: {README.relative_to(HERE.parent)}")
    opts.json.parent.mkdir(parents=True, exist_ok=True)
    opts.json.write_text(json.dumps(to_json(outcomes, startups, seconds), indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
