"""A tiny background worker for the tour: reads its brief, counts the project's files by
extension, and writes the result file. A real roster runs a command-line coding agent."""

import sys
from collections import Counter
from pathlib import Path

brief_file, result_file = sys.argv[1], sys.argv[2]
brief = Path(brief_file).read_text()
counts = Counter(p.suffix or p.name for p in Path(".").rglob("*") if p.is_file())
lines = [f"brief: {brief.strip().splitlines()[0]}"]
lines += [f"{ext}: {n}" for ext, n in sorted(counts.items())]
Path(result_file).write_text("\n".join(lines) + "\n")
