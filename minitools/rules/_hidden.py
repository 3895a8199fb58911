"""Statements a grammar hides that rules name (docs/tools.md, "Rules"). The pack's Python
grammar makes `expression_statement` a hidden supertype: `x = 1` is an `assignment` right
under `module`, where ast-grep's grammar, and the rules written for it, see
`module > expression_statement > assignment`. Tree-sitter still knows where the hidden node
sits (a query for it captures the node it would wrap), so a rule that names such a kind gets a
stand-in, a `Hidden` node, around each of those, and the rules walk the tree through `SCOPE`
(`SCOPE.up`, `SCOPE.kids`, `SCOPE.next_sibling`, ...), which puts the stand-ins in place: the
wrapped node's parent is its stand-in, the stand-in's only child is the node, and the
stand-in is among the statements of the block. For any other language, or a scan whose rules
name no hidden kind, the functions are the node's own fields.

`SCOPE` is the file a thread's scan is in, begun by the scan for each file (`SCOPE.begin`): its
walk, and its `generation`, which the rules' per-node memos belong to."""

from __future__ import annotations

import itertools
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import cast

import tree_sitter

from minitools.match import language_row, load_language

__all__ = ["Hidden", "FileScope", "SCOPE", "hidden_kind", "in_field", "with_hidden", "hidden_ids"]

@lru_cache(maxsize=16)
def _ids(language: str) -> dict[str, int]:
    lang = load_language(language)
    out = {}
    for sup in lang.supertypes:
        name = lang.node_kind_for_id(sup)
        if name in language_row(language).hidden:
            out[name] = sup
    return out


def hidden_kind(language: str, name: str) -> int | None:
    """The kind id of `name` when `language`'s grammar hides it and rules may name it; a scan
    whose rules name one puts stand-ins in place (`FileScope.begin`)."""
    return _ids(language).get(name)


class Hidden:
    """The stand-in for a hidden node around `inner`: its kind, `inner`'s extent and text."""

    __slots__ = ("inner", "kind_id", "type", "id")
    is_named = True
    is_extra = False
    is_missing = False
    is_error = False

    def __init__(self, inner: tree_sitter.Node, kind_id: int, kind: str) -> None:
        self.inner = inner
        self.kind_id = kind_id
        self.type = kind
        self.id = ~inner.id  # its own key in the per-file memos

    @property
    def start_byte(self) -> int:
        return self.inner.start_byte

    @property
    def end_byte(self) -> int:
        return self.inner.end_byte

    @property
    def start_point(self) -> tree_sitter.Point:
        return self.inner.start_point

    @property
    def end_point(self) -> tree_sitter.Point:
        return self.inner.end_point

    @property
    def text(self) -> bytes | None:
        return self.inner.text

    @property
    def has_error(self) -> bool:
        return self.inner.has_error

    @property
    def parent(self) -> tree_sitter.Node | None:
        return self.inner.parent

    @property
    def children(self) -> list[tree_sitter.Node]:
        return [self.inner]

    named_children = children

    @property
    def child_count(self) -> int:
        return 1

    def children_by_field_name(self, name: str) -> list[tree_sitter.Node]:
        return []


AnyNode = tree_sitter.Node  # or a Hidden stand-in, which has the fields rules read

def _plain_field_kids(node: AnyNode, field: str) -> list[AnyNode]:
    return node.children_by_field_name(field)


_SIBLINGS = ("next_sibling", "prev_sibling", "next_named_sibling", "prev_named_sibling")


_GENERATIONS = itertools.count(1)  # one number per file begun, in any thread


class FileScope(threading.local):
    """The file this thread's scan is in. How the rules walk its tree: the parent, the children
    (all, named, of a field) and the siblings, by default the node's own fields, for a file
    with stand-ins functions that put them in place; and its `generation`: a rule's per-node
    memos (a pure rule gives one answer per node, so relational rules that search far keep
    their answers and the work stays linear in the file's size) hold while it is unchanged.
    Thread-local: scans in two threads (two tool calls at once) each have their own file."""

    generation: int = 0

    up: Callable[[AnyNode], AnyNode | None] = attrgetter("parent")
    kids: Callable[[AnyNode], list[AnyNode]] = attrgetter("children")
    named_kids: Callable[[AnyNode], list[AnyNode]] = attrgetter("named_children")
    field_kids: Callable[[AnyNode, str], list[AnyNode]] = staticmethod(_plain_field_kids)
    next_sibling: Callable[[AnyNode], AnyNode | None] = attrgetter("next_sibling")
    prev_sibling: Callable[[AnyNode], AnyNode | None] = attrgetter("prev_sibling")
    next_named_sibling: Callable[[AnyNode], AnyNode | None] = attrgetter("next_named_sibling")
    prev_named_sibling: Callable[[AnyNode], AnyNode | None] = attrgetter("prev_named_sibling")
    # the stand-ins: wrapped node id -> its stand-in (None: none), and in source order with
    # their start bytes (to find those under a node)
    wrapped: dict[int, Hidden] | None = None
    starts: Sequence[int] = ()
    ordered: Sequence[Hidden] = ()


    def begin(self, root: tree_sitter.Node, language: str, stand_ins: bool) -> None:
        """Enter `root`'s file: a new generation (every rule's per-node answers are forgotten),
        and the stand-ins of its tree in place when the scan's rules name a hidden kind of
        `language` (`stand_ins`), else the tree walked as it is."""
        self.generation = next(_GENERATIONS)
        wrapped: dict[int, Hidden] = {}
        if stand_ins:
            for name, kid in _ids(language).items():
                for node in tree_sitter.QueryCursor(_query(language, name)).captures(root).get("c", []):
                    wrapped[node.id] = Hidden(node, kid, name)
        if not wrapped:
            for name in _NAMES:
                self.__dict__.pop(name, None)  # back to the class's: the node's own fields
            return
        ordered = sorted(wrapped.values(), key=lambda h: (h.start_byte, -h.end_byte))
        self.wrapped, self.starts, self.ordered = wrapped, [h.start_byte for h in ordered], ordered
        self.up, self.field_kids = _up(wrapped), _field_kids(wrapped)
        self.kids, self.named_kids = _kids(wrapped, "children"), _kids(wrapped, "named_children")
        for name in _SIBLINGS:
            setattr(self, name, _sibling(name, wrapped))


