"""Structural-search benchmark: minitools' structural search against the `ast-grep` CLI, side by side, in one run.

Corpora (fetched through package clients only, into benchmarks/corpora/, git-ignored):
  - the CPython standard library of the running interpreter (copied without site-packages);
  - the rxjs npm package's published tree (`npm pack rxjs@7.8.2`): JavaScript and TypeScript;
  - go: Go's source tree (Debian golang-src, /usr/lib/go-*/src);
  - glibc: the GNU C library's .c/.h files but sysdeps/ (Debian glibc-source);
  - typescript: npm packages shipping TypeScript (rxjs, effect, @tensorflow/tfjs-core);
  - jdk: the JDK's java.base sources (Debian openjdk-17-source);
  - dense: one generated file, `print(1), ` repeated to 64 KiB (in a temporary folder);
  - beyond the eight tuned languages: cpp (googletest, asio), csharp (pythonnet), expo (Kotlin and
    Swift of expo-modules-core), ruby (the Ruby standard library), php (doctrine-orm).
  setup/15-corpora.sh installs all but stdlib, rxjs and dense (`make bench` runs it; this script
  runs it if needed).

For every pattern of the suite: cold = a fresh process each (`python -m minitools.commands.ast_grep
… --json` vs `ast-grep run … --json=stream`), the best of --reps runs (the medians too, in the
results and as a second geometric mean); warm = repeated calls of one
Searcher in this process after a first call (median of --reps), set against ast-grep's cold time
(it has no warm mode). The two must agree on the matches (file, byte range). Prints a markdown
table and writes benchmarks/results/bench_match.json.

Targets (README.md, "Benchmarks"), on a 2-core machine: cold geometric-mean ratio <= 1.0, warm <= 0.2, for
the eight tuned languages' rows and, apart, for the rows of the languages beyond them (WIDE); the script
prints where the run stands against each.

    python benchmarks/bench_match.py [--reps 3] [--only stdlib|rxjs|go|glibc|typescript|jdk|dense|cpp|csharp|expo|ruby|php]
"""

from __future__ import annotations

import argparse
import atexit
import compileall
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPORA = HERE / "corpora"
RESULTS = HERE / "results"
RXJS = "rxjs@7.8.2"
COLD_TARGET, WARM_TARGET = 1.0, 0.2

sys.path.insert(0, str(REPO))
from minitools.match import Searcher, compile_pattern  # noqa: E402

SUITE: list[tuple[str, str, str]] = [
    ("stdlib", "python", "if $X is None: $$$B"),
    ("stdlib", "python", "subprocess.run($$$A)"),
    ("stdlib", "python", "isinstance($X, str)"),
    ("stdlib", "python", "$A.append($B)"),
    ("stdlib", "python", "raise ValueError($M)"),
    ("stdlib", "python", "self.$A = $A"),
    ("rxjs", "javascript", "new Observable($$$A)"),
    ("rxjs", "javascript", "$A.subscribe($$$B)"),
    ("rxjs", "typescript", "export function $F($$$P) { $$$B }"),
    ("rxjs", "typescript", "isFunction($X)"),
    ("go", "go", "if err != nil { $$$B }"),
    ("go", "go", "return $A, nil"),
    ("go", "go", "$X := make($T, $N)"),
    ("glibc", "c", "memset($A, 0, sizeof($B))"),
    ("glibc", "c", "$A->$B = $C;"),
    ("glibc", "c", "sizeof($T)"),
    ("typescript", "typescript", "new $C($$$A)"),
    ("typescript", "typescript", "$A as $T"),
    ("typescript", "typescript", "export declare function $F($$$P): $R;"),
    # the languages beyond the eight (issue "every language"): corpora setup/15-corpora.sh installs
    ("cpp", "cpp", "std::make_shared<$T>($$$A)"),
    ("cpp", "cpp", "$A->$B($$$C)"),
    ("csharp", "csharp", "$A.Length"),
    ("csharp", "csharp", "new $T($$$A)"),
    ("expo", "kotlin", "$A?.let { $$$B }"),
    ("expo", "kotlin", "fun $F($$$P) { $$$B }"),
    ("expo", "swift", "guard let $A = $B else { $$$C }"),
    ("expo", "swift", "$A?.$B"),
    ("ruby", "ruby", "raise $E, $M"),
    ("ruby", "ruby", "$A.each do |$X| $$$B end"),
    ("php", "php", "$this->$M($$$A)"),
    ("php", "php", "throw new $E($$$A);"),
]
WIDE = ("cpp", "csharp", "expo", "ruby", "php")  # their rows: a table and geometric means of their own
# The costliest classes of search, each with its own cold-ratio target (README.md,
# "Benchmarks"): a dense file (a match every 10 bytes; 64 KiB, where ast-grep already takes
# seconds and hundreds of MB: its time grows with the square of the matches in a file), and
# the pattern shapes that parse every file and try every node (a run of metavariables).
CLASSES: list[tuple[str, str, str, float]] = [
    ("dense", "python", "print($A)", 1.0),
    ("jdk", "java", "$A $B", 2.0),
    ("go", "go", "$A = $E", 2.0),
]
DENSE_BYTES = 64 << 10
CORPORA_SETUP = REPO / "setup" / "15-corpora.sh"


