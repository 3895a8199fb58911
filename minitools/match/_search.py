"""Search: files → bytes → literal pre-filter → parse (cached) → candidates by kind (a
tree-sitter query, in C) → verification in Python → NodeMatch values.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import tree_sitter

from minitools.match._grammars import load_language
from minitools.match._matcher import EmptySeq, MetaVarEnv, iter_matches
from minitools.match._pattern import Pattern, parser_for

__all__ = [
    "Capture",
    "NodeMatch",
    "SearchResult",
    "Searcher",
    "find_matches",
    "language_for_path",
    "parse_errors",
    "EXTENSIONS",
]

EXTENSIONS: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".dart": "dart", ".rs": "rust", ".go": "go", ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
    ".java": "java", ".cs": "csharp", ".kt": "kotlin", ".kts": "kotlin", ".rb": "ruby",
    ".php": "php", ".swift": "swift", ".sh": "bash", ".bash": "bash", ".lua": "lua",
    ".scala": "scala", ".css": "css", ".html": "html", ".json": "json", ".yaml": "yaml",
    ".yml": "yaml", ".toml": "toml", ".ex": "elixir", ".exs": "elixir", ".hs": "haskell",
    ".nix": "nix", ".zig": "zig", ".sql": "sql",
}
# Folders that hold other people's code, skipped like hidden ones (ripgrep, ast-grep).
DEPENDENCY_DIRS = frozenset({"node_modules", "__pycache__", "bower_components", "site-packages"})
DEFAULT_MAX_FILE_BYTES = 4 << 20
DEFAULT_CACHE_BYTES = 48 << 20  # source bytes whose trees the cache keeps (LRU); RSS is ~30x that


def language_for_path(path: str | os.PathLike[str]) -> str | None:
    """The language id for a file name, by extension; None when unknown."""
    return EXTENSIONS.get(Path(path).suffix.lower())


@dataclass(frozen=True)
class Capture:
    text: str
    start_byte: int
    end_byte: int
    start: tuple[int, int]  # (line, column), 1-based, column in code points
    end: tuple[int, int]


@dataclass(frozen=True)
class NodeMatch:
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
        """The CLI's and the tool's JSON shape (ARCHITECTURE.md)."""

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


@dataclass
class SearchResult:
    matches: list[NodeMatch]
    total: int
    files_searched: int
    files_matched: int
    skipped: dict[str, int] = field(default_factory=dict)
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
    )


def _point_at(source: bytes, byte: int) -> tuple[int, int]:
    row = source.count(b"\n", 0, byte)
    col = byte - (source.rfind(b"\n", 0, byte) + 1)
    return row, col


# Candidates ---------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _kind_query(language: str, kind: str, named: bool) -> tree_sitter.Query | None:
    lang = load_language(language)
    escaped = kind.replace("\\", "\\\\").replace('"', '\\"')
    text = f"({kind}) @c" if named else f'"{escaped}" @c'
    try:
        return tree_sitter.Query(lang, text)
    except Exception:  # a kind the query language cannot name (supertype aliases): walk instead
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


# Above this many occurrences of the anchor token, one query over the whole tree is cheaper
# than one small ranged query per occurrence (measured: ~20 µs per ranged query, ~60 ns per
# source byte for a whole-tree query, so the break-even is near one occurrence per 320 bytes).
MAX_ANCHORS = 48
BYTES_PER_ANCHOR = 400


def _anchor(pattern: Pattern, source: bytes | None) -> bytes | None:
    """The token whose occurrences bound the candidate search, when that is worth it."""
    if source is None or pattern.is_sequence or pattern.nodes[0].meta or not pattern.literals:
        return None
    anchor = pattern.literals[0]
    if len(anchor) < 3 or source.count(anchor) > max(MAX_ANCHORS, len(source) // BYTES_PER_ANCHOR):
        return None
    return anchor


def _candidates(pattern: Pattern, root: tree_sitter.Node, source: bytes | None = None) -> list[tree_sitter.Node]:
    first = pattern.nodes[0]
    if first.meta:
        return _all_nodes(root, named_only=True)
    query = _kind_query(pattern.language, first.kind, first.named)
    if query is None:
        return [n for n in _all_nodes(root, False) if n.kind_id == first.kind_id]
    anchor = _anchor(pattern, source)
    if anchor is not None and source is not None:
        # Every match contains each token the pattern writes, so a candidate must overlap an
        # occurrence of the longest one: ranged queries visit only the nodes around them.
        seen: dict[int, tree_sitter.Node] = {}
        width = len(anchor)
        pos = source.find(anchor)
        while pos != -1:
            cursor = tree_sitter.QueryCursor(query)
            cursor.set_byte_range(pos, pos + width)
            for n in cursor.captures(root).get("c", []):
                if n.start_byte <= pos and n.end_byte >= pos + width:
                    seen.setdefault(n.id, n)
            pos = source.find(anchor, pos + width)
        nodes = list(seen.values())
    else:
        nodes = tree_sitter.QueryCursor(query).captures(root).get("c", [])
    # pre-order: outer first at equal starts
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
    """The pre-filter: every token the pattern writes occurs in `source` (words as whole words)."""
    for lit in pattern.literals:
        if lit[0] in _WORD_START and all(c in _WORD for c in lit):
            if not _has_word(source, lit):
                return False
        elif lit not in source:
            return False
    return True


def _to_match(
    pattern: Pattern, source: bytes, path: str | None, first: tree_sitter.Node, last: tree_sitter.Node, env: MetaVarEnv
) -> NodeMatch:
    metavars: dict[str, Capture] = {}
    multi: dict[str, list[Capture]] = {}
    for name, value in env.items():
        if isinstance(value, list):
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
        pattern.language,
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
    index: dict[tuple[int, bool, bytes | None], list[tree_sitter.Node]] | None = None,
) -> list[NodeMatch]:
    """Matches in one parsed file. `index` (kind -> candidate nodes) is a per-tree memo the
    Searcher keeps beside a cached tree, so a repeated search skips the query walk."""
    if index is None:
        candidates = _candidates(pattern, tree.root_node, source)
    else:
        first = pattern.nodes[0]
        # ranged candidates depend on the anchor token: they are memoised under it
        key = (-1 if first.meta else first.kind_id, first.named, _anchor(pattern, source))
        candidates = index.get(key)  # type: ignore[assignment]
        if candidates is None:
            candidates = _candidates(pattern, tree.root_node, source)
            index[key] = candidates
    found = list(iter_matches(pattern, candidates))
    return [_to_match(pattern, source, path, a, b, env) for a, b, env in found]


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


# Ignore rules ---------------------------------------------------------------------------


def _glob_regex(glob: str) -> str:
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = glob.find("]", i)
            if j == -1:
                out.append(re.escape(c))
            else:
                out.append("[" + glob[i + 1 : j].replace("!", "^", 1) + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


class _Ignore:
    """One .gitignore's rules, relative to its directory: (regex, negated, dir_only)."""

    def __init__(self, base: Path, lines: Iterable[str]) -> None:
        self.base = base
        self.rules: list[tuple[re.Pattern[str], bool, bool]] = []
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            line = line.lstrip("/")
            rx = _glob_regex(line)
            rx = f"^{rx}$" if anchored else f"^(?:.*/)?{rx}$"
            self.rules.append((re.compile(rx), negated, dir_only))

    def decide(self, path: Path, is_dir: bool) -> bool | None:
        """True ignored, False re-included, None no opinion."""
        try:
            rel = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        verdict = None
        for rx, negated, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if rx.match(rel):
                verdict = not negated
        return verdict


