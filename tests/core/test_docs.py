"""Comments and docstrings cite the repository's own docs, and what they cite is there: a
`docs/NAME.md, "Section"` citation names an existing page that contains that section's words.
Design notes kept outside the repository, and issue numbers, are not citations a reader can follow."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

CITATION = re.compile(r'docs/([\w-]+)\.md(?:,\s*"([^"]+)")?')
OUTSIDE = re.compile(r"\b(?:SPEC|REFERENCE|ARCHITECTURE|CONVENTIONS)\.md\b|\bissues? #?\d+\b")

def _texts() -> list[Path]:
    # the files git tracks: corpora and caches a set-up or benchmark left in the tree are not ours
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    folders = ("minitools", "tests", "benchmarks", "setup", "examples", "docs")
    names = [n for n in listed.decode().split("\0") if n]
    files = [REPO / n for n in names if n.split("/", 1)[0] in folders and Path(n).suffix in (".py", ".sh", ".md", ".toml")]
    files += [REPO / "README.md", REPO / "Makefile", REPO / "pyproject.toml"]
    return sorted(p for p in files if p.is_file() and p.resolve() != THIS)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_nothing_cites_documents_outside_the_repository():
    bad = []
    for path in _texts():
        rel = str(path.relative_to(REPO))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{rel}:{n}: {line.strip()}")
    assert not bad, "cite docs/*.md (bring the fact there) instead:\n" + "\n".join(bad)


def test_citations_of_docs_resolve():
    pages = {p.stem: _flat(p.read_text(encoding="utf-8")) for p in (REPO / "docs").glob("*.md")}
    bad = []
    for path in _texts():
        text = path.read_text(encoding="utf-8")
        for m in CITATION.finditer(text):
            page, section = m.group(1), m.group(2)
            where = f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}"
            if page not in pages:
                bad.append(f"{where}: docs/{page}.md does not exist")
            elif section and _flat(section) not in pages[page]:
                bad.append(f'{where}: docs/{page}.md has no "{_flat(section)}"')
    assert not bad, "\n".join(bad)


def test_the_readme_lists_every_lsp_action():
    from minitools.tools.lsp._actions import ACTIONS

    row = next(line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("| `lsp` |"))
    missing = [a for a in ACTIONS if not re.search(rf"\b{a}\b", row)]
    assert not missing, f"README's lsp row lacks {missing}"
