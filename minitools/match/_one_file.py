"""Search within one file: literal pre-filter → parse → candidates (found from the rarest
token the pattern writes, or by kind with a tree-sitter query, in C) → verification in
Python → NodeMatch values.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import tree_sitter

from minitools.match._grammars import load_language
from minitools.match._matcher import Chain, EmptySeq, MetaVarEnv, iter_matches
from minitools.match._pattern import Pattern, parser_for

__all__ = [
    "Capture",
    "NodeMatch",
    "SearchResult",
    "find_matches",
    "node_match",
    "parse_errors",
]

DEFAULT_MAX_FILE_BYTES = 4 << 20
DEFAULT_CACHE_BYTES = 48 << 20  # source bytes whose trees the cache keeps (LRU); RSS is ~30x that


# NamedTuples rather than dataclasses: the dataclasses module costs a CLI run 20 ms to import.
class Capture(NamedTuple):
    text: str
    start_byte: int
    end_byte: int
    start: tuple[int, int]  # (line, column), 1-based, column in code points
    end: tuple[int, int]
    # the capture ends in a comment that runs to the end of its line: a rewrite must start
    # what follows it on a new line, or the comment would swallow it
    open_line: bool = False


class NodeMatch(NamedTuple):
    path: str | None
    language: str
    start_byte: int
    end_byte: int
    start: tuple[int, int]
    end: tuple[int, int]
    text: str
    metavars: dict[str, Capture]
    multi: dict[str, list[Capture]]

    def to_json(self) -> dict[str, object]:
        """The CLI's and the tool's JSON shape (docs/architecture.md, "The contract")."""

        def cap(c: Capture) -> dict[str, object]:
            return {
                "text": c.text,
                "start": {"line": c.start[0], "column": c.start[1]},
                "end": {"line": c.end[0], "column": c.end[1]},
                "start_byte": c.start_byte,
                "end_byte": c.end_byte,
            }

        return {
            "file": self.path,
            "language": self.language,
            "start": {"line": self.start[0], "column": self.start[1]},
            "end": {"line": self.end[0], "column": self.end[1]},
            "start_byte": self.start_byte,
            "end_byte": self.end_byte,
            "text": self.text,
            "metavars": {k: cap(v) for k, v in self.metavars.items()},
            "multi": {k: [cap(c) for c in v] for k, v in self.multi.items()},
        }


class SearchResult(NamedTuple):
    matches: list[NodeMatch]
    total: int
    files_searched: int
    files_matched: int
    skipped: dict[str, int]
    truncated: bool = False


# Positions ----------------------------------------------------------------------------


def _position(source: bytes, byte: int, point: tuple[int, int]) -> tuple[int, int]:
    row, col = point
    line = source[byte - col : byte]
    return row + 1, len(line.decode("utf-8", errors="replace")) + 1


def _node_capture(source: bytes, node: tree_sitter.Node) -> Capture:
    return Capture(
        (node.text or b"").decode("utf-8", errors="replace"),
        node.start_byte,
        node.end_byte,
        _position(source, node.start_byte, tuple(node.start_point)),  # type: ignore[arg-type]
        _position(source, node.end_byte, tuple(node.end_point)),  # type: ignore[arg-type]
    )


def _seq_capture(source: bytes, nodes: list[tree_sitter.Node], at: int, point: tuple[int, int]) -> Capture:
    if not nodes:
        pos = _position(source, at, point)
        return Capture("", at, at, pos, pos)
    first, last = nodes[0], nodes[-1]
    return Capture(
        source[first.start_byte : last.end_byte].decode("utf-8", errors="replace"),
        first.start_byte,
        last.end_byte,
        _position(source, first.start_byte, tuple(first.start_point)),  # type: ignore[arg-type]
        _position(source, last.end_byte, tuple(last.end_point)),  # type: ignore[arg-type]
        last.is_extra and source[last.end_byte : last.end_byte + 1] in (b"\n", b"\r"),
    )


# Candidates ---------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _kind_query(language: str, kind: str, named: bool) -> tree_sitter.Query | None:
    lang = load_language(language)
    escaped = kind.replace("\\", "\\\\").replace('"', '\\"')
    text = f"({kind}) @c" if named else f'"{escaped}" @c'
    try:
        return tree_sitter.Query(lang, text)
    except Exception:  # noqa: BLE001 - a kind the query language cannot name (supertype aliases): walk instead
        return None


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
    pattern: Pattern, root: tree_sitter.Node, source: bytes | None, anchor: Anchor | None
) -> list[tree_sitter.Node]:
    """The nodes `pattern` is tried at, in pre-order; `anchor` is `_anchor(pattern, source)`."""
    first = pattern.nodes[0]
    if first.meta:
        return _all_nodes(root, named_only=True)
    if anchor is not None and source is not None:
        nodes = _anchored(root, source, *anchor)
    else:
        query = _kind_query(pattern.language, first.kind, first.named)
        if query is None:
            return [n for n in _all_nodes(root, False) if n.kind_id == first.kind_id]
        nodes = tree_sitter.QueryCursor(query).captures(root).get("c", [])
    # pre-order: outer first at equal starts (a stable sort keeps equal extents outer first)
    nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return nodes


_WORD_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
_WORD = _WORD_START | frozenset(b"0123456789")


def _has_word(source: bytes, word: bytes) -> bool:
    """Whether `word` (identifier-like) occurs as a whole token: a lexer never splits
    `subscriber` into `subscribe` + `r`, so occurrences glued to identifier characters
    cannot be the token. Digits before are allowed (`1if` lexes as `1` `if` in Python);
    non-ASCII neighbours count as boundaries: a false "maybe", never a false "no"."""
    n = len(word)
    pos = source.find(word)
    while pos != -1:
        before = source[pos - 1] if pos else 0x20
        after = source[pos + n] if pos + n < len(source) else 0x20
        if before not in _WORD_START and after not in _WORD:
            return True
        pos = source.find(word, pos + 1)
    return False


def _has_literals(pattern: Pattern, source: bytes) -> bool:
    """The pre-filter: every token the pattern writes occurs in `source` (words as whole words,
    but for text inside a string or comment)."""
    for lit in pattern.literals:
        if lit[0] in _WORD_START and all(c in _WORD for c in lit) and lit not in pattern.loose:
            if not _has_word(source, lit):
                return False
        elif lit not in source:
            return False
    return True


def _to_match(
    pattern: Pattern, source: bytes, path: str | None, first: tree_sitter.Node, last: tree_sitter.Node, env: MetaVarEnv
) -> NodeMatch:
    return node_match(pattern.language, source, path, first, last, env)


def node_match(
    language: str, source: bytes, path: str | None, first: tree_sitter.Node, last: tree_sitter.Node, env: MetaVarEnv
) -> NodeMatch:
    """The match from `first` to `last` with the captures of `env`, as results show it."""
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
                metavars[name] = _seq_capture(source, [], last.end_byte, tuple(last.end_point))  # type: ignore[arg-type]
            multi[name] = [_node_capture(source, n) for n in value]
        else:
            metavars[name] = _node_capture(source, value)
    start, end = first.start_byte, last.end_byte
    return NodeMatch(
        path,
        language,
        start,
        end,
        _position(source, start, tuple(first.start_point)),  # type: ignore[arg-type]
        _position(source, end, tuple(last.end_point)),  # type: ignore[arg-type]
        source[start:end].decode("utf-8", errors="replace"),
        metavars,
        multi,
    )


def _matches_in_tree(
    pattern: Pattern,
    tree: tree_sitter.Tree,
    source: bytes,
    path: str | None,
    index: dict[tuple[int, bool, Anchor | None], list[tree_sitter.Node]] | None = None,
) -> list[NodeMatch]:
    """Matches in one parsed file. `index` (kind -> candidate nodes) is a per-tree memo the
    Searcher keeps beside a cached tree, so a repeated search skips the query walk."""
    found = _found_in_tree(pattern, tree, source, index)
    if pattern.alternatives:
        # the union of the rungs' trees: one match per extent (the earliest rung's), pre-order
        for alternative in pattern.alternatives:
            found += _found_in_tree(alternative, tree, source, index)
        seen: set[tuple[int, int]] = set()
        unique = []
        for hit in found:
            extent = (hit[0].start_byte, hit[1].end_byte)
            if extent not in seen:
                seen.add(extent)
                unique.append(hit)
        found = sorted(unique, key=lambda hit: (hit[0].start_byte, -hit[1].end_byte))
    return [_to_match(pattern, source, path, a, b, env) for a, b, env in found]


def _found_in_tree(
    pattern: Pattern,
    tree: tree_sitter.Tree,
    source: bytes,
    index: dict[tuple[int, bool, Anchor | None], list[tree_sitter.Node]] | None,
) -> list[tuple[tree_sitter.Node, tree_sitter.Node, MetaVarEnv]]:
    anchor = _anchor(pattern, source)
    if index is None:
        candidates = _candidates(pattern, tree.root_node, source, anchor)
    else:
        first = pattern.nodes[0]
        # anchored candidates depend on the anchor token and paths: memoised under them
        key = (-1 if first.meta else first.kind_id, first.named, anchor)
        candidates = index.get(key)  # type: ignore[assignment]
        if candidates is None:
            candidates = _candidates(pattern, tree.root_node, source, anchor)
            index[key] = candidates
    return list(iter_matches(pattern, candidates))


def find_matches(pattern: Pattern, source: bytes, *, path: str | None = None) -> list[NodeMatch]:
    """Every match of `pattern` in `source`, nested ones too, in pre-order (outer first)."""
    tree = parser_for(pattern.language).parse(source)
    return _matches_in_tree(pattern, tree, source, path)


def parse_errors(source: bytes, language: str) -> list[tuple[int, int]]:
    """(line, column), 1-based, of every ERROR or MISSING node in `source` parsed as `language`."""
    tree = parser_for(language).parse(source)
    out: list[tuple[int, int]] = []
    if not tree.root_node.has_error:
        return out
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            out.append(_position(source, n.start_byte, tuple(n.start_point)))  # type: ignore[arg-type]
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out
