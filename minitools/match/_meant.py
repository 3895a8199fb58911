"""Which of the distinct trees the ladder gave a fragment the pattern keeps (docs/tools.md, "How a
pattern is read"): a `Reading` per tree, and the rules that drop the readings a person does not mean."""

from __future__ import annotations

import re

import tree_sitter

from minitools.match._catalog import HOLE_KINDS, language_row
from minitools.match._grammars import load_language
from minitools.match._pnode import PNode
from minitools.match._recovery import STRAINED, UNENDED

__all__ = ["Reading", "meant", "shape", "names_a_keyword"]


def shape(p: PNode) -> tuple[object, ...]:
    """What the matcher compares of a pattern node: two rungs with equal shapes are one."""
    if p.meta:
        return (p.meta, p.name)
    # a list comprehension, not a generator: a deep pattern then recurses in Python frames
    # only (a generator resumed from C takes C stack per level)
    return (p.kind_id, p.text if not p.children else None, tuple([shape(c) for c in p.children]))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def names_a_keyword(p: PNode, grammar: tree_sitter.Language) -> bool:
    """Whether the tree has a named leaf (a name) whose text the grammar also knows as a
    keyword token; a leaf whose kind is its text is that keyword (PHP's `null`), no name."""
    if p.meta:
        return False
    if not p.children:
        return (p.named and p.kind != p.text and _WORD.fullmatch(p.text) is not None
                and grammar.id_for_node_kind(p.text, False) is not None)
    for c in p.children:  # noqa: SIM110 - a loop, not any(generator): see shape
        if names_a_keyword(c, grammar):
            return True
    return False


# the rungs whose readings a fragment that reads as an expression keeps
_EXPRESSION_RUNGS = frozenset({"statement", "expression"})


class Reading:
    """One distinct tree the ladder gave: the rungs that read the fragment so (ladder order)
    and the least error recovery any of them needed."""

    __slots__ = ("rungs", "nodes", "recovery")

    def __init__(self, nodes: tuple[PNode, ...], recovery: int) -> None:
        self.rungs: list[str] = []
        self.nodes = nodes
        self.recovery = recovery


def meant(readings: list[Reading], language: str) -> list[Reading]:
    """The readings of a fragment the pattern matches, of the distinct trees the rungs gave
    (docs/tools.md, "How a pattern is read"): a reading that takes a keyword for a name is dropped
    when another takes it as the keyword (Rust `impl $T {}` read as a struct literal of a type
    named `impl`); a STRAINED reading when another needed less recovery, and an UNENDED one
    when a statement or expression needed less; and a fragment that
    reads as an expression means the expression, not a class member or declaration the same
    text can be (TypeScript `foo($A)` in a class body is a method signature), nor a type unless
    the expression is one a type is spelled like (the row's `type_lookalikes`: `Promise<$T>`), nor a class
    member unless it is one a member is spelled like (`member_lookalikes`: C++ `~$A()`); a decorator
    or annotation reading stays (C# `[Obsolete]` is a collection expression too); a reading that
    is a bare metavariable is dropped when another keeps some of what the fragment writes
    (JavaScript `$A;` read as a class field named `$A` would match every node); and a fragment of
    metavariables alone keeps its first reading only (Java `$A $B` is a local declaration, as
    the CLI reads it, not also every field and parameter)."""
    shaped = [r for r in readings if not (len(r.nodes) == 1 and r.nodes[0].meta)]
    readings = shaped or readings
    grammar = load_language(language)
    plain = [r for r in readings if not any(names_a_keyword(b, grammar) for b in r.nodes)]
    readings = plain or readings
    easier = [r for r in readings if r.recovery < STRAINED]
    readings = easier or readings
    if any(r.recovery < UNENDED and _EXPRESSION_RUNGS.intersection(r.rungs) for r in readings):
        readings = [r for r in readings if r.recovery != UNENDED]
    if any("expression" in r.rungs for r in readings):
        expressions = [r for r in readings if _EXPRESSION_RUNGS.intersection(r.rungs)]
        row = language_row(language)
        typed = any(len(r.nodes) == 1 and r.nodes[0].kind in row.type_lookalikes for r in expressions)
        member = any(len(r.nodes) == 1 and r.nodes[0].kind in row.member_lookalikes for r in expressions)
        # a decorator or annotation rung accepts only that kind of node: such a reading is meant
        readings = [
            r for r in readings
            if r in expressions or (typed and "type" in r.rungs) or (member and "class member" in r.rungs)
            or HOLE_KINDS.keys() & set(r.rungs)
        ]
    if not any(_writes_a_token(b) for r in readings for b in r.nodes):
        # metavariables alone (Java `$A $B`) say nothing of which construct is meant: the
        # first reading, as the CLI parses the fragment, not every construct of two names
        readings = readings[:1]
    return readings


def _writes_a_token(p: PNode) -> bool:
    """Whether the tree has a leaf that is no metavariable."""
    if p.meta:
        return False
    return not p.children or any(_writes_a_token(c) for c in p.children)
