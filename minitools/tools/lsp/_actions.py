"""The `lsp` tool's actions, one row each (docs/architecture.md, "Where a change goes"): its
name, what the tool's description says of it, whether it is asked at a line and a symbol, and
for a plain navigation the LSP request and the capability it needs. The action list, the
description, the `symbol` parameter's list and the navigation table are read from these rows;
the call and type hierarchies keep their own table (`HIERARCHIES`, `_hierarchy.py`). `CAPS` holds
the caps the descriptions state."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LspAction", "LSP_ACTIONS", "ACTIONS", "NAVIGATION", "AT_SYMBOL", "CAPS", "described"]


class LspAction(NamedTuple):
    name: str
    says: str  # its clause in the tool's description
    at_symbol: bool = False  # asked at a `line` and a `symbol` on it
    method: str | None = None  # a navigation: the request it sends
    capability: str | None = None  # ... and the server capability that request needs


LSP_ACTIONS: tuple[LspAction, ...] = (
    LspAction("diagnostics", 'diagnostics (file, or "*" for the project checker)'),
    LspAction("definition", "definition", True, "textDocument/definition", "definitionProvider"),
    LspAction("type_definition", "type_definition", True, "textDocument/typeDefinition", "typeDefinitionProvider"),
    LspAction("implementation", "implementation", True, "textDocument/implementation", "implementationProvider"),
    LspAction("references", "references (cap 50)", True, "textDocument/references", "referencesProvider"),
    LspAction("hover", "hover", True, "textDocument/hover", "hoverProvider"),
    LspAction("symbols", "symbols (`query` for a workspace search, exact names and declarations first, cap 100, "
                         "`kind` to filter; or `file` for its outline, top-level entries first, cap 200, and with "
                         "`line` too the entries inside the one at that line)"),
    LspAction("incoming_calls", "incoming_calls (who calls the function, at which line; cap 50)", True),
    LspAction("outgoing_calls", "outgoing_calls (what it calls)", True),
    LspAction("supertypes", "supertypes (what the type extends; cap 50)", True),
    LspAction("subtypes", "subtypes (what extends the type; cap 50)", True),
    LspAction("code_actions", "code_actions"),
    LspAction("status", "status (which servers run and why not)"),
    LspAction("reload", "reload (restart the servers)"),
)

ACTIONS: tuple[str, ...] = tuple(a.name for a in LSP_ACTIONS)
AT_SYMBOL: tuple[str, ...] = tuple(a.name for a in LSP_ACTIONS if a.at_symbol)
NAVIGATION: dict[str, tuple[str, str]] = {  # action -> (LSP method, capability)
    a.name: (a.method, a.capability) for a in LSP_ACTIONS if a.method is not None and a.capability is not None
}

# the rows an action shows at most (a page; `offset` asks for the next)
CAPS = {"references": 50, "workspace_symbols": 100, "document_symbols": 200, "code_actions": 50}


def described() -> str:
    """The actions as the tool's description lists them."""
    return ", ".join(a.says for a in LSP_ACTIONS)
