"""What a language server sends, checked where it arrives: the shapes (JSON Schema, checked by
`minitools.schema`) of the workspace edits, notifications and results the client reads, so that
code past this point may index what the shape promises. A payload that does not fit is the
server's fault: `PeerPayloadError` quotes the field and the value ("the server sent ..."), and
the caller answers "not applied" / "not used" instead of failing inside (docs/tools.md, "Hostile
peers and files").

Beyond the schema: no string holds a lone surrogate (it cannot be written as UTF-8, on disk or on
the wire), no URI holds a NUL byte, and a URI an edit writes to is a `file:` URI of an absolute
path. Positions are never negative (a line of -1 would index from the end).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from minitools.schema import SchemaError, validate

__all__ = ["PeerPayloadError", "check_workspace_edit", "check_result", "check_notification", "RESULT_SHAPES"]


class PeerPayloadError(Exception):
    """A server's payload does not have the shape the protocol gives it."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what}: {reason}")
        self.what = what
        self.reason = reason


_URI = {"type": "string", "minLength": 1}
_POSITION = {"type": "object", "required": ["line", "character"],
             "properties": {"line": {"type": "integer", "minimum": 0}, "character": {"type": "integer", "minimum": 0}}}
_RANGE = {"type": "object", "required": ["start", "end"], "properties": {"start": _POSITION, "end": _POSITION}}
_TEXT_EDIT = {"type": "object", "required": ["range", "newText"], "properties": {"range": _RANGE, "newText": {"type": "string"}}}
_FILE_OPTIONS = {"type": "object", "properties": {name: {"type": "boolean"} for name in
                                                  ("overwrite", "ignoreIfExists", "recursive", "ignoreIfNotExists")}}
_DOCUMENT_EDIT = {"type": "object", "required": ["textDocument", "edits"], "properties": {
    "textDocument": {"type": "object", "required": ["uri"],
                     "properties": {"uri": _URI, "version": {"type": ["integer", "null"]}}},
    "edits": {"type": "array", "items": _TEXT_EDIT}}}
_OPERATIONS = {
    "create": {"type": "object", "required": ["uri"], "properties": {"uri": _URI, "options": _FILE_OPTIONS}},
    "rename": {"type": "object", "required": ["oldUri", "newUri"],
               "properties": {"oldUri": _URI, "newUri": _URI, "options": _FILE_OPTIONS}},
    "delete": {"type": "object", "required": ["uri"], "properties": {"uri": _URI, "options": _FILE_OPTIONS}},
}
_WORKSPACE_EDIT = {"type": "object", "properties": {
    "changes": {"type": "object", "additionalProperties": {"type": "array", "items": _TEXT_EDIT}},
    "documentChanges": {"type": "array", "items": {"type": "object"}}}}

_LOCATION = {"type": "object", "required": ["uri", "range"], "properties": {"uri": _URI, "range": _RANGE}}
_LOCATION_LINK = {"type": "object", "required": ["targetUri"], "properties": {
    "targetUri": _URI, "targetRange": _RANGE, "targetSelectionRange": _RANGE}}
_LOCATIONS = {"anyOf": [_LOCATION, {"type": "array", "items": {"anyOf": [_LOCATION, _LOCATION_LINK]}}]}
_MARKED = {"anyOf": [{"type": "string"}, {"type": "object", "required": ["value"],
                                          "properties": {"kind": {"type": "string"}, "language": {"type": "string"},
                                                         "value": {"type": "string"}}}]}
_HOVER = {"type": "object", "required": ["contents"], "properties": {
    "contents": {"anyOf": [_MARKED, {"type": "array", "items": _MARKED}]}, "range": _RANGE}}
_NAMED = {"name": {"type": "string"}, "kind": {"type": "integer"}, "detail": {"type": ["string", "null"]},
          "containerName": {"type": ["string", "null"]}}
_DOCUMENT_SYMBOL = {"type": "object", "required": ["name", "kind", "range", "selectionRange"], "properties": {
    **_NAMED, "range": _RANGE, "selectionRange": _RANGE, "children": {"type": "array", "items": {"type": "object"}}}}
_SYMBOL_INFORMATION = {"type": "object", "required": ["name", "kind", "location"], "properties": {
    **_NAMED, "location": {"type": "object", "required": ["uri"], "properties": {"uri": _URI, "range": _RANGE}}}}
