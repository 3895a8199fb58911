"""Running one rule set through both `ast-grep scan` (0.51.1) and `minitools ast-grep scan`
over the same files, and reading their `--json=stream` findings into comparable rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reference_tools import ast_grep_cli

__all__ = ["RULE_ID", "inline_rule", "scan_findings", "scan_both", "update_both"]


def inline_rule(language: str, rule: dict[str, object], **extra: object) -> str:
    return json.dumps({"id": "r", "language": language, "severity": "warning", "message": "m", "rule": rule, **extra})


RULE_ID = 3  # where a row holds the finding's rule id


def scan_findings(argv: list[str], cwd: Path, timeout: float = 120, fold_messages: bool = False) -> list[tuple[object, ...]]:
    """Each finding of a `--json=stream` scan as one row: its place, rule and message, its
    captures, fix and transformed metavariables, and its labels (the match and the nodes the
    relational rules found, or the rule's own labels). `fold_messages`: messages compare with
    their whitespace runs as one space (in a folded (`>`) message, ast-grep's YAML reader keeps
    the block's own indentation on more-indented lines, where YAML 1.2 takes it off)."""
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode in (0, 1), f"{argv[:4]} exited {proc.returncode}: {proc.stderr[-600:]}"
    out = []
    for line in proc.stdout.splitlines():
        m = json.loads(line)
        found = m.get("metaVariables", {})  # absent when nothing is captured
        single = {k: v["text"] for k, v in found.get("single", {}).items()}
        multi = {k: [(n["text"], n["range"]["byteOffset"]["start"]) for n in v] for k, v in found.get("multi", {}).items()}
        # sorted: ast-grep lists a rule's own labels in no set order (the default ones, the
        # match and the nodes its relational rules found, keep theirs in multi["secondary"])
        labels = sorted((x["range"]["byteOffset"]["start"], x["range"]["byteOffset"]["end"], x["text"], x["style"],
                         x.get("message")) for x in m["labels"])
        message = " ".join(m["message"].split()) if fold_messages else m["message"]
        out.append((m["file"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"], m["ruleId"],
                    message, m["severity"], json.dumps(single, sort_keys=True), json.dumps(multi, sort_keys=True),
                    m.get("replacement"), json.dumps(found.get("transformed", {}), sort_keys=True), json.dumps(labels),
                    m["lines"], json.dumps(m["charCount"])))
    return sorted(out, key=lambda f: (f[0], f[1], -f[2], f[3]))  # type: ignore[operator]


def scan_both(tmp_path: Path, name: str, source: str, rules: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    (tmp_path / name).write_text(source)
    theirs = scan_findings([ast_grep_cli(), "scan", "--inline-rules", rules, "--json=stream", "."], tmp_path)
    ours = scan_findings([sys.executable, "-m", "minitools", "ast-grep", "scan", "--inline-rules", rules, "--json=stream", "."], tmp_path)
    return theirs, ours


def update_both(tmp_path: Path, name: str, source: str, rules: str) -> tuple[str, str]:
    """The file as `scan --update-all` leaves it: (ast-grep's, minitools')."""
    texts = []
    for who, argv in (("theirs", [ast_grep_cli()]), ("ours", [sys.executable, "-m", "minitools", "ast-grep"])):
        (tmp_path / who).mkdir()
        (tmp_path / who / name).write_text(source)
        proc = subprocess.run([*argv, "scan", "--inline-rules", rules, "--update-all", "."], cwd=tmp_path / who,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{who} exited {proc.returncode}: {proc.stderr[-600:]}"
        texts.append((tmp_path / who / name).read_text())
    return texts[0], texts[1]
