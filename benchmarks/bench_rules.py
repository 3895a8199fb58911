"""Rule-scan benchmark: `minitools ast-grep scan` against `ast-grep scan`, side by side, the whole ast-grep-essentials rule set over real code.

Rules: ../shared/rulesets/ast-grep-essentials (its sgconfig.yml: about 120 rules in 15
languages, each file parsed once for all its language's rules). Corpora: parts of those
bench_match.py uses (the CPython standard library, rxjs, Go's source tree, glibc, the JDK's
java.base, Rust crates), one row each; and one rule project as its owners run it: the 24 rules of
dd-trace-py (benchmarks/rulesets/dd-trace-py, most an `any` of several patterns) over the Python
files of the ddtrace wheel (setup/15-corpora.sh). Each row runs both CLIs cold (a fresh process, median of
--reps), and the two must agree finding for finding (file, rule, byte range) on the rules both
run (the rules tests/rules/test_rule_essentials.py lists as exceptions are left out of the
comparison). Prints a markdown table and writes benchmarks/results/bench_rules.json.

Target (README.md, "Benchmarks"): geometric-mean ratio (minitools / ast-grep) <= 1.0.

    python benchmarks/bench_rules.py [--reps 3] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"
ESSENTIALS = REPO.parent / "shared" / "rulesets" / "ast-grep-essentials"
DDTRACE_RULES = HERE / "rulesets" / "dd-trace-py" / "sgconfig.yml"
TARGET = 1.0

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "rules"))
from bench_match import ast_grep_exe, fetch_installed, fetch_rxjs, fetch_stdlib  # noqa: E402

from test_rule_essentials import EXCEPTIONS  # noqa: E402


def _go() -> Path:
    return fetch_installed("go")() / "net"


def _glibc() -> Path:
    return fetch_installed("glibc")() / "string"


def _jdk() -> Path:
    return fetch_installed("jdk-java.base")()


def _rust() -> Path:
    found = sorted(Path("/usr/share/cargo/registry").glob("regex-[0-9]*"))
    if not found:
        raise SystemExit("no regex crate: run setup/15-corpora.sh")
    return found[-1]


# corpus -> (where it is, the sgconfig.yml whose rules run over it; None: the essentials)
ROWS: dict[str, tuple[Callable[[], Path], Path | None]] = {
    "stdlib multiprocessing/ (python)": (lambda: fetch_stdlib() / "multiprocessing", None),
    "rxjs (js, ts)": (lambda: fetch_rxjs(), None),
    "go net/": (_go, None),
    "glibc string/ (c)": (_glibc, None),
    "jdk java/net (java)": (lambda: _jdk() / "java" / "net", None),
    "regex crate (rust)": (_rust, None),
    "ddtrace 4.16.0 (python), dd-trace-py's own 24 rules": (fetch_installed("ddtrace"), DDTRACE_RULES),
}


def _scan(argv: list[str], cwd: Path) -> tuple[float, set[tuple[str, str, int, int]]]:
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=1800)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv[:3]} exited {proc.returncode}: {proc.stderr[-1000:]}")
    found = set()
    for line in proc.stdout.splitlines():
        m = json.loads(line)
        if m["ruleId"] not in EXCEPTIONS:
            found.add((m["file"], m["ruleId"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]))
    return elapsed, found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    if not (ESSENTIALS / "sgconfig.yml").is_file():
        print(f"no rule set at {ESSENTIALS}", file=sys.stderr)
        return 1
    exe = ast_grep_exe()
    rows = []
    for name, (where, rules) in ROWS.items():
        if args.only and args.only not in name:
            continue
        config = str(rules or ESSENTIALS / "sgconfig.yml")
        corpus = where()
        theirs_t, ours_t = [], []
        for _ in range(args.reps):
            t, theirs = _scan([exe, "scan", "-c", config, "--json=stream", "."], corpus)
            theirs_t.append(t)
            t, ours = _scan([sys.executable, "-m", "minitools", "ast-grep", "scan", "-c", config, "--json=stream", "."], corpus)
            ours_t.append(t)
        agree = theirs == ours
        rows.append({
            "corpus": name, "files": sum(1 for p in corpus.rglob("*") if p.is_file()),
            "findings": len(theirs), "agree": agree,
            "ast_grep_s": statistics.median(theirs_t), "minitools_s": statistics.median(ours_t),
        })
        rows[-1]["ratio"] = rows[-1]["minitools_s"] / rows[-1]["ast_grep_s"]
        if not agree:
            print(f"{name}: findings differ: only ast-grep {sorted(theirs - ours)[:5]}, only minitools {sorted(ours - theirs)[:5]}",
                  file=sys.stderr)
    geo = math.exp(statistics.fmean(math.log(r["ratio"]) for r in rows)) if rows else float("nan")
    print("| corpus | files | findings | agree | ast-grep scan | minitools scan | ratio |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['corpus']} | {r['files']} | {r['findings']} | {'yes' if r['agree'] else 'NO'} | "
              f"{r['ast_grep_s']:.2f} s | {r['minitools_s']:.2f} s | {r['ratio']:.2f} |")
    print(f"| **geometric mean** | | | | | | **{geo:.2f}** (target <= {TARGET}: {'met' if geo <= TARGET else 'not met'}) |")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_rules.json").write_text(json.dumps({
        "date": time.strftime("%Y-%m-%d"), "machine": platform.platform(), "reps": args.reps,
        "rows": rows, "geomean_ratio": geo, "target": TARGET,
    }, indent=2) + "\n")
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
