"""Pure formatting for the lsp tools: LSP results (locations, hovers, symbol kinds,
diagnostics) to rows, and rows to the text the model reads (docs/tools.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from minitools.lsp import LSPClient, from_lsp_column, path_to_uri, read_regular, split_lines, uri_to_path
from minitools.tools._records import DiagnosticRow, LocationRow

__all__ = ["SEVERITY", "SYMBOL_KINDS", "hover_text", "symbol_kind", "diagnostic_row",
           "format_diagnostic", "listed", "location", "locations"]

SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
SYMBOL_KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor",
                "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array",
                "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"]

RelPath = Callable[[Path], str]


def hover_text(result: Any) -> str:
    """The text of a Hover result (MarkupContent, MarkedString or a list of them)."""
    if not isinstance(result, dict):
        return ""
    contents = result.get("contents")
    parts = contents if isinstance(contents, list) else [contents]
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict):
            if "kind" in part:
                out.append(str(part.get("value", "")))
            elif "language" in part:
                out.append(f"```{part['language']}\n{part.get('value', '')}\n```")
    return "\n\n".join(p.strip() for p in out if p and p.strip())


def symbol_kind(kind: Any) -> str:
    return SYMBOL_KINDS[kind] if isinstance(kind, int) and 0 < kind < len(SYMBOL_KINDS) else "symbol"


def diagnostic_row(client: LSPClient, rel: str, text: str, diag: dict[str, Any]) -> DiagnosticRow:
    start = diag.get("range", {}).get("start", {})
    line = int(start.get("line", 0))
    lines = split_lines(text)
    body = lines[line] if 0 <= line < len(lines) else ""
    code = diag.get("code")
    return {"file": rel, "line": line + 1, "column": from_lsp_column(body, int(start.get("character", 0)), client.encoding) + 1,
            "severity": SEVERITY.get(diag.get("severity") or 1, "error"), "code": code if code is None else str(code),
            "message": str(diag.get("message", "")), "source": diag.get("source"), "text": body.strip()}


def format_diagnostic(d: DiagnosticRow) -> str:
    code = f" [{d['code']}]" if d.get("code") else ""
    source = f" ({d['source']})" if d.get("source") else ""
    return f"{d['file']}:{d['line']}:{d['column']}: {d['severity']}{code}: {d['message']}{source}\n    {d['text']}"


def listed(rows: list[DiagnosticRow], cap: int, indent: str = "  ") -> list[str]:
    """`rows` as lines under a file's heading, at most `cap` of them, and how many more."""
    lines = [indent + format_diagnostic(d).replace("\n", "\n" + indent) for d in rows[:cap]]
    if len(rows) > cap:
        lines.append(f"{indent}... and {len(rows) - cap} more")
    return lines


# Locations ----------------------------------------------------------------------------

def _line_text(path: Path, line: int, cache: dict[Path, list[str]], client: LSPClient | None = None) -> str:
    if path not in cache:
        doc = client.documents.get(path_to_uri(path)) if client else None
        try:
            text = doc.text if doc is not None else read_regular(path).decode("utf-8", errors="replace")
        except OSError:  # gone, unreadable, or not a regular file (a FIFO, a device: never read)
            text = ""
        cache[path] = split_lines(text)
    lines = cache[path]
    return lines[line] if 0 <= line < len(lines) else ""


def location(client: LSPClient, relpath: RelPath, uri: str, rng: dict[str, Any], cache: dict[Path, list[str]]) -> LocationRow:
    """One Location as a row: file (relative), 1-based line and column, and the line's text."""
    path = uri_to_path(uri)
    start = rng.get("start", {"line": 0, "character": 0})
    line = int(start.get("line", 0))
    body = _line_text(path, line, cache, client)
    column = from_lsp_column(body, int(start.get("character", 0)), client.encoding)
    return {"file": relpath(path), "line": line + 1, "column": column + 1, "text": body.strip()}


def locations(client: LSPClient, relpath: RelPath, result: Any) -> list[LocationRow]:
    """A Location, Location[] or LocationLink[] result as rows."""
    items = result if isinstance(result, list) else [result] if result else []
    cache: dict[Path, list[str]] = {}
    out: list[LocationRow] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if "targetUri" in item:  # LocationLink
            rng = item.get("targetSelectionRange") or item.get("targetRange") or {}
            out.append(location(client, relpath, item["targetUri"], rng, cache))
        elif "uri" in item:
            out.append(location(client, relpath, item["uri"], item.get("range") or {}, cache))
    return out