_SYMBOLS = {"type": "array", "items": {"anyOf": [_DOCUMENT_SYMBOL, _SYMBOL_INFORMATION]}}
_WORKSPACE_SYMBOLS = {"type": "array", "items": _SYMBOL_INFORMATION}
_CALL_ITEM = {"type": "object", "required": ["name", "kind", "uri", "range", "selectionRange"], "properties": {
    **_NAMED, "uri": _URI, "range": _RANGE, "selectionRange": _RANGE}}
_CALLS = {dir_: {"type": "array", "items": {"type": "object", "required": [dir_, "fromRanges"], "properties": {
    dir_: _CALL_ITEM, "fromRanges": {"type": "array", "items": _RANGE}}}} for dir_ in ("from", "to")}
_COMMAND = {"type": "object", "required": ["title", "command"], "properties": {
    "title": {"type": "string"}, "command": {"type": "string"}, "arguments": {"type": "array"}}}
_DIAGNOSTIC = {"type": "object", "required": ["range", "message"], "properties": {
    "range": _RANGE, "message": {"type": "string"}, "severity": {"type": "integer", "minimum": 1, "maximum": 4},
    "code": {"type": ["string", "integer", "null"]}, "source": {"type": ["string", "null"]}}}
_CODE_ACTION = {"type": "object", "required": ["title"], "properties": {
    "title": {"type": "string"}, "kind": {"type": "string"}, "isPreferred": {"type": "boolean"},
    "diagnostics": {"type": "array", "items": _DIAGNOSTIC}, "edit": {"type": "object"},
    "command": {"anyOf": [{"type": "string"}, _COMMAND]}}}
_CODE_ACTIONS = {"type": "array", "items": _CODE_ACTION}

# each request's result as the client reads it (null, too, but for initialize and
# codeAction/resolve); a method not listed is not read
RESULT_SHAPES: dict[str, dict[str, Any]] = {
    "initialize": {"type": "object", "required": ["capabilities"], "properties": {
        "capabilities": {"type": "object"}, "serverInfo": {"type": "object"}}},
    "textDocument/definition": _LOCATIONS,
    "textDocument/typeDefinition": _LOCATIONS,
    "textDocument/implementation": _LOCATIONS,
    "textDocument/references": _LOCATIONS,
    "textDocument/hover": _HOVER,
    "textDocument/documentSymbol": _SYMBOLS,
    "workspace/symbol": _WORKSPACE_SYMBOLS,
    "textDocument/prepareCallHierarchy": {"type": "array", "items": _CALL_ITEM},
    "callHierarchy/incomingCalls": _CALLS["from"],
    "callHierarchy/outgoingCalls": _CALLS["to"],
    "textDocument/codeAction": _CODE_ACTIONS,
    "codeAction/resolve": _CODE_ACTION,
    "textDocument/rename": _WORKSPACE_EDIT,
}

_REGISTRATIONS = {"type": "array", "items": {"type": "object", "required": ["id", "method"], "properties": {
    "id": {"type": "string"}, "method": {"type": "string"}}}}

# what a server's notifications and requests to the client carry, as the client reads them
_NOTIFICATIONS: dict[str, dict[str, Any]] = {
    "textDocument/publishDiagnostics": {"type": "object", "required": ["uri", "diagnostics"], "properties": {
        "uri": _URI, "version": {"type": ["integer", "null"]}, "diagnostics": {"type": "array", "items": _DIAGNOSTIC}}},
    "$/progress": {"type": "object", "required": ["token", "value"], "properties": {
        "token": {"type": ["string", "integer"]},
        "value": {"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string"}, "title": {"type": "string"}, "message": {"type": "string"},
            "percentage": {"type": "number"}}}}},
    "workspace/applyEdit": {"type": "object", "required": ["edit"], "properties": {
        "label": {"type": "string"}, "edit": {"type": "object"}}},
    "client/registerCapability": {"type": "object", "required": ["registrations"],
                                  "properties": {"registrations": _REGISTRATIONS}},
    "client/unregisterCapability": {"type": "object", "required": ["unregisterations"],
                                    "properties": {"unregisterations": _REGISTRATIONS}},
    "workspace/configuration": {"type": "object", "required": ["items"], "properties": {"items": {
        "type": "array", "items": {"type": "object", "properties": {"section": {"type": "string"}}}}}},
}

_URI_KEYS = frozenset({"uri", "targetUri", "oldUri", "newUri"})
_MAX_DEPTH = 200  # deeper than any answer a server means (a symbol tree, an edit)