def _read_ignore(directory: Path) -> _Ignore | None:
    rules: list[str] = []
    for name in (".gitignore", ".ignore"):
        try:
            rules.extend((directory / name).read_text(encoding="utf-8", errors="replace").splitlines())
        except OSError:
            pass
    return _Ignore(directory, rules) if rules else None


def _is_ignored(stack: list[_Ignore], path: Path, is_dir: bool) -> bool:
    verdict = False
    for ign in stack:
        v = ign.decide(path, is_dir)
        if v is not None:
            verdict = v
    return verdict


def walk_files(root: Path, start: Path, language: str | None) -> Iterable[Path]:
    """Files under `start` (inside `root`) in sorted order, honouring .gitignore files from
    `root` down, skipping hidden and dependency folders; only `language`'s extensions."""
    stack: list[_Ignore] = []
    # ignore files of the ancestors between root and start apply too
    chain = [start, *start.parents]
    for d in reversed([p for p in chain if p == root or root in p.parents]):
        if d != start:
            ign = _read_ignore(d)
            if ign:
                stack.append(ign)

    def visit(directory: Path, stack: list[_Ignore]) -> Iterable[Path]:
        ign = _read_ignore(directory)
        if ign:
            stack = [*stack, ign]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            p = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if name in DEPENDENCY_DIRS or _is_ignored(stack, p, True):
                    continue
                yield from visit(p, stack)
            elif entry.is_file(follow_symlinks=False):
                if language is not None and EXTENSIONS.get(p.suffix.lower()) != language:
                    continue
                if _is_ignored(stack, p, False):
                    continue
                yield p

    yield from visit(start, stack)
