"""Run every benchmark in this folder, side by side with its reference tool, and put the
tables into the README between the BENCHMARKS markers.

Each `bench_*.py` is a plain script (not collected by pytest) that prints a markdown table
and writes benchmarks/results/<name>.json with at least ``{"title", "target", "table"}``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"
START, END = "<!-- BENCHMARKS:START -->", "<!-- BENCHMARKS:END -->"


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem for p in HERE.glob("bench_*.py"))
    failed = []
    for name in names:
        print(f"== {name}", flush=True)
        code = subprocess.call([sys.executable, str(HERE / f"{name}.py")], cwd=HERE.parent)
        if code != 0:
            failed.append(name)
    sections = []
    for path in sorted((HERE / "results").glob("bench_*.json")):
        result = json.loads(path.read_text())
        sections.append(f"### {result.get('title', path.stem)}\n\n{result.get('target', '')}\n\n{result['table']}\n")
    if sections and START in README.read_text():
        text = README.read_text()
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        README.write_text(head + START + "\n\n" + "\n".join(sections) + "\n" + END + tail)
        print(f"README benchmark tables updated from {len(sections)} result files")
    if failed:
        print(f"benchmarks that failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
