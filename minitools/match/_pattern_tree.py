"""The pattern tree built from the hole of a clean (or forgiven) parse: metavariables found in
the nodes' text, strings read as literal text except for their interpolations and a content
that is one metavariable, and the tokens the compiler wrote itself left out."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import tree_sitter

from minitools.match._pnode import ANY, MULTI, SINGLE, MetaKind, PNode

__all__ = ["build_tree", "hides_text"]


def _is_literal_context(kind: str) -> bool:
    # A metavariable is literal text inside a string or a comment (docs/tools.md).
    return "string" in kind or "comment" in kind or kind in {"char_literal", "character_literal"}


# the node kinds, across grammars, of code interpolated into a string or template literal
_EXPANSIONS = frozenset({"simple_expansion", "expansion"})  # Bash's `$NAME`, `${NAME}`
_INTERPOLATIONS = frozenset({"template_substitution", "interpolation", "interpolated_expression", "string_interpolation"})


def build_tree(
    node: tree_sitter.Node,
    restore: Callable[[str], str],
    regexes: tuple[re.Pattern[str], ...],
    literal: bool,
    added: frozenset[int],
    quoted: Mapping[int, tuple[int, int]] | None = None,
) -> PNode | None:
    """The pattern node for `node`; `added` holds the offsets of tokens the compiler wrote
    into the fragment (a `;` after a `$$$` in statement position), which are left out, and
    `quoted` those of what it wrote around a metavariable in a slot (the quotes of `from "$M"`,
    with their lengths): the node that makes is the metavariable."""
    if quoted and node.start_byte in quoted and node.is_named:
        opening, closing = quoted[node.start_byte]
        data = (node.text or b"").rstrip()  # (a node may take the line break after it)
        inner = data[opening : len(data) - closing].decode("utf-8")
        for kind, rx in ((MULTI, regexes[0]), (SINGLE, regexes[2])):
            m = rx.fullmatch(inner)
            if m:
                name = None if m.group(1) is None or m.group(1).startswith("_") else m.group(1)
                return PNode(node.kind_id, node.type, node.is_named, restore(inner), (), kind, name)
    if node.is_extra and not node.is_error:
        return None  # comments and line continuations: the matcher skips them in the target too
    if node.is_missing:
        return None  # a token only error recovery wrote (see _recovery.py)
    if added and node.start_byte in added and node.end_byte == node.start_byte + 1:
        return None  # the written token, or a node of it alone (C#'s empty statement)
    text = (node.text or b"").decode("utf-8")
    if added and node.end_byte - 1 in added:
        text = text[:-1].rstrip()  # `$$$;` is the statement the `$$$` stands for
    if node.is_error:
        text = text.strip()  # an ERROR node _recovery.py let through is one metavariable
    restored = restore(text)
    if not literal and (node.is_named or node.child_count == 0 or node.is_error):
        multi, any_, single = regexes
        for kind, rx in ((MULTI, multi), (ANY, any_), (SINGLE, single)):
            m = rx.fullmatch(text)
            if m:
                name = m.group(1)
                if name is not None and name.startswith("_"):
                    name = None  # `$_X` binds nothing and never constrains equality
                return PNode(node.kind_id, node.type, node.is_named, restored, (), kind, name)
    # a string is literal text, but not the code inside its interpolations (`${$E}`, `{$E}`),
    # and a string whose whole content is one metavariable (`"$A"`, `'$$$'`) takes any content
    entering = not literal and "comment" not in node.type and _is_literal_context(node.type)
    content = _content_metavar(node, regexes) if entering else None
    literal = node.type not in _INTERPOLATIONS and (literal or _is_literal_context(node.type))
    children = []
    for child in node.children:
        if content is not None and child.id == content[0].id:
            name = content[2]
            text_of = (child.text or b"").decode("utf-8")
            children.append(PNode(child.kind_id, child.type, child.is_named, restore(text_of), (), content[1], name))
            continue
        # a shell's `$A` in a string is an expansion, and a metavariable as the CLI reads it
        built = build_tree(child, restore, regexes, literal and child.type not in _EXPANSIONS, added, quoted)
        if built is not None:
            children.append(built)
    if children and (literal or not any(c.is_named for c in node.children)) and hides_text(node):
        # text no child holds (a Dart string's contents, a YAML block scalar's lines beside its
        # `|`): the node compares by its whole text
        return PNode(node.kind_id, node.type, node.is_named, restored, ())
    return PNode(node.kind_id, node.type, node.is_named, restored, tuple(children))


def _content_metavar(
    node: tree_sitter.Node, regexes: tuple[re.Pattern[str], ...]
) -> tuple[tree_sitter.Node, MetaKind, str | None] | None:
    """The content child of a string whose whole content is one metavariable (`"$A"`: any
    one content node; `'$$$'`: any content, none too), with its kind and name, as ast-grep
    reads it; None otherwise."""
    named = [c for c in node.named_children if not c.is_extra]
    inner = [c for c in named if c.type not in ("string_start", "string_end")]
    if len(inner) != 1 or inner[0].child_count:
        return None
    text = (inner[0].text or b"").decode("utf-8")
    multi, _any, single = regexes
    for kind, rx in ((MULTI, multi), (SINGLE, single)):
        m = rx.fullmatch(text)
        if m:
            name = m.group(1)
            return inner[0], kind, None if name is None or name.startswith("_") else name
    return None


def hides_text(node: tree_sitter.Node) -> bool:
    """Whether some of `node`'s text, other than whitespace, lies in none of its children."""
    data = node.text or b""
    at = node.start_byte
    for child in node.children:
        if data[at - node.start_byte : child.start_byte - node.start_byte].strip():
            return True
        at = max(at, child.end_byte)
    return bool(data[at - node.start_byte :].strip())
