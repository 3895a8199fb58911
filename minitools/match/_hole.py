"""The hole of a scaffolded parse: the node, or run of sibling nodes, the fragment's bytes are
(docs/tools.md, "How a pattern is read"); a statement-run node as the statements it holds, and which
runs of several siblings are statements or members a user means."""

from __future__ import annotations

import tree_sitter

from minitools.match._catalog import language_row

__all__ = ["find_hole", "statement_run", "is_body_run"]


def find_hole(root: tree_sitter.Node, start: int, end: int, absorb: int) -> list[tree_sitter.Node] | None:
    """The node, or run of sibling nodes, whose bytes are exactly [start, end)."""
    node = root.descendant_for_byte_range(start, end)
    if node is None:
        return None
    if node.start_byte == start and node.end_byte == end:
        # the innermost node of that extent: "descend while a node has one child", comments
        # beside it aside (`foo($A)  # note` is the call, not the file or block holding both)
        while True:
            solid = [c for c in node.children if not c.is_missing]
            kids = [c for c in solid if not c.is_extra]
            if len(kids) != 1 or (len(solid) == 1 and (kids[0].start_byte, kids[0].end_byte) != (start, end)):
                break
            node = kids[0]
        if node.parent is None:
            # a fragment that is the whole scaffold: its statements, not the file they make
            kids = [c for c in node.children if not c.is_extra and not c.is_missing]
            if len(kids) > 1:
                return kids
        return [node]
    if node.start_byte == start and not (node.text or b"")[end - start :].strip():
        # a node that takes the line break after it (a Go case clause, a C directive)
        return [node]
    kids = [c for c in node.children if not c.is_extra]
    first = next((i for i, c in enumerate(kids) if c.start_byte == start), None)
    last = next((i for i, c in enumerate(kids) if c.end_byte == end), None)
    if first is not None and last is not None and last > first:
        return kids[first : last + 1]
    if absorb:
        # the fragment is a statement whose closing `;` only the scaffold wrote
        node = root.descendant_for_byte_range(start, end + absorb)
        if node is not None and node.start_byte == start and node.end_byte == end + absorb:
            return [node]
    return None


# Kinds that only hold a run of statements and share the run's extent in a scaffold (Go's
# `statement_list`, Kotlin's `statements`): a fragment that is such a node is the run it holds.
_STATEMENT_RUNS = frozenset({"statement_list", "statements"})


def statement_run(hole: list[tree_sitter.Node], bodies: frozenset[str] = frozenset()) -> list[tree_sitter.Node]:
    """A hole that is a whole file (a rung with no scaffold), a statement-run node or a body
    the scaffold wrote (`bodies`: Python's class body holding two members), as the statements
    it holds: a run of several statements matches in any block, not only as a whole file; a
    single one, with a comment beside it, is that statement."""
    if len(hole) != 1:
        return hole
    node = hole[0]
    if node.parent is not None and node.type not in _STATEMENT_RUNS and node.type not in bodies:
        return hole
    kids = [c for c in node.children if not c.is_extra]
    if not kids:
        return hole
    if len(kids) == 1:
        one = kids[0]
        while one.child_count == 1 and one.children[0].start_byte == one.start_byte and one.children[0].end_byte == one.end_byte:
            one = one.children[0]
        return [one]
    return kids


def is_body_run(hole: list[tree_sitter.Node], start: int, end: int, language: str) -> bool:
    """Whether a hole of several siblings is a run of statements or members: the siblings of a
    body the scaffold wrote around the fragment (its brackets on both sides) or of the whole
    file. Children of a node the fragment only partly is (Go `$A = $E` as the tail of `var
    __mt $A = $E`, C `int $A` as the type and name of a declaration) are no run a user means:
    as a pattern they would match those children inside any such node. Dart's continuing
    siblings (`foo` `.bar()`) are one expression wherever they sit."""
    continuing = language_row(language).continuations
    if continuing and all(n.type in continuing for n in hole[1:]):
        return True
    up = hole[0].parent
    while up is not None and up.start_byte >= start and up.end_byte <= end:
        up = up.parent  # a node of the run's own extent (Go's statement_list)
    return up is None or (up.start_byte < start and up.end_byte > end)
