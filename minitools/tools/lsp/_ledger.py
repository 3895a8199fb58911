"""The per-run ledger's rule of what is new: a diagnostic is known by its severity, code and
message, its position deliberately left out (docs/tools.md, "Write-time diagnostics"), so one
that merely moved is not reported again. The written files and the files that depend on them
(`_written`, `_dependents`) are both judged by it."""

from __future__ import annotations

from collections import Counter

from minitools.tools._records import DiagnosticRow

__all__ = ["Ledger", "new_instances"]

Key = tuple[str, str | None, str]
Row = DiagnosticRow
Ledger = dict[str, list[Row]]  # file -> its diagnostics (rows) last reported or taken as the baseline


def new_instances(rows: list[Row], previous: list[Row]) -> list[Row]:
    """The rows that are new against `previous`, those whose line text is new first.

    A diagnostic is known by its key — severity, code and message, position deliberately left
    out (docs/tools.md), so one that merely moved is not new. When a key has more instances
    than before, the new ones are those on a line whose text no earlier instance had; then,
    only when the count needs more, copies of an old line elsewhere; last, those on an
    unchanged line (the same text at the same line number)."""
    before: dict[Key, list[Row]] = {}
    for row in previous:
        before.setdefault(_key(row), []).append(row)
    groups: dict[Key, list[Row]] = {}
    for row in rows:
        groups.setdefault(_key(row), []).append(row)
    fresh_text: list[Row] = []
    old_text: list[Row] = []
    for key, group in groups.items():
        old = before.get(key, [])
        count = len(group) - len(old)
        if count <= 0:
            continue
        texts = {r["text"] for r in old}
        places = Counter((r["text"], r["line"]) for r in old)
        new_text = [r for r in group if r["text"] not in texts]
        moved, unchanged = [], []
        for row in group:
            if row["text"] in texts:
                place = (row["text"], row["line"])
                if places[place] > 0:
                    places[place] -= 1
                    unchanged.append(row)
                else:
                    moved.append(row)
        chosen = (new_text + moved + unchanged)[:count]
        fresh_text += chosen[: len(new_text)]
        old_text += chosen[len(new_text):]
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(fresh_text, key=lambda r: order[id(r)]) + sorted(old_text, key=lambda r: order[id(r)])


def _key(row: Row) -> Key:
    # the ledger key: severity, code and message — position deliberately left out
    # (docs/tools.md), so a diagnostic that merely moved is not new; kept per file
    return (row["severity"], row["code"], row["message"])