SCOPE = FileScope()
_NAMES = ("up", "kids", "named_kids", "field_kids", *_SIBLINGS, "wrapped", "starts", "ordered")


@lru_cache(maxsize=16)
def _query(language: str, name: str) -> tree_sitter.Query:
    return tree_sitter.Query(load_language(language), f"({name}) @c")


def _shown(node: tree_sitter.Node | None, wrapped: dict[int, Hidden]) -> AnyNode | None:
    return None if node is None else cast(AnyNode, wrapped.get(node.id, node))


def _up(wrapped: dict[int, Hidden]) -> Callable[[AnyNode], AnyNode | None]:
    def up(node: AnyNode) -> AnyNode | None:
        """The node's parent: a wrapped node's is its stand-in."""
        if type(node) is Hidden:
            return cast(Hidden, node).inner.parent
        own = wrapped.get(node.id)
        return cast(AnyNode, own) if own is not None else node.parent

    return up


def _kids(wrapped: dict[int, Hidden], attribute: str) -> Callable[[AnyNode], list[AnyNode]]:
    """The step to a node's children `attribute` (`children`, tokens included, or
    `named_children`) with stand-ins in place: wrapped ones as their stand-ins."""
    get = attrgetter(attribute)

    def kids(node: AnyNode) -> list[AnyNode]:
        if type(node) is Hidden:
            return get(node)
        return [cast(AnyNode, wrapped.get(c.id, c)) for c in get(node)]

    return kids


def _field_kids(wrapped: dict[int, Hidden]) -> Callable[[AnyNode, str], list[AnyNode]]:
    def field_kids(node: AnyNode, field: str) -> list[AnyNode]:
        """The node's children in `field`, wrapped ones as their stand-ins (a stand-in has none)."""
        return [cast(AnyNode, wrapped.get(c.id, c)) for c in node.children_by_field_name(field)]

    return field_kids


def _sibling(attribute: str, wrapped: dict[int, Hidden]) -> Callable[[AnyNode], AnyNode | None]:
    """The step to a node's sibling `attribute` (`next_sibling`, `prev_named_sibling`, ...)
    with stand-ins in place: a stand-in's are its node's; the wrapped node, its stand-in's
    only child, has none."""

    def step(node: AnyNode) -> AnyNode | None:
        if type(node) is Hidden:
            return _shown(getattr(cast(Hidden, node).inner, attribute), wrapped)
        if node.id in wrapped:
            return None
        return _shown(getattr(node, attribute), wrapped)

    return step


def in_field(parent: AnyNode, child: AnyNode, field: str) -> bool:
    """Whether `child` sits in `parent`'s field `field` (a stand-in in none)."""
    target = cast(Hidden, child).inner if type(child) is Hidden else child
    return type(parent) is not Hidden and any(c.id == target.id for c in parent.children_by_field_name(field))


@lru_cache(maxsize=64)
def hidden_ids(language: str) -> frozenset[int]:
    """The kind ids `language`'s grammar hides that rules may name."""
    return frozenset(_ids(language).values())


def with_hidden(found: list[tree_sitter.Node], root: AnyNode, kinds: frozenset[int]) -> list[AnyNode]:
    """`found` (the nodes of `kinds` under `root`, pre-order) with the stand-ins under `root`
    of the hidden kinds among `kinds`, each before the node it wraps."""
    walk = SCOPE
    if walk.wrapped is None:
        return found
    inner = cast(Hidden, root).inner if type(root) is Hidden else root
    starts, ordered = walk.starts, walk.ordered
    extra: list[AnyNode] = []
    for k in range(bisect_left(starts, inner.start_byte), bisect_right(starts, inner.end_byte)):
        h = ordered[k]
        if h.kind_id in kinds and h.end_byte <= inner.end_byte and h.inner.id != inner.id and _under(h.inner, inner):
            extra.append(cast(AnyNode, h))
    if not extra:
        return found
    both: list[AnyNode] = [*found, *extra]
    both.sort(key=lambda n: (n.start_byte, -n.end_byte, type(n) is not Hidden))
    return both


def _under(node: tree_sitter.Node, root: tree_sitter.Node) -> bool:
    """Whether `node` is below `root` (extents alone can tie: a node and its only child)."""
    n = node.parent
    while n is not None:
        if n.id == root.id:
            return True
        n = n.parent
    return False
