"""Where a function named in a breakpoint is, read by the parser (docs/tools.md, "debug"): a
`{"function": name}` breakpoint becomes a line breakpoint on the first statement of the
function's body when the adapter has no function breakpoints of its own.

A definition is a node whose kind names a function or method (Python's function_definition,
Go's function_declaration and method_declaration, Rust's function_item, C's function_definition,
JavaScript's method_definition, Dart's function_signature, ...), or a variable given a function
(`const total = (xs) => {...}`). Its name is its `name` field, else the identifier at the end of
its `declarator` chain (C, C++). A qualified name (`Cart.total`, `Cart::total`) also names the
definitions around it: classes, impl blocks, a Go method's receiver type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from minitools.match import GrammarError, UnsafeSource, has_grammar, language_for_path, parse_source

__all__ = ["FunctionSite", "NoParser", "find_functions", "split_name"]

_DEPTH = 400  # nodes deep the walk goes (a generated file nests further; its functions are not looked for below)
_NAME_KINDS = ("identifier", "field_identifier", "property_identifier", "type_identifier", "name")
_SEPARATORS = re.compile(r"::|\.")


class NoParser(Exception):
    """No grammar reads this file, or it cannot be parsed safely."""


@dataclass(frozen=True)
class FunctionSite:
    """A function definition: its qualified name, the line it starts on and the line of the
    first statement of its body (its own line when the body is empty or on that line)."""

    name: str
    line: int
    first_line: int


def split_name(name: str) -> list[str]:
    """`Cart.total`, `Cart::total` -> ["Cart", "total"]."""
    return [part for part in _SEPARATORS.split(name.strip()) if part]


def find_functions(path: str, source: bytes, name: str | None = None) -> list[FunctionSite]:
    """The definitions in `source` (the file `path`) named `name` (its last part the function's
    name, the parts before it the names around it), or every definition when `name` is None;
    NoParser when no grammar reads the file."""
    language = language_for_path(path)
    if language is None or not has_grammar(language):
        raise NoParser(f"no parser reads {path} (its language is not known by its extension)")
    try:
        tree = parse_source(language, source)
    except (GrammarError, UnsafeSource) as exc:
        raise NoParser(f"{path} cannot be parsed: {exc}") from None
    wanted = split_name(name) if name else []
    found = []
    stack: list[tuple[Node, tuple[str, ...], int]] = [(tree.root_node, (), 0)]
    while stack:
        node, outer, depth = stack.pop()
        own = _definition_name(node)
        site_body = _body(node) if own else None
        if own and (site_body is not None or node.type.endswith("signature")):
            qualified = (*outer, *_receiver(node), own)
            if not wanted or _names_match(wanted, qualified):
                found.append(FunctionSite(".".join(qualified), node.start_point[0] + 1,
                                          _first_line(site_body, node.start_point[0] + 1)))
        scope = own or _scope_name(node)
        inner = (*outer, scope) if scope else outer
        if depth < _DEPTH:
            stack.extend((child, inner, depth + 1) for child in reversed(node.named_children))
    found.sort(key=lambda site: site.line)
    return found


def _names_match(wanted: list[str], qualified: tuple[str, ...]) -> bool:
    return len(wanted) <= len(qualified) and list(qualified[-len(wanted):]) == wanted


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _definition_name(node: Node) -> str:
    """The name a function definition gives (`` for any other node)."""
    kind = node.type
    if kind == "variable_declarator":  # const total = (xs) => {...}
        value = node.child_by_field_name("value")
        named = node.child_by_field_name("name")
        if value is not None and "function" in value.type and named is not None:
            return _text(named)
        return ""
    if not ("function" in kind or "method" in kind) or kind.endswith(("declarator", "_call", "call_expression", "type")):
        return ""
    named = node.child_by_field_name("name")
    if named is not None:
        return split_name(_text(named))[-1] if split_name(_text(named)) else ""
    declarator = node.child_by_field_name("declarator")
    for _ in range(_DEPTH):  # C and C++: int *total(int x), A::meth()
        if declarator is None:
            return ""
        if declarator.type in _NAME_KINDS or declarator.type in ("qualified_identifier", "destructor_name"):
            parts = split_name(_text(declarator))
            return parts[-1] if parts else ""
        declarator = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
    return ""


def _scope_name(node: Node) -> str:
    """The name a class, struct, impl block or a Go method's receiver gives what is inside."""
    kind = node.type
    if not any(word in kind for word in ("class", "struct", "impl", "interface", "trait", "module", "namespace", "object")):
        return ""
    named = node.child_by_field_name("name") or node.child_by_field_name("type")
    return split_name(_text(named))[-1] if named is not None and split_name(_text(named)) else ""


def _receiver(node: Node) -> tuple[str, ...]:
    """A Go method's receiver type (`func (c *Cart) Total()` -> ("Cart",)), else ()."""
    receiver = node.child_by_field_name("receiver")
    stack = [receiver] if receiver is not None else []
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            return (_text(current),)
        stack.extend(reversed(current.named_children))
    return ()


def _body(node: Node) -> Node | None:
    """The body of a definition: its `body` field (a variable's function's), else the node after
    a Dart signature (function_body)."""
    if node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        return value.child_by_field_name("body") if value is not None else None
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    holder = node.parent if node.parent is not None and node.parent.type.endswith("signature") else node
    after = holder.next_named_sibling
    return after if after is not None and after.type.endswith("body") else None


def _first_line(body: Node | None, own: int) -> int:
    """The line of the first statement in `body` (a docstring and comments left out), else `own`."""
    node = body
    for _ in range(4):  # a body holds a block (Dart), a block a statement list (Go)
        if node is None:
            return own
        statements = [c for c in node.named_children if "comment" not in c.type]
        if statements and _is_docstring(statements[0]):
            statements = statements[1:]
        if not statements:
            return own
        first = statements[0]
        if first.type in ("block", "statement_list", "compound_statement", "statement_block", "function_body"):
            node = first
            continue
        return int(first.start_point[0]) + 1
    return own


def _is_docstring(node: Node) -> bool:
    kind = node.type
    if kind == "string":
        return True
    children = node.named_children
    return kind == "expression_statement" and len(children) == 1 and children[0].type == "string"
