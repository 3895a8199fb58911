"""The reference tools the differential tests compare against, found where set-up put them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from minitools.match import Searcher, compile_pattern


def ast_grep_cli() -> str:
    """The `ast-grep` CLI beside this interpreter (setup/10-match.sh installs it), else on PATH."""
    exe = Path(sys.executable).with_name("ast-grep")
    found = str(exe) if exe.exists() else shutil.which("ast-grep")
    if not found:
        pytest.skip("the ast-grep CLI is not installed (setup/10-match.sh installs ast-grep-cli==0.51.1)")
    return found


# One match as both tools report it: file (relative to the searched root), start and end byte,
# the matched text, and the captures ($A -> text, $$$A -> list of texts).
Found = tuple[str, int, int, str, dict[str, object]]


def _order(found: list[Found]) -> list[Found]:
    return sorted(found, key=lambda t: (t[0], t[1], -t[2]))


def found_of(m: dict[str, Any]) -> Found:
    """One match of the CLI's JSON output as a `Found`."""
    caps: dict[str, object] = {k: v["text"] for k, v in m.get("metaVariables", {}).get("single", {}).items()}
    caps.update({f"$$${k}": [n["text"] for n in nodes] for k, nodes in m.get("metaVariables", {}).get("multi", {}).items()})
    rng = m["range"]["byteOffset"]
    return (m["file"], rng["start"], rng["end"], m["text"], caps)


def _from_json_lines(stdout: str) -> list[Found]:
    return _order([found_of(json.loads(line)) for line in stdout.splitlines()])


def _run(argv: list[str], root: Path) -> str:
    proc = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), f"{argv[1:4]} exited {proc.returncode}: {proc.stderr[-800:]}"
    return proc.stdout


def ast_grep_run(root: Path, pattern: str, language: str) -> list[Found]:
    """`ast-grep run -p PATTERN -l LANGUAGE` over root: plain ast-grep, no ladder."""
    return _from_json_lines(_run([ast_grep_cli(), "run", "-p", pattern, "-l", language, "--json=stream", "."], root))


def ast_grep_selector(root: Path, context: str, selector: str, language: str) -> list[Found]:
    """`ast-grep scan` with an inline rule `pattern: {context, selector}`: the pattern written in
    a context that parses, the match taken at the node of kind `selector`. This is ast-grep's own
    way to say what minitools' scaffold ladder does."""
    rule = json.dumps({"id": "p", "language": language, "rule": {"pattern": {"context": context, "selector": selector}}})
    return _from_json_lines(_run([ast_grep_cli(), "scan", "--inline-rules", rule, "--json=stream", "."], root))


def minitools_matches(root: Path, pattern: str, language: str, searcher: Searcher | None = None) -> list[Found]:
    """minitools' structural search over root (with `searcher`, whose trees it keeps, if given),
    in the same shape."""
    own = searcher is None
    searcher = Searcher(root, ignore_parents=False) if searcher is None else searcher
    try:
        res = searcher.search(compile_pattern(pattern, language))
    finally:
        if own:
            searcher.close()
    out: list[Found] = []
    for m in res.matches:
        caps: dict[str, object] = {k: v.text for k, v in m.metavars.items() if k not in m.multi}
        caps.update({f"$$${k}": [c.text for c in v] for k, v in m.multi.items()})
        out.append((str(m.path), m.start_byte, m.end_byte, m.text, caps))
    return _order(out)