def ast_grep_exe() -> str:
    exe = Path(sys.executable).with_name("ast-grep")
    found = str(exe) if exe.exists() else shutil.which("ast-grep")
    if not found:
        sys.exit("ast-grep not found: pip install ast-grep-cli==0.51.1 (the bench extra)")
    return found


def fetch_stdlib() -> Path:
    src = Path(sysconfig.get_paths()["stdlib"])
    dest = CORPORA / f"stdlib-{platform.python_version()}"
    if not dest.exists():
        tmp = dest.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(src, tmp, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"), symlinks=True)
        tmp.rename(dest)
    return dest


def fetch_rxjs() -> Path:
    dest = CORPORA / RXJS.replace("@", "-")
    if not dest.exists():
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["npm", "pack", RXJS, "--silent"], cwd=tmp, check=True, capture_output=True)
            (tarball,) = Path(tmp).glob("*.tgz")
            with tarfile.open(tarball) as tar:
                tar.extractall(tmp, filter="data")
            shutil.move(str(Path(tmp) / "package"), dest)
    return dest


def make_dense() -> Path:
    """The dense corpus, written afresh for the run into a temporary folder (removed at exit)."""
    dest = Path(tempfile.mkdtemp(prefix="bench-dense-"))
    atexit.register(shutil.rmtree, dest, ignore_errors=True)
    (dest / "dense.py").write_text("print(1), " * (DENSE_BYTES // 10) + "\n")
    return dest


def fetch_installed(name: str) -> Callable[[], Path]:
    """A corpus setup/15-corpora.sh installs: run it if the corpus is missing."""

    def find() -> Path | None:
        if name == "go":
            trees = sorted(Path("/usr/lib").glob("go-*/src/go/ast"), key=lambda p: p.parts[3])
            return trees[-1].parent.parent if trees else None
        folder = CORPORA / {"jdk": "jdk-java.base"}.get(name, name)
        return folder if folder.is_dir() else None

    def fetch() -> Path:
        found = find()
        if found is None:
            subprocess.run(["bash", str(CORPORA_SETUP)], cwd=REPO, check=True,
                           env={**os.environ, "VENV": str(Path(sys.executable).parent.parent)})
            found = find()
        if found is None:
            sys.exit(f"{CORPORA_SETUP.name} did not install the {name} corpus")
        return found

    return fetch


def timed(argv: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{argv[:3]} exited {proc.returncode}: {proc.stderr[-500:]}")
    return elapsed, proc.stdout


def theirs(exe: str, corpus: Path, lang: str, pattern: str) -> tuple[float, set[tuple[str, int, int]]]:
    # --no-ignore parent (both tools): the corpora sit in this repository, whose .gitignore
    # (dist/, the corpora folder) must not hide their files
    t, out = timed([exe, "run", "-p", pattern, "-l", lang, "--no-ignore", "parent", "--json=stream", "."], corpus)
    found = set()
    for line in out.splitlines():
        m = json.loads(line)
        found.add((m["file"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]))
    return t, found


def ours_cold(corpus: Path, lang: str, pattern: str) -> tuple[float, set[tuple[str, int, int]]]:
    argv = [sys.executable, "-m", "minitools.commands.ast_grep", pattern, ".", "--lang", lang, "--json", "--root", ".",
            "--no-ignore", "parent"]
    t, out = timed(argv, corpus)
    return t, {(m["file"], m["start_byte"], m["end_byte"]) for m in json.loads(out)}


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def _geomeans(rows: list[dict[str, Any]], prefix: str) -> dict[str, float]:
    """A group's geometric-mean ratios: cold (best of the reps), cold from the medians, warm."""
    return {
        f"{prefix}cold_geomean_ratio": round(geomean([r["cold_ratio"] for r in rows]), 3),
        f"{prefix}cold_geomean_ratio_of_medians": round(geomean(
            [r["median"]["minitools_cold_s"] / r["median"]["ast_grep_cold_s"] for r in rows]), 3),
        f"{prefix}warm_geomean_ratio": round(geomean([r["warm_ratio"] for r in rows]), 3),
    }


def _cells(r: dict[str, Any]) -> str:
    """A row's first cells, up to its cold ratio's."""
    return (f"| {r['corpus']} | `{r['pattern']}` | {r['language']} | {r['files']} | {r['matches']}/{r['ast_grep_matches']} | "
            f"{r['ast_grep_cold_s']:.2f} | {r['minitools_cold_s']:.2f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", choices=["stdlib", "rxjs", "go", "glibc", "typescript", "jdk", "dense", *WIDE])
    args = ap.parse_args()
    exe = ast_grep_exe()
    load_before = os.getloadavg()[0]  # the machine is shared: what else ran is part of the result
    # the package as installed: its bytecode compiled (PYTHONDONTWRITEBYTECODE may be set)
    compileall.compile_dir(str(REPO / "minitools"), quiet=1)
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    corpora: dict[str, Callable[[], Path]] = {"stdlib": fetch_stdlib, "rxjs": fetch_rxjs, "dense": make_dense}
    corpora.update({name: fetch_installed(name) for name in ("go", "glibc", "typescript", "jdk", *WIDE)})
    roots = {name: fn() for name, fn in corpora.items() if args.only in (None, name)}
    searchers = {name: Searcher(root, ignore_parents=False) for name, root in roots.items()}
    memory: dict[str, dict[str, Any]] = {}

    def measure_and_close(name: str) -> None:
        # a corpus's trees are let go once its rows are done (five corpora's caches at once
        # would hold some 1.5 GB)
        s = searchers[name]
        pool_rss = [rss_mb(pid) for pid in (s._pool.pids if s._pool else [])]
        memory[name] = {
            "cache_bound_source_bytes": s.cache.max_bytes,
            "worker_rss_mb": [round(x, 1) for x in pool_rss],
            "parent_rss_mb": round(rss_mb(os.getpid()), 1),
        }
        s.close()

    rows: list[dict[str, Any]] = []
    suite = SUITE + [(corpus, lang, pattern) for corpus, lang, pattern, _ in CLASSES]
    targets = {(corpus, pattern): target for corpus, _, pattern, target in CLASSES}
    last_row = {corpus: i for i, (corpus, _, _) in enumerate(suite)}
    for i, (corpus, lang, pattern) in enumerate(suite):
        if corpus not in roots:
            continue
        root = roots[corpus]
        sg_times, mt_times = [], []
        sg_found: set[tuple[str, int, int]] = set()
        mt_found: set[tuple[str, int, int]] = set()
        for _ in range(args.reps):  # interleaved, so drift hits both alike
            t, sg_found = theirs(exe, root, lang, pattern)
            sg_times.append(t)
            t, mt_found = ours_cold(root, lang, pattern)
            mt_times.append(t)
        searcher = searchers[corpus]
        compiled = compile_pattern(pattern, lang)
        first = searcher.search(compiled)
        warm = []
        for _ in range(args.reps):
            start = time.perf_counter()
            result = searcher.search(compiled)
            warm.append(time.perf_counter() - start)
        warm_found = {(m.path, m.start_byte, m.end_byte) for m in result.matches}
        # best of the reps: the machine is shared, and the minimum is the least disturbed run
        sg_cold, mt_cold, mt_warm = min(sg_times), min(mt_times), min(warm)
        row = {
            "corpus": corpus, "language": lang, "pattern": pattern, "rung": compiled.rung,
            "files": result.files_searched, "skipped": result.skipped, "matches": len(mt_found),
            "ast_grep_matches": len(sg_found),
            "agree": mt_found == sg_found and warm_found == mt_found and first.total == result.total,
            "only_ours": len(mt_found - sg_found), "only_ast_grep": len(sg_found - mt_found),
            "ast_grep_cold_s": round(sg_cold, 3), "minitools_cold_s": round(mt_cold, 3),
            "minitools_warm_s": round(mt_warm, 3),
            "cold_ratio": round(mt_cold / sg_cold, 3), "warm_ratio": round(mt_warm / sg_cold, 3),
            "class_target": targets.get((corpus, pattern)),
            "median": {"ast_grep_cold_s": round(statistics.median(sg_times), 3),
                       "minitools_cold_s": round(statistics.median(mt_times), 3),
                       "minitools_warm_s": round(statistics.median(warm), 3)},
        }
        rows.append(row)
        print(f"  {corpus:10} {pattern:38} cold {mt_cold:6.2f}s vs {sg_cold:6.2f}s  warm {mt_warm:6.3f}s  "
              f"matches {len(mt_found)}/{len(sg_found)} {'agree' if row['agree'] else 'DIFFER'}", file=sys.stderr)
        if last_row[corpus] == i:
            measure_and_close(corpus)
    suite_rows = [r for r in rows if r["class_target"] is None and r["corpus"] not in WIDE]
    wide_rows = [r for r in rows if r["corpus"] in WIDE]
    summary = {
        # each group's rows; the costly classes have targets of their own
        **_geomeans(suite_rows, ""), **_geomeans(wide_rows, "wide_"),
        "classes_met": all(r["cold_ratio"] <= r["class_target"] for r in rows if r["class_target"] is not None),
        "all_agree": all(r["agree"] for r in rows),
    }
    load = (round(load_before, 2), round(os.getloadavg()[0], 2))
    print(f"\nast-grep: {version}; python {platform.python_version()}; cores: {os.cpu_count()}; reps: {args.reps}; "
          f"load average (1 min) {load[0]} at the start, {load[1]} at the end")
    for group, prefix, label in ((suite_rows, "", "the eight tuned languages"), (wide_rows, "wide_", "beyond the eight")):
        if not group:
            continue
        met = {kind: "met" if summary[f"{prefix}{kind}_geomean_ratio"] <= target else "NOT met"
               for kind, target in (("cold", COLD_TARGET), ("warm", WARM_TARGET))}
        # a `> ` line: run_all.py keeps it with the table in README.md
        print(f"\n> {label}: cold geometric-mean ratio {summary[prefix + 'cold_geomean_ratio']:.3f} (target <= {COLD_TARGET}: "
              f"{met['cold']}; {summary[prefix + 'cold_geomean_ratio_of_medians']:.3f} from the medians of the reps), warm "
              f"{summary[prefix + 'warm_geomean_ratio']:.3f} (target <= {WARM_TARGET}: {met['warm']})")
        print("\n| corpus | pattern | lang | files | matches (ours/ast-grep) | ast-grep cold s | minitools cold s "
              "| cold ratio | minitools warm s | warm ratio | agree |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in group:
            print(f"{_cells(r)} {r['cold_ratio']:.2f} | {r['minitools_warm_s']:.3f} | {r['warm_ratio']:.3f} | "
                  f"{'yes' if r['agree'] else 'NO'} |")
        print(f"| **geometric mean** | | | | | | | **{summary[prefix + 'cold_geomean_ratio']:.2f}** | | "
              f"**{summary[prefix + 'warm_geomean_ratio']:.3f}** | |")
    class_rows = [r for r in rows if r["class_target"] is not None]
    if class_rows:
        print("\n| costly class | pattern | lang | files | matches (ours/ast-grep) | ast-grep cold s | minitools cold s "
              "| cold ratio | target | met | minitools warm s | agree |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|")
        for r in class_rows:
            print(f"{_cells(r)} {r['cold_ratio']:.2f} | {r['class_target']:.1f} | "
                  f"{'yes' if r['cold_ratio'] <= r['class_target'] else 'NO'} | "
                  f"{r['minitools_warm_s']:.3f} | {'yes' if r['agree'] else 'NO'} |")
    for name, m in memory.items():
        print(f"\n{name}: tree cache bound {m['cache_bound_source_bytes'] >> 20} MiB of source; "
              f"worker RSS {m['worker_rss_mb']} MB; bench process RSS {m['parent_rss_mb']} MB")
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = {"ast_grep": version, "python": platform.python_version(), "cores": os.cpu_count(), "reps": args.reps, "load": load,
           "rows": rows, "summary": summary, "memory": memory}
    (RESULTS / "bench_match.json").write_text(json.dumps(out, indent=2) + "\n")
    return 0 if summary["all_agree"] else 1


if __name__ == "__main__":
    sys.exit(main())
