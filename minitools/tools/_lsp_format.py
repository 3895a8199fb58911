"""Pure formatting for the lsp tools: a symbol substring to a column, LSP results (locations,
hovers, symbol trees, diagnostics) to rows, and rows to the text the model reads (docs/tools.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from minitools.lsp import LSPClient, from_lsp_column, path_to_uri, split_lines, uri_to_path
from minitools.toolspec import ToolError

__all__ = ["SEVERITY", "locate_symbol", "hover_text", "symbol_kind", "flatten_symbols", "diagnostic_row",
           "format_diagnostic", "location", "locations"]

SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}
SYMBOL_KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor",
                "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array",
                "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"]
_WORD = re.compile(r"\w", re.UNICODE)

RelPath = Callable[[Path], str]


def locate_symbol(body: str, symbol: str, rel: str, line: int) -> int:
    """Code-point column of `symbol` on `body`. Errors (with the line shown) when it is absent,
    or ambiguous: found more than once unless every occurrence is the same whole name."""
    starts = [m.start() for m in re.finditer(re.escape(symbol), body)]
    if not starts:
        raise ToolError(f'symbol "{symbol}" is not on line {line} of {rel}; the line is:\n{line}: {body}\n'
                        "Give a substring of that line, or the right line number.")

    def word_at(i: int) -> str:
        a, b = i, i + len(symbol)
        while a > 0 and _WORD.match(body[a - 1]):
            a -= 1
        while b < len(body) and _WORD.match(body[b]):
            b += 1
        return body[a:b]

    if len(starts) > 1:
        words = [word_at(i) for i in starts]
        if any(w != symbol for w in words):
            shown = ", ".join(f'"{w}" at column {i + 1}' for w, i in zip(words, starts))
            raise ToolError(f'symbol "{symbol}" is ambiguous on line {line} of {rel}: it occurs {len(starts)} times ({shown}). '
                            f"Give a longer substring that occurs once. The line is:\n{line}: {body}")
    start = starts[0]
    # point at the first identifier character inside the substring ("self.x" → x's name start is fine too)
    for offset, char in enumerate(symbol):
        if _WORD.match(char):
            return start + offset
    return start


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


def flatten_symbols(items: list[dict[str, Any]], locate: Any, uri: str, depth: int = 0) -> list[dict[str, Any]]:
    """DocumentSymbol trees (or flat SymbolInformation lists) as rows with a depth."""
    rows = []
    for item in items:
        if "location" in item:  # SymbolInformation
            loc = item["location"]
            rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")), "container": item.get("containerName"),
                         **locate(loc.get("uri", uri), loc.get("range", {})), "depth": depth})
            continue
        rng = item.get("selectionRange") or item.get("range") or {}
        rows.append({"name": item.get("name"), "kind": symbol_kind(item.get("kind")), "container": None,
                     "detail": item.get("detail"), **locate(uri, rng), "depth": depth})
        rows.extend(flatten_symbols(item.get("children") or [], locate, uri, depth + 1))
    return rows


def diagnostic_row(client: LSPClient, rel: str, text: str, diag: dict[str, Any]) -> dict[str, Any]:
    start = diag.get("range", {}).get("start", {})
    line = int(start.get("line", 0))
    lines = split_lines(text)
    body = lines[line] if 0 <= line < len(lines) else ""
    code = diag.get("code")
    return {"file": rel, "line": line + 1, "column": from_lsp_column(body, int(start.get("character", 0)), client.encoding) + 1,
            "severity": SEVERITY.get(diag.get("severity") or 1, "error"), "code": code if code is None else str(code),
            "message": str(diag.get("message", "")), "source": diag.get("source"), "text": body.strip()}


def format_diagnostic(d: dict[str, Any]) -> str:
    code = f" [{d['code']}]" if d.get("code") else ""
    source = f" ({d['source']})" if d.get("source") else ""
    return f"{d['file']}:{d['line']}:{d['column']}: {d['severity']}{code}: {d['message']}{source}\n    {d['text']}"


# Locations ----------------------------------------------------------------------------

def _line_text(path: Path, line: int, cache: dict[Path, list[str]], client: LSPClient | None = None) -> str:
    if path not in cache:
        doc = client.documents.get(path_to_uri(path)) if client else None
        try:
            text = doc.text if doc is not None else path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        cache[path] = split_lines(text)
    lines = cache[path]
    return lines[line] if 0 <= line < len(lines) else ""


def location(client: LSPClient, relpath: RelPath, uri: str, rng: dict[str, Any], cache: dict[Path, list[str]]) -> dict[str, Any]:
    """One Location as a row: file (relative), 1-based line and column, and the line's text."""
    path = uri_to_path(uri)
    start = rng.get("start", {"line": 0, "character": 0})
    line = int(start.get("line", 0))
    body = _line_text(path, line, cache, client)
    column = from_lsp_column(body, int(start.get("character", 0)), client.encoding)
    return {"file": relpath(path), "line": line + 1, "column": column + 1, "text": body.strip()}


def locations(client: LSPClient, relpath: RelPath, result: Any) -> list[dict[str, Any]]:
    """A Location, Location[] or LocationLink[] result as rows."""
    items = result if isinstance(result, list) else [result] if result else []
    cache: dict[Path, list[str]] = {}
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if "targetUri" in item:  # LocationLink
            rng = item.get("targetSelectionRange") or item.get("targetRange") or {}
            out.append(location(client, relpath, item["targetUri"], rng, cache))
        elif "uri" in item:
            out.append(location(client, relpath, item["uri"], item.get("range") or {}, cache))
    return out
