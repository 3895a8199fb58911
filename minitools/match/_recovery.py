"""The parse/ERROR checks of a rung: how much error recovery a scaffolded parse of the fragment
needed, where a metavariable alone caused it (docs/tools.md, "How a pattern is read")."""

from __future__ import annotations

import tree_sitter

from minitools.match._metavars import metavar_at_edge, metavar_regexes

__all__ = ["CLEAN", "BENIGN", "UNENDED", "STRAINED", "recovery_needed"]

# the MISSING tokens a metavariable can cause: a statement's end after a `$$$` or `$A` that stands
# for statements (C `{ $$$ }`); a missing bracket means the fragment itself is unbalanced
_TERMINATORS = frozenset({";", "\n"})

# how far error recovery went in a scaffolded parse (None: too far, the rung rejects)
CLEAN, BENIGN, UNENDED, STRAINED = 0, 1, 2, 3


def recovery_needed(root: tree_sitter.Node, text: str, char: str, end: int) -> int | None:
    """How much error recovery the scaffolded parse needed, where the pattern can live with it.

    Error recovery that only a metavariable causes does not reject the rung (as in the ast-grep
    CLI; docs/tools.md, "How a pattern is read"). BENIGN: a zero-width MISSING statement terminator next
    to a metavariable (the `;` C wants after a `$$$` in statement position), an ERROR node whose text
    is exactly one `$$$` (`{ $$$A }` in a Java or Rust block: no grammar takes a bare name for a
    run of statements). STRAINED: an ERROR node that is exactly one single metavariable, where
    the grammar wants a node a name cannot be (TypeScript `from $M`, which wants a string) or
    has none at all (Go `func $F() {}` in a block, a function literal with a name): a reading
    kept only when no rung reads the fragment with less. UNENDED: a zero-width MISSING
    terminator at the fragment's end (`end`, a byte offset in `text`), a declaration written
    without its `;` (C# `using System.Text`, C++ `vector<T>::iterator it = v.begin()`, which
    also reads as a parameter), as the CLI reads it; kept unless the fragment reads cleanly as
    an expression (Dart `print(1)` is no statement without its `;`). The pattern tree leaves the
    MISSING token out and takes the ERROR node for its metavariable. Anything else: None."""
    if not root.has_error:
        return CLEAN
    before, after = metavar_at_edge(char)
    sequence, _, single = metavar_regexes(char)
    data = text.encode("utf-8")
    level = BENIGN
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            if node.type not in _TERMINATORS or node.end_byte != node.start_byte:
                return None  # a missing `)` or `}`: the fragment is unbalanced, not the metavariable's doing
            left = data[: node.start_byte].decode("utf-8", "replace")
            right = data[node.end_byte :].decode("utf-8", "replace")
            if before.search(left) or after.match(right):
                continue
            if not data[node.start_byte : end].strip():
                level = max(level, UNENDED)  # the fragment's own end: a terminator it was written without
                continue
            return None
        elif node.is_error:
            inner = (node.text or b"").decode("utf-8", "replace").strip()
            if single.fullmatch(inner):
                level = STRAINED
            elif not sequence.fullmatch(inner):
                return None
        elif node.has_error:
            stack.extend(node.children)
    return level
