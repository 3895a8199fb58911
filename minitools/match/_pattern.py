"""Pattern: a code fragment with metavariables, compiled through the scaffold ladder into
trees of node kinds, literal tokens and metavariables, one per reading the pattern keeps
(docs/tools.md, "How a pattern is read").
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from minitools.match._catalog import language_row
from minitools.match._grammars import parser_for
from minitools.match._metavars import METAVAR_IN_SOURCE
from minitools.match._pnode import ANY, MAX_PATTERN_DEPTH, MULTI, NONE, SINGLE, PatternError, PNode
from minitools.match._reading import read
from minitools.match._unicode import not_unicode

__all__ = [
    "PatternError", "Pattern", "PNode", "compile_pattern", "required_siblings", "MAX_PATTERN_BYTES", "MAX_PATTERN_DEPTH",
    "NONE", "SINGLE", "ANY", "MULTI", "parser_for",
]

# `$` then A–Z or `_`, then A–Z, `_`, 0–9; `$$$` alone is an anonymous sequence.


class Pattern:
    """A compiled pattern: `nodes` is one node, or several for a hole that spans a run of
    siblings (a Dart call is `identifier` + `selector`; docs/tools.md, "How a pattern is read")."""

    __slots__ = ("source", "language", "rung", "nodes", "metavar_names", "literals", "anchors", "alternatives", "loose")

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
        # those of them that may be glued to identifier characters in a matching file: text
        # inside a string or comment (`a` of `` `a${b}c` ``)
        self.loose: frozenset[bytes] = frozenset()
        # for a single-node pattern: each token its root's subtree writes as a whole leaf,
        # with the kinds from each such leaf up to the root: the candidates are found from
        # the rarest
        self.anchors = anchors
        # the trees of the other rungs that parse the fragment cleanly, in ladder order: a
        # match of one of them is a match of the pattern
        self.alternatives: tuple[Pattern, ...] = ()

    @property
    def rungs(self) -> tuple[str, ...]:
        """The rungs whose trees the pattern matches: its own, then its alternatives'."""
        return tuple(dict.fromkeys((self.rung, *(a.rung for a in self.alternatives))))

    @property
    def is_sequence(self) -> bool:
        return len(self.nodes) > 1

    def __repr__(self) -> str:
        alts = "".join(f", {a.rung}: {a.nodes!r}" for a in self.alternatives)
        return f"Pattern({self.source!r}, {self.language!r}, rung={self.rung!r}, nodes={self.nodes!r}{alts})"




def _required(children: tuple[PNode, ...]) -> list[PNode]:
    """`children` less the separators a match may lack: the one after a `$$$` (an empty
    sequence needs none: `foo($$$A, b)` matches `foo(b)`)."""
    out = []
    for k, c in enumerate(children):
        if k and children[k - 1].meta == MULTI and k + 1 < len(children) and not c.meta and not c.children and c.text in (",", ";"):
            continue
        out.append(c)
    return out


# a preprocessor directive's token: the lexer takes `# include` as `#include`
_DIRECTIVE = re.compile(r"#\s*([a-z]+)")


def _literals(nodes: tuple[PNode, ...], optional: str | None = None) -> tuple[tuple[bytes, ...], frozenset[bytes]]:
    """The tokens every matching file contains, and those of them that are text inside a
    string or comment (which a file may hold glued to other identifier characters);
    `optional` (a terminator a line break can stand for) is not one of them, nor a separator
    after a `$$$`; for a directive (`#include`), its word."""
    out: dict[bytes, None] = {}
    loose: set[bytes] = set()

    def walk(p: PNode, inside: bool) -> None:
        if p.meta:
            return
        if not p.children:
            if p.is_alias:
                return  # a token the grammar aliases (Ruby's `'` as `"`) may be written otherwise
            token = p.text.strip()
            directive = _DIRECTIVE.fullmatch(token)
            if directive:
                token = directive.group(1)
            if token and token != optional:
                out[token.encode("utf-8")] = None
                if inside:
                    loose.add(token.encode("utf-8"))
            return
        inside = inside or ("string" in p.kind or "comment" in p.kind)
        for c in _required(p.children):
            walk(c, inside)

    for n in nodes:
        walk(n, False)
    # longest first: the rarest in practice, so a file without it is rejected soonest
    return tuple(sorted(out, key=len, reverse=True)), frozenset(loose)


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
            if p.btext and p.btext.strip() == p.btext and p.text != optional and not _DIRECTIVE.fullmatch(p.text) \
                    and not p.is_alias:
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


