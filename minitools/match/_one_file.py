"""Search within one file: literal pre-filter → parse → candidates (found from the rarest
token the pattern writes, or by kind with a tree-sitter query, in C) → verification in
Python → NodeMatch values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import tree_sitter

from minitools.match._budget import Budget, watched
from minitools.match._catalog import language_row
from minitools.match._found import Capture, NodeMatch, SearchResult, SourceText
from minitools.match._grammars import UnsafeSource, parse_source
from minitools.match._kind_query import captured, kinds_query
from minitools.match._language_kinds import kinds_for
from minitools.match._matcher import Chain, EmptySeq, MetaVarEnv, iter_matches
from minitools.match._pattern import Pattern, required_siblings

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_CACHE_BYTES",
    "Capture",
    "NodeMatch",
    "SearchResult",
    "find_matches",
    "node_match",
    "parse_errors",
    "has_literals",
    "has_word",
    "search_tree",
]

DEFAULT_MAX_FILE_BYTES = 4 << 20
DEFAULT_CACHE_BYTES = 48 << 20  # source bytes whose trees the cache keeps (LRU); RSS is ~30x that


def _point(point: tree_sitter.Point) -> tuple[int, int]:
    return point[0], point[1]


def _node_capture(source: SourceText, node: tree_sitter.Node) -> Capture:
    return Capture.at(source, node.start_byte, node.end_byte, _point(node.start_point), _point(node.end_point))


def _seq_capture(source: SourceText, nodes: list[tree_sitter.Node], at: int, point: tuple[int, int]) -> Capture:
    if not nodes:
        return Capture.at(source, at, at, point, point)
    first, last = nodes[0], nodes[-1]
    data = source.data
    return Capture.at(
        source, first.start_byte, last.end_byte, _point(first.start_point), _point(last.end_point),
        last.is_extra and data[last.end_byte : last.end_byte + 1] in (b"\n", b"\r"),
    )


SINK_BATCH = 256  # matches handed to a sink at a time


# Candidates ---------------------------------------------------------------------------


# Compiling a kind query costs about 6 ms (the grammar's tables are read); a walk of the tree in
# Python about 0.2 µs per source byte. Until a process has walked WALK_BYTES of source, trees
# are walked instead: a search of a few small files (the CLI's cold start) never compiles one,
# a large search compiles it once.
WALK_BYTES = 32 << 10
_walked = 0
_compiled: set[tuple[str, int]] = set()  # the kind queries compiled in this process


def _kind_query(language: str, kind_id: int) -> tree_sitter.Query | None:
    _compiled.add((language, kind_id))
    return kinds_query(language, frozenset((kind_id,)))


def _all_nodes(root: tree_sitter.Node, named_only: bool) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if not named_only or n.is_named:
            out.append(n)
        stack.extend(reversed(n.children))
    return out


# One occurrence of an anchor token costs about 3 µs (a descent to its leaf, a step or two
# up); one query over the whole tree about 80 ns per source byte. Above one occurrence per
# BYTES_PER_ANCHOR bytes, the query is the cheaper way to the candidates.
BYTES_PER_ANCHOR = 32


Anchor = tuple[bytes, tuple[tuple[int, ...], ...]]


def _anchor(pattern: Pattern, source: bytes | None) -> Anchor | None:
    """The token (with the kind paths of the pattern leaves that write it) whose occurrences
    bound the candidate search in `source`: the rarest, when it is rare enough to be worth it."""
    if source is None or not pattern.anchors:
        return None
    best = pattern.anchors[0]
    fewest = source.count(best[0])
    for anchor in pattern.anchors[1:]:
        if fewest == 0:
            break
        n = source.count(anchor[0])
        if n < fewest:
            best, fewest = anchor, n
    return best if fewest * BYTES_PER_ANCHOR <= len(source) else None


def _anchored(root: tree_sitter.Node, source: bytes, token: bytes, paths: tuple[tuple[int, ...], ...]) -> list[tree_sitter.Node]:
    """The nodes above a leaf whose text is `token` along one of `paths` (kinds from the
    leaf up to the pattern's root): every candidate a whole-tree query by kind would give
    that can match, since a match writes each pattern leaf as a target leaf of the same kind
    at the same place below its root (metavariables bind whole nodes; skipped tokens are
    siblings). A descent per occurrence visits one path where the query visits every node."""
    found: dict[int, tree_sitter.Node] = {}
    width = len(token)
    descend = root.descendant_for_byte_range
    # the common case, one path whose leaf is the token's own node, without the general loop
    single = paths[0] if len(paths) == 1 else None
    pos = source.find(token)
    while pos != -1:
        end = pos + width
        leaf = descend(pos, end)
        if leaf is None or leaf.start_byte != pos or leaf.end_byte != end:
            # not a whole token here: part of a longer one, of a string or of a comment
            pos = source.find(token, pos + 1)
            continue
        pos = source.find(token, end)
        if single is not None and leaf.kind_id == single[0]:
            node: tree_sitter.Node | None = leaf.parent
            if node is None:
                if len(single) == 1:
                    found.setdefault(leaf.id, leaf)
                continue
            if node.start_byte != end - width or node.end_byte != end:
                last = len(single) - 1
                if last == 0:
                    found.setdefault(leaf.id, leaf)
                    continue
                k = 1
                while node is not None and node.kind_id == single[k]:
                    if k == last:
                        found.setdefault(node.id, node)
                        break
                    k += 1
                    node = node.parent
                continue
        _anchored_general(leaf, end - width, end, paths, found)
    return list(found.values())


def _anchored_general(
    leaf: tree_sitter.Node, start: int, end: int, paths: tuple[tuple[int, ...], ...], found: dict[int, tree_sitter.Node]
) -> None:
    """`_anchored` at one occurrence, for any paths, with any node of the token's extent
    (the leaf or one above it) taken as the pattern's leaf."""
    chain = [leaf]  # chain[k] is k levels above the leaf, fetched as needed
    j = 0  # chain[j] stands for the pattern's leaf
    here: list[tree_sitter.Node] = []
    while True:
        for path in paths:
            k = 0
            for kind in path:
                while len(chain) <= j + k:
                    up = chain[-1].parent
                    if up is None:
                        break
                    chain.append(up)
                if j + k >= len(chain) or chain[j + k].kind_id != kind:
                    break
                k += 1  # noqa: SIM113 - k is also read after the loop, as the matched length
            else:
                here.append(chain[j + k - 1])
        if len(chain) <= j + 1:
            up = chain[-1].parent
            if up is None:
                break
            chain.append(up)
        above = chain[j + 1]
        if above.start_byte != start or above.end_byte != end:
            break
        j += 1
    for node in reversed(here):  # outer first, as a query gives nodes of equal extent
        found.setdefault(node.id, node)


def _candidates(
    pattern: Pattern, root: tree_sitter.Node, source: bytes | None, anchor: Anchor | None,
    token: tuple[bytes, int] | None = None,
) -> list[tree_sitter.Node]:
    """The nodes `pattern` is tried at, in pre-order; `anchor` is `_anchor(pattern, source)`,
    `token` `_run_token(pattern, source)` for a run that starts with a metavariable."""
    first = pattern.nodes[0]
    if first.meta:
        if token is None or source is None:
            return _all_nodes(root, named_only=True)
        nodes = _run_starts(root, source, *token)
        nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
        return nodes
    if anchor is not None and source is not None:
        nodes = _anchored(root, source, *anchor)
    else:
        global _walked
        key = (pattern.language, first.kind_id)
        size = len(source) if source is not None else WALK_BYTES
        if key not in _compiled and _walked + size <= WALK_BYTES:
            _walked += size  # see WALK_BYTES: cheaper than compiling the query, for now
            return [n for n in _all_nodes(root, False) if n.kind_id == first.kind_id]
        query = _kind_query(*key)
        if query is None:
            return [n for n in _all_nodes(root, False) if n.kind_id == first.kind_id]
        return captured(query, root)
    # pre-order: outer first at equal starts (a stable sort keeps equal extents outer first)
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return nodes


def _run_token(pattern: Pattern, source: bytes) -> tuple[bytes, int] | None:
    """For a run of siblings that starts with a metavariable (Go `$A = $E` read as
    `$A`, `=`, `$E`): a token the run must hold as one of its own siblings, the rarest in
    `source`, with its kind; None when it has none (only metavariables, or only a terminator a
    line break can stand for)."""
    terminators = kinds_for(pattern.language).terminators
    best: tuple[bytes, int] | None = None
    fewest = -1
    for p in required_siblings(pattern.nodes):
        if p.meta or p.children or not p.btext or p.btext.strip() != p.btext or p.kind_id in terminators:
            continue
        n = source.count(p.btext)
        if best is None or n < fewest:
            best, fewest = (p.btext, p.kind_id), n
    return best


def _run_starts(root: tree_sitter.Node, source: bytes, token: bytes, kind: int) -> list[tree_sitter.Node]:
    """Where a run holding `token` (a node of `kind`) as a sibling can start: the named
    siblings before each such node. A whole-tree walk tries every named node instead."""
    ends: dict[int, tuple[tree_sitter.Node, int]] = {}  # parent id -> (parent, end of its last such token)
    width = len(token)
    descend = root.descendant_for_byte_range
    pos = source.find(token)
    while pos != -1:
        end = pos + width
        node = descend(pos, end)
        pos = source.find(token, pos + 1)
        while node is not None and node.kind_id != kind and node.start_byte == end - width and node.end_byte == end:
            node = node.parent
        if node is None or node.kind_id != kind or node.start_byte != end - width or node.end_byte != end:
            continue  # part of a longer token, a string or a comment
        parent = node.parent
        if parent is not None:
            ends[parent.id] = (parent, end)
    out: list[tree_sitter.Node] = []
    for parent, end in ends.values():
        out.extend(c for c in parent.children if c.is_named and c.start_byte < end)
    return out


# `$` is no word character here: PHP's `$this` and Bash's `$HOME` lex as `$` and a name (in
# JavaScript a `$` that is part of a name only makes the pre-filter's "maybe" looser)
_WORD_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_WORD = _WORD_START | frozenset(b"0123456789")


def has_word(source: bytes, word: bytes) -> bool:
    """Whether `word` (identifier-like) occurs as a whole token: a lexer never splits
    `subscriber` into `subscribe` + `r`, so occurrences glued to identifier characters
    cannot be the token, nor one ending a word that starts with a letter or `_` (`x1if`). A
    number may come right before (`1if` lexes as `1` `if` in Python); non-ASCII neighbours
    count as boundaries: a false "maybe", never a false "no"."""
    n = len(word)
    pos = source.find(word)
    while pos != -1:
        if pos + n == len(source) or source[pos + n] not in _WORD:
            start = pos
            while start and source[start - 1] in _WORD:
                start -= 1
            if start == pos or source[start] not in _WORD_START:
                return True
        pos = source.find(word, pos + 1)
    return False


def has_literals(pattern: Pattern, source: bytes) -> bool:
    """The pre-filter: every token the pattern writes occurs in `source` (words as whole words,
    but for text inside a string or comment)."""
    for lit in pattern.literals:
        if lit[0] in _WORD_START and all(c in _WORD for c in lit) and lit not in pattern.loose:
            if not has_word(source, lit):
                return False
        elif lit not in source:
            return False
    return True


def _to_match(
    pattern: Pattern, source: SourceText, path: str | None, first: tree_sitter.Node, last: tree_sitter.Node, env: MetaVarEnv
) -> NodeMatch:
    return node_match(pattern.language, source, path, first, last, env)


_last_text: SourceText | None = None  # the SourceText of the bytes last given to node_match


def node_match(
    language: str, source: bytes | SourceText, path: str | None, first: tree_sitter.Node, last: tree_sitter.Node,
    env: MetaVarEnv,
) -> NodeMatch:
    """The match from `first` to `last` with the captures of `env`, as results show it: its
    text and positions computed when read, from `source` (a file's matches share it)."""
    if isinstance(source, bytes):
        global _last_text
        known = _last_text
        if known is None or known.data is not source:
            # one SourceText for a file's matches, given one at a time (a rule scan's)
            known = _last_text = SourceText(source)
        source = known
    metavars: dict[str, Capture] = {}
    multi: dict[str, list[Capture]] = {}
    for name, value in env.items():
        if isinstance(value, Chain):
            metavars[name] = _seq_capture(source, value, 0, (0, 0))  # one capture: a node and its continuation
        elif isinstance(value, list):
            if value:
                metavars[name] = _seq_capture(source, value, 0, (0, 0))
            elif isinstance(value, EmptySeq):
                metavars[name] = _seq_capture(source, [], value.at, value.point)
            else:
                metavars[name] = _seq_capture(source, [], last.end_byte, _point(last.end_point))
            multi[name] = [_node_capture(source, n) for n in value]
        else:
            metavars[name] = _node_capture(source, value)
    end = _before_comments(last, language_row(language).comments_after)
    return NodeMatch.at(
        path, language, source, first.start_byte, end.end_byte,
        _point(first.start_point), _point(end.end_point), metavars, multi,
    )


def _before_comments(node: tree_sitter.Node, kinds: frozenset[str]) -> tree_sitter.Node:
    """`node`, or, for a kind whose grammar takes the comments after it into it (a row's
    `comments_after`), its last child that is no comment: where a match of it ends."""
    if not kinds or node.type not in kinds:  # most rows have none: no kind name read per match
        return node
    kids = [c for c in node.children if not c.is_extra]
    return kids[-1] if kids else node


def _matches_in_tree(
    pattern: Pattern,
    tree: tree_sitter.Tree,
    source: bytes,
    path: str | None,
    index: dict[tuple[int, bool, object], list[tree_sitter.Node]] | None = None,
) -> list[NodeMatch]:
    """Every match in one parsed file, pre-order (`search_tree` without bounds)."""
    return search_tree(pattern, tree, source, path, index)[0]


def search_tree(
    pattern: Pattern,
    tree: tree_sitter.Tree,
    source: bytes,
    path: str | None,
    index: dict[tuple[int, bool, object], list[tree_sitter.Node]] | None = None,
    room: int | None = None,
    budget: Budget | None = None,
    sink: Callable[[list[NodeMatch]], None] | None = None,
) -> tuple[list[NodeMatch], int]:
    """Matches in one parsed file, pre-order, the first `room` of them built (None: all),
    and how many there are (with `budget`: as many as were counted before it ran out).
    `index` (kind -> candidate nodes) is a per-tree memo the Searcher keeps beside a cached
    tree, so a repeated search skips the query walk. `sink` takes the matches built, a batch
    at a time, instead of the list returned keeping them (memory for a batch, not a file)."""
    text = SourceText(source)
    out: list[NodeMatch] = []
    built = count = 0

    def capped() -> bool:
        return room is not None and built >= room

    def collect() -> None:
        nonlocal out, built, count
        hits = _found_in_tree(pattern, tree, source, index, budget, capped)
        if pattern.alternatives:
            # the union of the rungs' trees: one match per extent (the earliest rung's), pre-order
            found = list(hits)
            for alternative in pattern.alternatives:
                found += _found_in_tree(alternative, tree, source, index, budget, capped)
            seen: set[tuple[int, int]] = set()
            unique = []
            for hit in found:
                extent = (hit[0].start_byte, hit[1].end_byte)
                if extent not in seen:
                    seen.add(extent)
                    unique.append(hit)
            hits = iter(sorted(unique, key=lambda hit: (hit[0].start_byte, -hit[1].end_byte)))
        for a, b, env in hits:
            count += 1
            if not capped():
                out.append(_to_match(pattern, text, path, a, b, env))
                built += 1
                if sink is not None and len(out) >= SINK_BATCH:
                    sink(out)
                    out = []

    if budget is None:
        collect()
    else:
        watched(budget, collect)  # a match that outlasts the budget ends the file's search
    if sink is not None and out:
        sink(out)
        out = []
    return out, count


def _found_in_tree(
    pattern: Pattern,
    tree: tree_sitter.Tree,
    source: bytes,
    index: dict[tuple[int, bool, object], list[tree_sitter.Node]] | None,
    budget: Budget | None,
    capped: Callable[[], bool],
) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node, MetaVarEnv]]:
    anchor = _anchor(pattern, source)
    first = pattern.nodes[0]
    token = _run_token(pattern, source) if first.meta and pattern.is_sequence else None
    if index is None:
        candidates = _candidates(pattern, tree.root_node, source, anchor, token)
    else:
        # anchored candidates depend on the anchor token and paths: memoised under them
        key = (-1 if first.meta else first.kind_id, first.named, anchor or token)
        candidates = index.get(key)  # type: ignore[assignment]
        if candidates is None:
            candidates = _candidates(pattern, tree.root_node, source, anchor, token)
            index[key] = candidates
    return iter_matches(pattern, candidates if budget is None else budget.watch(candidates, capped))


def find_matches(pattern: Pattern, source: bytes, *, path: str | None = None) -> list[NodeMatch]:
    """Every match of `pattern` in `source`, nested ones too, in pre-order (outer first)."""
    tree = parse_source(pattern.language, source)
    return _matches_in_tree(pattern, tree, source, path)


def parse_errors(source: bytes, language: str) -> list[tuple[int, int]]:
    """(line, column), 1-based, of every ERROR or MISSING node in `source` parsed as `language`;
    text its parser cannot read without crashing (UnsafeSource) is one error, at its start."""
    try:
        tree = parse_source(language, source)
    except UnsafeSource:
        return [(1, 1)]
    text = SourceText(source)
    out: list[tuple[int, int]] = []
    if not tree.root_node.has_error:
        return out
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            out.append(text.position(n.start_byte, _point(n.start_point)))
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out
