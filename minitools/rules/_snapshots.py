"""Rule test snapshots, as ast-grep's `test` keeps them: for each `invalid` snippet, the labels of
its first finding (source, style, start and end byte, message where the rule's labels give one)
and, for a rule with a fix, the snippet with that finding fixed. A rule's snapshots live in
`<snapshot folder>/<rule id>-snapshot.yml` (`id`, and `snapshots` by snippet); `ast-grep test`
reads ours and we read its (docs/tools.md, "Rules")."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.rules._errors import RuleError
from minitools.rules._scan import Finding
from minitools.rules._yaml import YamlError, load_one

__all__ = ["snapshot_of", "snapshot_path", "read_snapshots", "render_snapshots"]

Snapshot = dict[str, Any]


def snapshot_of(finding: Finding, source: bytes) -> Snapshot:
    """The snapshot of a snippet whose first finding is `finding`."""
    out: Snapshot = {}
    if finding.fix is not None:
        start, end, text = finding.fix
        out["fixed"] = (source[:start] + text.encode("utf-8") + source[end:]).decode("utf-8", "replace")
    labels = []
    for start, end, style, message in finding.labels:
        label: dict[str, Any] = {"source": source[start:end].decode("utf-8", "replace")}
        if message is not None:
            label["message"] = message
        label.update({"style": style, "start": start, "end": end})
        labels.append(label)
    out["labels"] = labels
    return out


def snapshot_path(folder: Path, rule_id: str) -> Path:
    return folder / f"{rule_id}-snapshot.yml"


def read_snapshots(path: Path) -> dict[str, Snapshot] | None:
    """A rule's snapshots by snippet; None when the file is not there. RuleError naming the
    file when it is not a snapshot file."""
    try:
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(f"{path}: cannot read the snapshot file: {exc}") from None
    try:
        doc = load_one(text)
    except YamlError as exc:
        raise RuleError(f"{path}: {exc}") from None
    found = doc.get("snapshots") if isinstance(doc, Mapping) else None
    if not isinstance(found, Mapping):
        raise RuleError(f"{path}: expected a snapshot file (id, snapshots); update it with --update-all")
    return {str(k): v for k, v in found.items()}


def render_snapshots(rule_id: str, snapshots: Mapping[str, Snapshot]) -> str:
    """A snapshot file's YAML: every string double-quoted (JSON's escapes are YAML's), each
    snippet an explicit key, in the order given."""
    lines = [f"id: {_quoted(rule_id)}", "snapshots:" if snapshots else "snapshots: {}"]
    for snippet, snap in snapshots.items():
        lines.append(f"  ? {_quoted(snippet)}")
        first = True
        for key, value in snap.items():
            lead = "  : " if first else "    "
            first = False
            if key == "labels":
                lines.append(f"{lead}labels:" + ("" if value else " []"))
                for label in value:
                    inner = [f"{k}: {_scalar(v)}" for k, v in label.items()]
                    lines.append(f"    - {inner[0]}")
                    lines += [f"      {item}" for item in inner[1:]]
            else:
                lines.append(f"{lead}{key}: {_scalar(value)}")
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _scalar(value: object) -> str:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else _quoted(str(value))


def write_text_atomic(path: Path, text: str) -> None:
    """Write `path` whole or not at all (a temporary file beside it, renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
