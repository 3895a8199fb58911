"""How a fragment is read on each rung of the scaffold ladder: the scaffolded parse checked
for errors (those a metavariable alone causes are let through), the hole found, the pattern
tree built; and which of the distinct readings the pattern keeps (docs/architecture.md,
"Matcher").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from enum import IntEnum

import tree_sitter

from minitools.match._catalog import HOLE_KINDS, SUB_CONSTRUCTS, language_row
from minitools.match._grammars import UnsafeSource, check_safe, load_language, parser_for
from minitools.match._unparseable import not_code_hint

__all__ = ["PatternError", "PNode", "Reading", "read", "check_depth", "MAX_PATTERN_DEPTH", "METAVAR_IN_SOURCE", "MetaKind", "NONE", "SINGLE", "ANY", "MULTI"]

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


def _metavar_regexes(char: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    c = re.escape(char)
    return (
        re.compile(rf"{c}{c}{c}([A-Z_][A-Z0-9_]*)?"),
        re.compile(rf"{c}{c}([A-Z_][A-Z0-9_]*)"),
        re.compile(rf"{c}([A-Z_][A-Z0-9_]*)"),
    )


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


def _is_literal_context(kind: str) -> bool:
    # A metavariable is literal text inside a string or a comment (docs/tools.md).
    return "string" in kind or "comment" in kind or kind in {"char_literal", "character_literal"}


# the node kinds, across grammars, of code interpolated into a string or template literal
_EXPANSIONS = frozenset({"simple_expansion", "expansion"})  # Bash's `$NAME`, `${NAME}`
_INTERPOLATIONS = frozenset({"template_substitution", "interpolation", "interpolated_expression", "string_interpolation"})


def _restorer(char: str, source: str) -> Callable[[str], str]:
    """How a pattern node's text gets its metavariables back as `$` spellings. Where the
    substitute can also be written literally (CSS and Nix write `$A` as `_A`, and `my_class` has
    a `_` of its own) only the spellings the source's own metavariables became are restored,
    each a whole word; elsewhere every substitute character is one."""
    if char == "$":
        return lambda text: text
    if char != "_":
        return lambda text: text.replace(char, "$")
    spelled = {m.replace("$", char): m for m in METAVAR_IN_SOURCE.findall(source)}
    if not spelled:
        return lambda text: text
    words = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(spelled, key=len, reverse=True))) + r")(?![\w-])")
    return lambda text: words.sub(lambda m: spelled[m.group(0)], text)


# a metavariable as a pattern spells it (`$A`, `$$A`, `$$$`, `$$$A`, `$_`)
METAVAR_IN_SOURCE = re.compile(r"\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$\$?[A-Z_][A-Z0-9_]*")


def _build(
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
        return None  # a token only error recovery wrote (see _recovery)
    if added and node.start_byte in added and node.end_byte == node.start_byte + 1:
        return None  # the written token, or a node of it alone (C#'s empty statement)
    text = (node.text or b"").decode("utf-8")
    if added and node.end_byte - 1 in added:
        text = text[:-1].rstrip()  # `$$$;` is the statement the `$$$` stands for
    if node.is_error:
        text = text.strip()  # an ERROR node _recovery let through is one metavariable
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
        built = _build(child, restore, regexes, literal and child.type not in _EXPANSIONS, added, quoted)
        if built is not None:
            children.append(built)
    if children and (literal or not any(c.is_named for c in node.children)) and _hides_text(node):
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


def _hides_text(node: tree_sitter.Node) -> bool:
    """Whether some of `node`'s text, other than whitespace, lies in none of its children."""
    data = node.text or b""
    at = node.start_byte
    for child in node.children:
        if data[at - node.start_byte : child.start_byte - node.start_byte].strip():
            return True
        at = max(at, child.end_byte)
    return bool(data[at - node.start_byte :].strip())


def _hole(root: tree_sitter.Node, start: int, end: int, absorb: int) -> list[tree_sitter.Node] | None:
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