def _fit(shape: dict[str, Any], value: Any, what: str, where: str = "") -> None:
    try:
        validate(shape, value, where)
    except SchemaError as exc:
        # the validator names the top "arguments" (a tool's): here it is the value the server sent
        field = "the value" + exc.field.removeprefix("arguments") if exc.field.startswith("arguments") else exc.field
        raise PeerPayloadError(what, f"{field}: {exc.message}") from None
    except RecursionError:
        raise PeerPayloadError(what, "nested too deeply") from None


def _uri_problem(uri: str, *, file_only: bool) -> str:
    """Why `uri` is no place a payload may name ("" when it is one); `file_only`: a file the
    client would write, a file: URI of an absolute path."""
    if "\0" in uri or "\0" in unquote(uri):
        return "holds a NUL byte"
    if file_only and not uri.startswith("file:"):
        return "is not a file: URI"
    if file_only and not unquote(urlparse(uri).path).startswith("/"):
        return "is not an absolute path"
    return ""


def _check_strings(value: Any, what: str, *, file_uris: bool = False) -> None:
    """No lone surrogate in any string, no NUL in a URI (`file_uris`: each a file: URI of an
    absolute path), not nested past `_MAX_DEPTH`."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, key, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise PeerPayloadError(what, f"nested more than {_MAX_DEPTH} levels deep")
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                raise PeerPayloadError(what, f"{key or 'a string'}: {_shown(item)} holds a lone surrogate (not Unicode text)")
            problem = _uri_problem(item, file_only=file_uris) if key in _URI_KEYS else ""
            if problem:
                raise PeerPayloadError(what, f"{key}: {_shown(item)} {problem}")
        elif isinstance(item, dict):
            for name, child in item.items():
                stack.append((name, "a key", depth + 1))
                stack.append((child, name, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, key, depth + 1) for child in item)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_workspace_edit(edit: Any, what: str = "a workspace edit") -> None:
    """PeerPayloadError unless `edit` is a WorkspaceEdit this client can plan: `changes` a map of
    file URIs to text edits, `documentChanges` text document edits and create / rename / delete
    operations, every position non-negative."""
    _check_strings(edit, what, file_uris=True)
    _fit(_WORKSPACE_EDIT, edit, what)
    for uri in (edit.get("changes") or {}):
        problem = _uri_problem(uri, file_only=True)
        if problem:
            raise PeerPayloadError(what, f"changes: the key {_shown(uri)} {problem}")
    for index, op in enumerate(edit.get("documentChanges") or []):
        where = f"documentChanges[{index}]"
        kind = op.get("kind")
        if kind is None:
            _fit(_DOCUMENT_EDIT, op, what, where)
        elif isinstance(kind, str) and kind in _OPERATIONS:
            _fit(_OPERATIONS[kind], op, what, where)
        else:
            raise PeerPayloadError(what, f"{where}.kind: {_shown(kind)} is not create, rename or delete")


def check_result(method: str, result: Any) -> None:
    """PeerPayloadError unless `result` has the shape `method`'s result has (methods not in
    RESULT_SHAPES pass)."""
    shape = RESULT_SHAPES.get(method)
    if shape is None or (result is None and method not in ("codeAction/resolve", "initialize")):
        return
    what = f"its answer to {method}"
    _check_strings(result, what)
    _fit(shape, result, what)
    if method == "textDocument/documentSymbol" and isinstance(result, list):
        stack = [(item, f"[{i}]") for i, item in enumerate(result)]
        while stack:
            item, where = stack.pop()
            if "location" not in item:
                _fit(_DOCUMENT_SYMBOL, item, what, where)
                stack.extend((child, f"{where}.children[{i}]") for i, child in enumerate(item.get("children") or []))
    # a code action's edit is checked in full when it is chosen (plan_workspace_edit), so one
    # bad action does not hide the others
    if method == "textDocument/rename":
        check_workspace_edit(result, what)


def check_notification(method: str, params: Any) -> None:
    """PeerPayloadError unless `params` fit `method`'s, a notification or a request the server
    sends the client (methods without a shape here pass); workspace/applyEdit's edit in full."""
    shape = _NOTIFICATIONS.get(method)
    if shape is None:
        return
    what = f"a {method} message"
    _check_strings(params, what)
    _fit(shape, params, what)
    if method == "workspace/applyEdit":
        check_workspace_edit(params["edit"], what)
