"""`pattern: {context, selector}`: the pattern is the node of kind `selector` inside the
compiled context (the first one, in pre-order), so a fragment that does not parse alone
(a class field, an object pair) is written inside code that does."""

from __future__ import annotations

from minitools.match import Pattern

__all__ = ["select"]


def select(context: Pattern, kind: str) -> Pattern | None:
    """The pattern rooted at the first node of `kind` in `context`'s tree (or in one of its
    alternatives'), or None when no tree has one."""
    for tree in (context, *context.alternatives):
        stack = list(reversed(tree.nodes))
        while stack:
            node = stack.pop()
            if node.kind == kind and not node.meta:
                names: set[str] = set()
                below = [node]
                while below:
                    n = below.pop()
                    if n.meta and n.name:
                        names.add(n.name)
                    below.extend(n.children)
                return Pattern(context.source, context.language, tree.rung, (node,), frozenset(names))
            stack.extend(reversed(node.children))
    return None