def _metavar_at_edge(char: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Regexes for a metavariable ending a text (before a gap) and starting one (after it)."""
    c = re.escape(char)
    one = rf"(?:{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?|{c}{c}?[A-Z_][A-Z0-9_]*)"
    return re.compile(one + r"\s*\Z"), re.compile(r"\s*" + one + r"(?![A-Za-z0-9_])")


# the MISSING tokens a metavariable can cause: a statement's end after a `$$$` or `$A` that stands
# for statements (C `{ $$$ }`); a missing bracket means the fragment itself is unbalanced
_TERMINATORS = frozenset({";", "\n"})

# how far error recovery went in a scaffolded parse (None: too far, the rung rejects)
CLEAN, BENIGN, UNENDED, STRAINED = 0, 1, 2, 3


# Kinds that only hold a run of statements and share the run's extent in a scaffold (Go's
# `statement_list`, Kotlin's `statements`): a fragment that is such a node is the run it holds.
_STATEMENT_RUNS = frozenset({"statement_list", "statements"})
# the rungs whose hole sits in a class or interface body
_MEMBER_RUNGS = frozenset({"class member", "interface member"})


def _statement_run(hole: list[tree_sitter.Node], bodies: frozenset[str] = frozenset()) -> list[tree_sitter.Node]:
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


def _is_body_run(hole: list[tree_sitter.Node], start: int, end: int, language: str) -> bool:
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


def _recovery(root: tree_sitter.Node, text: str, char: str, end: int) -> int | None:
    """How much error recovery the scaffolded parse needed, where the pattern can live with it.

    Error recovery that only a metavariable causes does not reject the rung (as in the ast-grep
    CLI; docs/architecture.md, "Matcher"). BENIGN: a zero-width MISSING statement terminator next
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
    before, after = _metavar_at_edge(char)
    sequence, _, single = _metavar_regexes(char)
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


def _shape(p: PNode) -> tuple[object, ...]:
    """What the matcher compares of a pattern node: two rungs with equal shapes are one."""
    if p.meta:
        return (p.meta, p.name)
    # a list comprehension, not a generator: a deep pattern then recurses in Python frames
    # only (a generator resumed from C takes C stack per level)
    return (p.kind_id, p.text if not p.children else None, tuple([_shape(c) for c in p.children]))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _names_a_keyword(p: PNode, grammar: tree_sitter.Language) -> bool:
    """Whether the tree has a named leaf (a name) whose text the grammar also knows as a
    keyword token; a leaf whose kind is its text is that keyword (PHP's `null`), no name."""
    if p.meta:
        return False
    if not p.children:
        return (p.named and p.kind != p.text and _WORD.fullmatch(p.text) is not None
                and grammar.id_for_node_kind(p.text, False) is not None)
    for c in p.children:  # noqa: SIM110 - a loop, not any(generator): see _shape
        if _names_a_keyword(c, grammar):
            return True
    return False


def _quoted(fragment: str, language: str, char: str) -> tuple[bytes, dict[int, tuple[int, int]]] | None:
    """The fragment with each metavariable in one of the row's `slots` written as that slot
    wants it (`from $M` as `from "$M"`, not the `import $A` of `import $A from $M`): (bytes,
    {offset of each written opening: (its length, the closing's length)}), or None where there
    is none."""
    slots = language_row(language).slots
    if not slots:
        return None
    c = re.escape(char)
    metavar = rf"{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?|{c}[A-Z_][A-Z0-9_]*"
    places = sorted(
        (m.start(2), m.end(2), opening, closing)
        for before, after, opening, closing in slots
        for m in re.finditer(rf"({before})({metavar})(?={after})", fragment)
    )
    out, written, last = b"", {}, 0
    for start, end, opening, closing in places:
        if start < last:
            continue  # two slots at one metavariable: the first
        out += fragment[last:start].encode("utf-8")
        written[len(out)] = (len(opening.encode("utf-8")), len(closing.encode("utf-8")))
        out += (opening + fragment[start:end] + closing).encode("utf-8")
        last = end
    if not written:
        return None
    return out + fragment[last:].encode("utf-8"), written


def _spellings(fragment: str, language: str, char: str) -> list[tuple[bytes, tuple[int, ...], dict[int, tuple[int, int]]]]:
    """The fragment as written, and, where the language ends a statement with a token a
    `$$$` before `}` lacks (Dart reads `{ $$$ }` as a set literal), with that token written
    after each such `$$$`; with a metavariable in a slot written as the slot wants it (`slots`);
    and a construct's head alone (`heads`) with the rest of the construct written after it, each
    of those spellings too: (bytes, offsets of the tokens written, the slots' openings written,
    as `_quoted` gives them)."""
    row = language_row(language)
    bases = [fragment, *(fragment + rest.replace("$", char) for head, rest in row.heads if re.fullmatch(head, fragment))]
    out: list[tuple[bytes, tuple[int, ...], dict[int, tuple[int, int]]]] = []
    for base in bases:
        out.append((base.encode("utf-8"), (), {}))
        ended = _ended(base, row.statement_end, char)
        if ended is not None:
            out.append((ended[0], ended[1], {}))
        quoted = _quoted(base, language, char)
        if quoted is not None:
            out.append((quoted[0], (), quoted[1]))
    return out


def _ended(fragment: str, end: str | None, char: str) -> tuple[bytes, tuple[int, ...]] | None:
    """The fragment with `end` (the row's `statement_end`) written after each `$$$` before a
    `}`, and the offsets written; None where there is none."""
    if end is None:
        return None
    c = re.escape(char)
    out, added, last = b"", [], 0
    for m in re.finditer(rf"{c}{c}{c}(?:[A-Z_][A-Z0-9_]*)?(?=\s*\}})", fragment):
        out += fragment[last : m.end()].encode("utf-8")
        added.append(len(out))
        out += end.encode("utf-8")
        last = m.end()
    if not added:
        return None
    return out + fragment[last:].encode("utf-8"), tuple(added)


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


def _meant(readings: list[Reading], language: str) -> list[Reading]:
    """The readings of a fragment the pattern matches, of the distinct trees the rungs gave
    (docs/architecture.md, "Matcher"): a reading that takes a keyword for a name is dropped
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
    plain = [r for r in readings if not any(_names_a_keyword(b, grammar) for b in r.nodes)]
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


def read(fragment: str, language: str, char: str, source: str) -> list[Reading]:
    """The readings of `fragment` (metavariables spelled with `char`) the pattern matches,
    in ladder order. Raises PatternError, quoting `source`, when no rung reads it."""
    parser = parser_for(language)
    regexes = _metavar_regexes(char)
    restore = _restorer(char, source)
    tried: list[str] = []
    # each distinct tree, with the rungs that read the fragment so, in ladder order
    found: dict[tuple[object, ...], Reading] = {}
    row = language_row(language)
    for body, added, quotes in _spellings(fragment, language, char):
        for name, prefix, suffix in row.rungs:
            if name not in tried:
                tried.append(name)
            pre = prefix.encode("utf-8")
            written = body.decode("utf-8")
            indent = prefix[prefix.rfind("\n") + 1 :] if "\n" in prefix else ""
            if indent and not indent.strip() and "\n" in written:
                if added:
                    continue  # (no language both indents and writes tokens into the fragment)
                written = written.replace("\n", "\n" + indent)  # an indented body's later lines
            text = prefix + written + suffix
            span = len(written.encode("utf-8"))
            try:
                check_safe(language, text.encode("utf-8"))
            except UnsafeSource as e:
                raise PatternError(f'pattern "{source}" is {e}; write a shallower pattern') from None
            tree = parser.parse(text.encode("utf-8"))
            check_depth(tree.root_node, source)
            recovery = _recovery(tree.root_node, text, char, len(pre) + span)
            if recovery is None:
                continue
            absorb = 1 if suffix.startswith(";") else 0
            hole = _hole(tree.root_node, len(pre), len(pre) + span, absorb)
            if not hole:
                continue
            hole = _statement_run(hole, row.body_runs)
            if len(hole) == 2 and hole[-1].type == ";" and not hole[-1].is_named and (
                name in _MEMBER_RUNGS or hole[0].type in row.specifiers
            ):
                # a member and the `;` after it, siblings in a class or interface body: the
                # member (the `;` a separator it may go without, as a match's extent does);
                # a type declared with its body and the `;` after it: the type (`specifiers`)
                hole = hole[:-1]
            if len(hole) > 1 and (name in SUB_CONSTRUCTS or not _is_body_run(hole, len(pre), len(pre) + span, language)):
                continue
            if any(n.type in row.unmeant for n in hole):
                continue
            only = HOLE_KINDS.get(name)
            if only is not None and (len(hole) != 1 or hole[0].type not in only):
                continue
            at = frozenset(len(pre) + a for a in added)
            opened = {len(pre) + q: lengths for q, lengths in quotes.items()}
            built = tuple(b for b in (_build(n, restore, regexes, False, at, opened) for n in hole) if b is not None)
            if recovery == UNENDED and any(_names_a_keyword(b, load_language(language)) for b in built):
                continue  # no declaration: Java `return $A, nil` as a field of type `return`
            if built:
                reading = found.setdefault(tuple([_shape(b) for b in built]), Reading(built, recovery))
                reading.rungs.append(name)
                reading.recovery = min(reading.recovery, recovery)
    if not found:
        raise PatternError(f'pattern "{source}" is unparseable as {language}: tried {", ".join(tried)}'
                           + not_code_hint(source, language))
    return _meant(list(found.values()), language)