required_siblings = _required  # the same siblings, for the runs `_one_file` anchors on a token

# The largest pattern compiled (docs/reference.md, "Structural matching"): a fragment is parsed
# once per rung of the ladder, and its tree kept with the compiled pattern.
MAX_PATTERN_BYTES = 64 << 10

_LONE_SEQUENCE = re.compile(r"\$\$\$(?:[A-Z_][A-Z0-9_]*)?")


def check_fragment(source: str) -> str:
    """The pattern's fragment, stripped; PatternError for what no language could compile: a
    pattern over MAX_PATTERN_BYTES, an empty one, or a lone `$$$` sequence, which would match
    every node, or text that is not Unicode."""
    size = len(source.encode("utf-8", errors="surrogatepass"))
    if size > MAX_PATTERN_BYTES:
        raise PatternError(
            f'pattern "{source[:60]}…" is {size:,} bytes, over the {MAX_PATTERN_BYTES >> 10} KiB limit for a pattern; '
            "search for a smaller fragment (replace the parts that vary with metavariables such as $A or $$$A)"
        )
    why = not_unicode(source)
    if why:
        raise PatternError(f"pattern {json.dumps(source[:60])} {why}; write the character itself, or, inside a "
                           "string literal of the pattern, its escape (\\ud800)")
    fragment = source.strip()
    if not fragment:
        raise PatternError(f'pattern "{source}" is empty; give a code fragment such as "print($A)"')
    if _LONE_SEQUENCE.fullmatch(fragment):
        raise PatternError(
            f'pattern "{source}" is a lone sequence metavariable, which would match every node; '
            f'use $A for any one node, or wrap {fragment} in a larger pattern such as "foo({fragment})"'
        )
    return fragment


@lru_cache(maxsize=256)
def compile_pattern(source: str, language: str) -> Pattern:
    """Compile `source` for `language` through the scaffold ladder.

    Every rung that parses the fragment cleanly contributes its tree (equal trees once), the
    first as the Pattern itself and the rest as its `alternatives`: a match of any is a match
    (docs/tools.md, "How a pattern is read"). Raises PatternError when no rung does, or when the
    pattern is a lone `$$$` sequence, which would match every node."""
    fragment = check_fragment(source)
    row = language_row(language)
    char = row.metavar_char
    if char != "$":
        fragment = METAVAR_IN_SOURCE.sub(lambda m: m.group(0).replace("$", char), fragment)
    chosen = read(fragment, language, char, source)
    optional = row.terminator  # a terminator a line break can stand for
    patterns = []
    for r in chosen:
        literals, loose = _literals(r.nodes, optional)
        pattern = Pattern(source, language, r.rungs[0], r.nodes, _names(r.nodes), literals, _anchors(r.nodes, optional))
        pattern.loose = loose
        patterns.append(pattern)
    head = patterns[0]
    if len(patterns) > 1:
        head.alternatives = tuple(patterns[1:])
        # a file can match only if it has the tokens one alternative writes; those all write
        # are a cheaper test, and as sound a pre-filter for the union
        shared = set(head.literals).intersection(*(q.literals for q in patterns[1:]))
        head.literals = tuple(sorted(shared, key=len, reverse=True))
        head.loose = head.loose.union(*(q.loose for q in patterns[1:]))
        head.metavar_names = head.metavar_names.intersection(*(q.metavar_names for q in patterns[1:]))
    return head
