"""Pattern: a code fragment with metavariables, compiled through the scaffold ladder into
a tree of node kinds, literal tokens and metavariables (REFERENCE.md, "Structural matching").
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import tree_sitter

from minitools.match._grammars import load_language
from minitools.match._ladder import METAVAR_CHAR, ladder_for
from minitools.match._rules import TERMINATORS

__all__ = ["PatternError", "Pattern", "PNode", "compile_pattern", "SINGLE", "ANY", "MULTI", "parser_for"]

# metavariable kinds of a pattern node
NONE, SINGLE, ANY, MULTI = 0, 1, 2, 3

# `$` then A–Z or `_`, then A–Z, `_`, 0–9; `$$$` alone is an anonymous sequence.
_METAVAR_IN_SOURCE = re.compile(r"\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$\$?[A-Z_][A-Z0-9_]*")


class PatternError(ValueError):
    """A pattern that cannot be compiled: the message quotes it and names what was tried."""


class PNode:
    """One node of a compiled pattern (a plain class: the dataclasses module costs a CLI run
    20 ms to import)."""

    __slots__ = ("kind_id", "kind", "named", "text", "children", "meta", "name", "btext")

    def __init__(
        self,
        kind_id: int,
        kind: str,
        named: bool,
        text: str,
        children: tuple[PNode, ...] = (),
        meta: int = NONE,
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

    def __repr__(self) -> str:  # the tree, printed on test failure
        if self.meta:
            return f"${'$$' if self.meta == MULTI else ''}{self.name or '_'}"
        if not self.children:
            return f"{self.kind}:{self.text!r}"
        return f"({self.kind} {' '.join(map(repr, self.children))})"


class Pattern:
    """A compiled pattern: `nodes` is one node, or several for a hole that spans a run of
    siblings (a Dart call is `identifier` + `selector`; REFERENCE.md, "Grammars")."""

    __slots__ = ("source", "language", "rung", "nodes", "metavar_names", "literals", "anchors")

    def __init__(
        self,
        source: str,
        language: str,
        rung: str,
        nodes: tuple[PNode, ...],
        metavar_names: frozenset[str],
        literals: tuple[bytes, ...] = (),
        anchors: tuple[tuple[bytes, tuple[tuple[int, ...], ...]], ...] = (),
    ) -> None:
        self.source = source
        self.language = language
        self.rung = rung
        self.nodes = nodes
        self.metavar_names = metavar_names
        self.literals = literals  # tokens every matching file contains
        # for a single-node pattern: each token its root's subtree writes as a whole leaf,
        # with the kinds from each such leaf up to the root: the candidates are found from
        # the rarest
        self.anchors = anchors

    @property
    def is_sequence(self) -> bool:
        return len(self.nodes) > 1

    def __repr__(self) -> str:
        return f"Pattern({self.source!r}, {self.language!r}, rung={self.rung!r}, nodes={self.nodes!r})"


_local = threading.local()


def parser_for(language: str) -> tree_sitter.Parser:
    """A Parser for `language`, one per thread: a Parser must not parse in two threads at once."""
    parsers: dict[str, tree_sitter.Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = tree_sitter.Parser(load_language(language))
    return parser


def _metavar_regexes(char: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    c = re.escape(char)
    return (
        re.compile(rf"{c}{c}{c}([A-Z_][A-Z0-9_]*)?"),
        re.compile(rf"{c}{c}([A-Z_][A-Z0-9_]*)"),
        re.compile(rf"{c}([A-Z_][A-Z0-9_]*)"),
    )


def _is_literal_context(kind: str) -> bool:
    # A metavariable is literal text inside a string or a comment (REFERENCE.md).
    return "string" in kind or "comment" in kind or kind in {"char_literal", "character_literal"}


def _build(node: tree_sitter.Node, char: str, regexes: tuple[re.Pattern[str], ...], literal: bool) -> PNode | None:
    if node.is_extra and "comment" in node.type:
        return None  # comments in the pattern are not significant
    text = (node.text or b"").decode("utf-8")
    restored = text.replace(char, "$") if char != "$" else text
    if not literal and (node.is_named or node.child_count == 0):
        multi, any_, single = regexes
        for kind, rx in ((MULTI, multi), (ANY, any_), (SINGLE, single)):
            m = rx.fullmatch(text)
            if m:
                name = m.group(1)
                if name is not None and name.startswith("_"):
                    name = None  # `$_X` binds nothing and never constrains equality
                return PNode(node.kind_id, node.type, node.is_named, restored, (), kind, name)
    literal = literal or _is_literal_context(node.type)
    children = []
    for child in node.children:
        built = _build(child, char, regexes, literal)
        if built is not None:
            children.append(built)
    return PNode(node.kind_id, node.type, node.is_named, restored, tuple(children))


def _hole(root: tree_sitter.Node, start: int, end: int, absorb: int) -> list[tree_sitter.Node] | None:
    """The node, or run of sibling nodes, whose bytes are exactly [start, end)."""
    node = root.descendant_for_byte_range(start, end)
    if node is None:
        return None
    if node.start_byte == start and node.end_byte == end:
        # the innermost node of that extent: "descend while a node has one child"
        while node.child_count == 1 and node.children[0].start_byte == start and node.children[0].end_byte == end:
            node = node.children[0]
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


def _statement_run(hole: list[tree_sitter.Node]) -> list[tree_sitter.Node]:
    """A hole that is a whole file (a rung with no scaffold) or a statement-run node, as
    the statements it holds: a run of several statements matches in any block, not only
    as a whole file; a single one, with a comment beside it, is that statement."""
    if len(hole) != 1:
        return hole
    node = hole[0]
    if node.parent is not None and node.type not in _STATEMENT_RUNS:
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


def _has_problem(node: tree_sitter.Node) -> bool:
    return node.has_error or node.is_missing


def _required(children: tuple[PNode, ...]) -> list[PNode]:
    """`children` less the separators a match may lack: the one after a `$$$` (an empty
    sequence needs none: `foo($$$A, b)` matches `foo(b)`)."""
    out = []
    for k, c in enumerate(children):
        if k and children[k - 1].meta == MULTI and k + 1 < len(children) and not c.meta and not c.children and c.text in (",", ";"):
            continue
        out.append(c)
    return out


def _literals(nodes: tuple[PNode, ...], optional: str | None = None) -> tuple[bytes, ...]:
    """The tokens every matching file contains; `optional` (a terminator a line break can
    stand for) is not one of them, nor a separator after a `$$$`."""
    out: dict[bytes, None] = {}

    def walk(p: PNode) -> None:
        if p.meta:
            return
        if not p.children:
            token = p.text.strip()
            if token and token != optional:
                out[token.encode("utf-8")] = None
            return
        for c in _required(p.children):
            walk(c)

    for n in nodes:
        walk(n)
    # longest first: the rarest in practice, so a file without it is rejected soonest
    return tuple(sorted(out, key=len, reverse=True))


def _anchors(
    nodes: tuple[PNode, ...], optional: str | None = None
) -> tuple[tuple[bytes, tuple[tuple[int, ...], ...]], ...]:
    """Each token the root's subtree writes as a whole leaf, with the kinds on the way from
    each leaf that writes it up to the root (leaf first): a candidate must have them too
    (`optional`, a terminator a line break can stand for, and a separator after a `$$$` need
    not be there)."""
    if len(nodes) != 1 or nodes[0].meta:
        return ()
    paths: dict[bytes, dict[tuple[int, ...], None]] = {}

    def walk(p: PNode, above: tuple[int, ...]) -> None:
        if p.meta:
            return
        here = (p.kind_id, *above)
        if not p.children:
            if p.btext and p.btext.strip() == p.btext and p.text != optional:
                paths.setdefault(p.btext, {})[here] = None
            return
        for c in _required(p.children):
            walk(c, here)

    walk(nodes[0], ())
    return tuple((token, tuple(sorted(found, key=len))) for token, found in paths.items())


def _names(nodes: tuple[PNode, ...]) -> frozenset[str]:
    names: set[str] = set()

    def walk(p: PNode) -> None:
        if p.meta and p.name:
            names.add(p.name)
        for c in p.children:
            walk(c)

    for n in nodes:
        walk(n)
    return frozenset(names)


@lru_cache(maxsize=256)
def compile_pattern(source: str, language: str) -> Pattern:
    """Compile `source` for `language` through the scaffold ladder.

    Raises PatternError when no rung parses the fragment cleanly (an ERROR root included)."""
    fragment = source.strip()
    if not fragment:
        raise PatternError(f'pattern "{source}" is empty; give a code fragment such as "print($A)"')
    char = METAVAR_CHAR.get(language, "$")
    if char != "$":
        fragment = _METAVAR_IN_SOURCE.sub(lambda m: m.group(0).replace("$", char), fragment)
    regexes = _metavar_regexes(char)
    parser = parser_for(language)
    tried: list[str] = []
    body = fragment.encode("utf-8")
    for name, prefix, suffix in ladder_for(language):
        if name not in tried:
            tried.append(name)
        pre = prefix.encode("utf-8")
        tree = parser.parse(pre + body + suffix.encode("utf-8"))
        if _has_problem(tree.root_node):
            continue
        absorb = 1 if suffix.startswith(";") else 0
        hole = _hole(tree.root_node, len(pre), len(pre) + len(body), absorb)
        if not hole:
            continue
        hole = _statement_run(hole)
        optional = TERMINATORS.get(language)
        built = tuple(b for b in (_build(n, char, regexes, False) for n in hole) if b is not None)
        if not built:
            continue
        return Pattern(source, language, name, built, _names(built), _literals(built, optional), _anchors(built, optional))
    raise PatternError(f'pattern "{source}" is unparseable as {language}: tried {", ".join(tried)}')
