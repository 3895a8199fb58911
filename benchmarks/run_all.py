"""Run every benchmark in this folder, side by side with its reference tool, and put the
tables they print into benchmarks/README.md between the BENCHMARKS markers (the top README keeps
the summary table of targets).

Each `bench_*.py` is a plain script (not collected by pytest) that prints a markdown table
(and writes benchmarks/results/<name>.json). Its module docstring's first line is the title.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
START, END = "<!-- BENCHMARKS:START -->", "<!-- BENCHMARKS:END -->"


def _title(script: Path) -> str:
    doc = ast.get_docstring(ast.parse(script.read_text())) or script.stem
    first = " ".join(doc.strip().split("\n\n")[0].split())
    return first.split(":")[0]


def _tables(output: str) -> str:
    """The markdown table lines (and `> ` quoted lines) a benchmark printed, blocks separated by a
    blank line."""
    blocks: list[list[str]] = [[]]
    for line in output.splitlines():
        if line.startswith(("|", "> ")):
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return "\n\n".join("\n".join(b) for b in blocks if b)


def _merged(old: str, sections: list[str]) -> str:
    """The README's benchmark sections with those just run put in place of their namesakes (by
    their `### ` title), the others kept as they were: running one benchmark leaves the rest."""
    kept = ["### " + s.strip() + "\n" for s in old.split("\n### ") if s.strip()]
    kept = [s.replace("### ### ", "### ") for s in kept]
    titles = {s.split("\n", 1)[0]: s for s in sections}
    out = [titles.pop(s.split("\n", 1)[0], s) for s in kept]
    return "\n".join(out + list(titles.values()))


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem for p in HERE.glob("bench_*.py"))
    failed, sections = [], []
    for name in names:
        script = HERE / f"{name}.py"
        print(f"== {name}", flush=True)
        proc = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, capture_output=True, text=True)
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr[-4000:])
        if proc.returncode != 0:
            failed.append(name)
            continue
        stamp = time.strftime("%Y-%m-%d")
        sections.append(f"### {_title(script)}\n\n`benchmarks/{name}.py`, measured {stamp} on this 2-core machine.\n\n{_tables(proc.stdout)}\n")
    if sections and START in README.read_text():
        text = README.read_text()
        head, rest = text.split(START, 1)
        old, tail = rest.split(END, 1)
        README.write_text(head + START + "\n\n" + _merged(old, sections) + "\n" + END + tail)
        print(f"benchmarks/README.md tables updated ({len(sections)} benchmarks)")
    if failed:
        print(f"benchmarks that failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
