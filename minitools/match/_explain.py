"""A syntax-tree view for writing patterns (docs/tools.md, "ast_grep", `explain`): how a
pattern was read (each rung that reads it cleanly, its node kinds, where the metavariables
sit) and the named-node tree of a source line, so a pattern that finds nothing can be fixed."""

from __future__ import annotations

import tree_sitter

from minitools.match._grammars import parse_source
from minitools.match._pattern import Pattern
from minitools.match._pnode import ANY, MULTI, PNode

__all__ = ["explain_pattern", "line_tree", "source_tree"]

MAX_TREE_LINES = 80
_META_WORDS = {MULTI: "a run of siblings, possibly none", ANY: "any one node, tokens too"}


def _pattern_lines(p: PNode, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    if p.meta:
        what = _META_WORDS.get(p.meta, "any one named node")
        out.append(f"{pad}{p!r}  ({what})")
        return
    if not p.children:
        out.append(f"{pad}{p.kind} {p.text!r}" if p.named else f"{pad}{p.text!r}")
        return
    out.append(f"{pad}{p.kind}")
    for c in p.children:
        _pattern_lines(c, depth + 1, out)


def explain_pattern(pattern: Pattern) -> str:
    """Each tree the pattern is matched as (its rung, then the other rungs that read it
    cleanly), indented, with its metavariables named."""
    out = [f'pattern "{pattern.source}" in {pattern.language}: read by {len(pattern.rungs)} rung(s), '
           "a match of any is a match"]
    for tree in (pattern, *pattern.alternatives):
        roots = " + ".join(n.kind for n in tree.nodes)
        how = "a run of siblings" if tree.is_sequence else "one node"
        out.append(f"- {tree.rung} rung: {how} of kind {roots}")
        for node in tree.nodes:
            _pattern_lines(node, 1, out)
    names = sorted(pattern.metavar_names)
    out.append("metavariables: " + (", ".join(f"${n}" for n in names) if names else "none"))
    return "\n".join(out)


def _tree_lines(node: tree_sitter.Node, depth: int, field: str | None, out: list[str]) -> None:
    if len(out) >= MAX_TREE_LINES:
        return
    pad = "  " * depth
    label = f"{field}: " if field else ""
    row, col = node.start_point
    text = (node.text or b"").decode("utf-8", errors="replace")
    shown = f" {text!r}" if node.named_child_count == 0 else ""
    if len(shown) > 60:
        shown = shown[:57] + "…'"
    out.append(f"{pad}{label}{node.type} ({row + 1}:{col + 1}){shown}")
    for k, child in enumerate(node.children):
        if child.is_named:
            _tree_lines(child, depth + 1, node.field_name_for_child(k), out)


def line_tree(source: bytes, language: str, line: int) -> str:
    """The named nodes that make up `line` (1-based): the smallest node spanning the line's
    code, with its named descendants, kinds, fields and 1-based positions."""
    lines = source.split(b"\n")
    if not 1 <= line <= len(lines):
        raise ValueError(f"line {line} is outside the file (1-{len(lines)})")
    start = sum(len(x) + 1 for x in lines[: line - 1])
    text = lines[line - 1]
    first = start + len(text) - len(text.lstrip())
    last = start + len(text.rstrip())
    if last <= first:
        return f"line {line} is blank"
    tree = parse_source(language, source)
    node = tree.root_node.named_descendant_for_byte_range(first, last)
    while node is not None and node.parent is not None and (node.start_byte > first or node.end_byte < last):
        node = node.parent
    if node is None:
        return f"line {line}: no node"
    out: list[str] = []
    _tree_lines(node, 0, None, out)
    if len(out) >= MAX_TREE_LINES:
        out.append(f"… cut at {MAX_TREE_LINES} lines")
    return f"line {line} ({language}), named nodes:\n" + "\n".join(out)


def source_tree(source: bytes, language: str) -> str:
    """The named nodes of a whole snippet, as `line_tree` shows a line's (cut at
    MAX_TREE_LINES), and where it does not parse."""
    tree = parse_source(language, source)
    out: list[str] = []
    _tree_lines(tree.root_node, 0, None, out)
    if len(out) >= MAX_TREE_LINES:
        out.append(f"… cut at {MAX_TREE_LINES} lines")
    note = " (it does not parse cleanly: see the ERROR and MISSING nodes)" if tree.root_node.has_error else ""
    return f"the code's syntax tree ({language}){note}, named nodes:\n" + "\n".join(out)
