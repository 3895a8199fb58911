"""The pattern tree's nodes (`PNode`) and what a node is as a metavariable (`MetaKind`); how deep a
pattern may nest; and `PatternError`, the one error a pattern that cannot be read raises."""

from __future__ import annotations

import sys
from enum import IntEnum

import tree_sitter

__all__ = ["PatternError", "PNode", "check_depth", "MAX_PATTERN_DEPTH", "MetaKind", "NONE", "SINGLE", "ANY", "MULTI"]


class MetaKind(IntEnum):
    """What a pattern node is as a metavariable (`re` imports `enum` already: no start-up cost)."""

    NONE = 0  # not a metavariable: the node's kind and text must match
    SINGLE = 1  # $A (or $_, binding nothing): one named node
    ANY = 2  # $$A: one node, named or unnamed (a token)
    MULTI = 3  # $$$A: a run of siblings, possibly none


NONE, SINGLE, ANY, MULTI = MetaKind.NONE, MetaKind.SINGLE, MetaKind.ANY, MetaKind.MULTI


class PatternError(ValueError):
    """A pattern that cannot be compiled: the message quotes it and names what was tried."""


_QUOTES = frozenset({'"', "'", "`"})


class PNode:
    """One node of a compiled pattern (a plain class: the dataclasses module costs a CLI run
    20 ms to import)."""

    __slots__ = ("kind_id", "kind", "named", "text", "children", "meta", "name", "btext", "names", "memo", "is_alias")

    def __init__(
        self,
        kind_id: int,
        kind: str,
        named: bool,
        text: str,
        children: tuple[PNode, ...] = (),
        meta: MetaKind = NONE,
        name: str | None = None,
    ) -> None:
        self.kind_id = kind_id
        self.kind = kind
        self.named = named
        self.text = text  # the node's source text (metavariable characters restored to `$`)
        self.children = children
        self.meta = meta
        self.name = name  # metavariable name; None for `$_`-style and anonymous `$$$`
        self.btext = text.encode("utf-8")  # compared against target leaves
        # an unnamed token that compares by its kind alone: a quote (Ruby's `'` and `"` around a
        # string are one kind of token, as the CLI, which compares kinds, finds them; where they
        # are two kinds, as in JavaScript, the kind tells them apart), or a token whose kind is not
        # its text (one the grammar aliases)
        self.is_alias = not named and not children and not meta and (kind != text or text in _QUOTES)
        # the metavariable names the subtree binds
        self.names: frozenset[str] = frozenset({name} if name else ()).union(*(c.names for c in children))
        # for a `$$$`: whether the siblings after it bind no name those up to it bind, so a
        # failed try of the rest at a place fails whatever was bound before (the matcher
        # remembers it: `f($$$A, $$$B, $$$C, 1)` is not tried once per way to split the list)
        self.memo = False
        if any(c.meta == MULTI for c in children):
            after: list[frozenset[str]] = [frozenset()] * (len(children) + 1)  # names of children[k:]
            for k in range(len(children) - 1, -1, -1):
                after[k] = after[k + 1] | children[k].names
            before: frozenset[str] = frozenset()
            for k, c in enumerate(children):
                before |= c.names
                if c.meta == MULTI:
                    c.memo = before.isdisjoint(after[k + 1])

    def __repr__(self) -> str:  # the tree, printed on test failure
        if self.meta:
            return f"${'$$' if self.meta == MULTI else ''}{self.name or '_'}"
        if not self.children:
            return f"{self.kind}:{self.text!r}"
        return f"({self.kind} {' '.join(map(repr, self.children))})"



# A pattern nests at most this deep (docs/reference.md, "Structural matching"): compiling and
# matching recurse once or twice per level, and the interpreter's recursion limit is raised
# to fit (never lowered) so that any pattern within the limit compiles and matches.
MAX_PATTERN_DEPTH = 1000
_FRAMES_PER_LEVEL = 3  # the matcher's match_node → match_seq (→ _match_run_capture) per level
_FRAMES_BESIDE = 1000  # the caller's own frames and the interpreter's margin


def check_depth(root: tree_sitter.Node, source: str) -> None:
    """PatternError when the parse of a fragment nests deeper than MAX_PATTERN_DEPTH; else
    make room for recursion that deep. Measured with a cursor: no recursion here."""
    cursor = root.walk()
    depth = deepest = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_PATTERN_DEPTH:
                    shown = source if len(source) <= 80 else source[:60] + "…"
                    raise PatternError(
                        f'pattern "{shown}" nests more than {MAX_PATTERN_DEPTH} levels deep, the limit for a pattern; '
                        "search for a smaller fragment (replace the deep part with a metavariable such as $A)"
                    )
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                needed = _FRAMES_PER_LEVEL * deepest + _FRAMES_BESIDE
                if sys.getrecursionlimit() < needed:
                    sys.setrecursionlimit(needed)
                return
            depth -= 1
