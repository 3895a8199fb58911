"""JavaScript values as DAP shows them: a CDP `RemoteObject` rendered as one line of text, and
the handles (`variablesReference`) that stand for objects while the program is paused
(docs/architecture.md, "The node adapter").

A handle is a small integer for an inspector `objectId`; handles are valid only until the
program resumes (DAP's rule), so the table is cleared then and never grows past one pause's
worth of expanded objects (at most `MAX_HANDLES`).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["Handles", "render", "type_name", "SCOPE_NAMES"]

MAX_HANDLES = 100_000
PREVIEW_TEXT = 300  # characters of a rendered value before it is cut

# CDP scope types as DAP scope names (Debugger.Scope.type)
SCOPE_NAMES = {"local": "Local", "closure": "Closure", "block": "Block", "script": "Script", "module": "Module",
               "global": "Global", "catch": "Catch", "with": "With", "eval": "Eval", "wasm-expression-stack": "Stack"}


class Handles:
    """variablesReference numbers for objects (and for scope objects) of the current pause."""

    def __init__(self) -> None:
        self._objects: dict[int, dict[str, Any]] = {}
        self._next = 0

    def add(self, remote: dict[str, Any]) -> int:
        """A reference for `remote` (a RemoteObject); 0 when it has no children to show."""
        if not remote.get("objectId") or remote.get("type") not in ("object", "function") or remote.get("subtype") == "null":
            return 0
        if len(self._objects) >= MAX_HANDLES:
            return 0
        self._next += 1
        self._objects[self._next] = remote
        return self._next

    def get(self, reference: int) -> dict[str, Any] | None:
        return self._objects.get(reference)

    def clear(self) -> None:
        self._objects.clear()


def type_name(remote: dict[str, Any]) -> str:
    """The type shown beside a value: the class of an object, else the JavaScript type."""
    if remote.get("type") == "object" and remote.get("subtype") != "null":
        return str(remote.get("className") or "Object")
    return "null" if remote.get("subtype") == "null" else str(remote.get("type") or "")


def _cut(text: str, cap: int = PREVIEW_TEXT) -> str:
    return text if len(text) <= cap else text[:cap] + "…"


def _primitive(kind: str, value: Any, description: str | None) -> str:
    if kind == "string":
        return json.dumps(value if isinstance(value, str) else description or "", ensure_ascii=False)
    if kind == "undefined":
        return "undefined"
    if kind == "bigint":
        return (description or str(value)) + ("" if (description or "").endswith("n") else "n")
    if description is not None:
        return description
    return json.dumps(value) if value is not None else "null"


def _preview(preview: dict[str, Any]) -> str:
    """An ObjectPreview as `{a: 1, b: "x"}` or `[1, 2, 3]` (V8 keeps a handful of entries)."""
    props = preview.get("properties") or []
    is_array = preview.get("subtype") in ("array", "typedarray")
    parts = []
    for prop in props:
        kind = prop.get("type")
        value = prop.get("value")
        shown = json.dumps(value, ensure_ascii=False) if kind == "string" and value is not None else str(value)
        if kind == "object" and prop.get("subtype") == "null":
            shown = "null"
        parts.append(shown if is_array else f"{prop.get('name')}: {shown}")
    for entry in preview.get("entries") or []:  # Map and Set
        value = _preview(entry.get("value") or {})
        key = entry.get("key")
        parts.append(f"{_preview(key)} => {value}" if key else value)
    if preview.get("overflow"):
        parts.append("…")
    body = ", ".join(parts)
    if is_array:
        return f"[{body}]"
    if preview.get("type") != "object":
        return str(preview.get("description", ""))
    name = preview.get("description") or "Object"
    return f"{{{body}}}" if name == "Object" else f"{name} {{{body}}}"


def render(remote: dict[str, Any]) -> str:
    """One line for a RemoteObject: `42`, `"text"`, `[1, 2, 3]`, `{a: 1}`, `ƒ total(items, bonus)`."""
    kind = str(remote.get("type") or "")
    if kind not in ("object", "function"):
        return _cut(_primitive(kind, remote.get("value"), remote.get("description") or remote.get("unserializableValue")))
    if remote.get("subtype") == "null":
        return "null"
    if kind == "function":
        head = str(remote.get("description") or "function").split("\n", 1)[0]
        head = head.split("{", 1)[0].strip()
        return _cut("ƒ " + head.removeprefix("function").strip() if head.startswith("function") else head)
    preview = remote.get("preview")
    if isinstance(preview, dict) and remote.get("subtype") not in ("error", "regexp", "date"):
        shown = _preview(preview)
        if remote.get("subtype") in ("array", "typedarray"):
            shown = f"{remote.get('description', 'Array')} {shown}"
        return _cut(shown)
    return _cut(str(remote.get("description") or remote.get("className") or "Object").split("\n", 1)[0])
