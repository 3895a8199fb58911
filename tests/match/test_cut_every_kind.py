"""Property test over real files, node kind by node kind: from fresh files of each
language, cut a node of every kind the files hold (a parameter, a case clause, an import's clause,
a type argument, not only statements and expressions), turn some of its parts into metavariables,
and search the file with that pattern.

- When one of the pattern's readings is the cut's own tree (metavariables where parts were cut
  out), the pattern must find the node it was cut from.
- Every match must be a whole node (or a run of sibling statements) that holds the pattern's
  tokens in order (tests/match/test_property.py says which target tokens may be left out).
- The pre-filter may only skip files that cannot match: a file of the same language whose
  tokens the pre-filter rejects must have no match.

A fragment that does not parse out of its file, or reads as another construct there (`Span`
alone is an identifier, not a type; `()` a tuple, not an argument list), cannot find its node:
those are counted per kind, printed, and bounded per language (CEILINGS, measured).

The files are fresh: a corpus's files (tests/corpora.py) picked by their own hash, less those
tests/match/test_languages.py and tests/match/test_property.py sample. Dart has only the few
files of the tree-sitter-dart package, which test_languages.py samples too.
"""

from __future__ import annotations

import random
import textwrap
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import tree_sitter

import corpora
from minitools.match import NodeMatch, PatternError, compile_pattern
from minitools.match._one_file import _matches_in_tree, has_literals
from minitools.match._pattern import MULTI, Pattern, parser_for
from test_languages import FILES as LANGUAGE_TEST_FILES
from test_property import _dedent_changes_a_string, _leaves, _pattern_tokens, _reading_as_cut, _same_token
from test_property import _files as property_test_files

SEED = 28
FILES = 6  # fresh files per language
PER_KIND = 2  # nodes cut per kind per file
OTHER_FILES = 3  # files each pattern's pre-filter verdict is checked on
MAX_MATCHES_CHECKED = 30

# language -> (corpus folder, suffixes, the folder inside the corpus the files come from)
CORPORA: dict[str, tuple[Callable[[], Path], tuple[str, ...], str]] = {
    "python": (corpora.python_stdlib, (".py",), ""),
    "javascript": (corpora.typescript_packages, (".js",), ""),
    "typescript": (corpora.typescript_packages, (".ts",), ""),
    "go": (corpora.go_src, (".go",), ""),
    "c": (corpora.glibc, (".c",), ""),
    "java": (corpora.jdk_java_base, (".java",), ""),
    "rust": (lambda: Path("/usr/share/cargo/registry"), (".rs",), ""),
    "dart": (corpora.dart_files, (".dart",), ""),
}
# Cuts that cannot find their node (they read as another construct, or not at all out of their
# file), at most this share of a language's cuts: measured when this test was written (python
# 0.15, javascript 0.26, typescript 0.29, go 0.23, c 0.35, java 0.20, rust 0.30, dart 0.51; before
# the sub-construct rungs: 0.21, 0.29, 0.42, 0.35, 0.35, 0.31, 0.45, 0.55), plus 0.05.
# Most are names and sub-constructs the same text spells as an expression (a Rust
# `primitive_type` `u64` is an identifier, a C `pointer_declarator` `*$A` a pointer expression, a
# Java `argument_list` `("x")` a parenthesized expression); Dart's few files are mostly such.
CEILINGS = {"python": 0.2, "javascript": 0.31, "typescript": 0.34, "go": 0.28, "c": 0.4, "java": 0.25, "rust": 0.35, "dart": 0.56}
# part kinds a metavariable stands for
REPLACEABLE = ("identifier", "expression", "call", "literal", "integer", "number", "type", "string", "name")


def _fresh_files(language: str) -> list[tuple[Path, bytes, tree_sitter.Tree]]:
    """Files the other differential and property tests do not sample, clean for the grammar."""
    root_of, suffixes, under = CORPORA[language]
    root = root_of()
    if not root.is_dir():
        pytest.skip(f"no {language} corpus at {root} ({corpora.SETUP} installs it)")
    taken: set[str] = set()
    if language != "dart":  # (Dart's few files are all there are)
        taken = {str(p) for p in LANGUAGE_TEST_FILES[language]()} | {name for name, _ in property_test_files(language)}
    candidates = [
        p for p in (root / under if under else root).rglob("*")
        if p.name.endswith(suffixes) and not p.name.endswith((".d.ts", ".min.js"))
        and not corpora.SKIPPED_DIRS.intersection(p.parts) and str(p) not in taken
    ]
    # by the path within the corpus, so every checkout (and CI) samples the same files
    candidates.sort(key=lambda p: (zlib.crc32(f"{SEED}:{p.relative_to(root)}".encode()), str(p.relative_to(root))))
    out = []
    for path in candidates:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if not (300 if language == "dart" else 2000) <= len(data) <= 60_000 or b"\0" in data:
            continue
        tree = parser_for(language).parse(data)
        if not tree.root_node.has_error:
            out.append((path, data, tree))
        if len(out) >= FILES:
            break
    if not out:
        pytest.skip(f"no clean {language} file below {root}")
    return out


def _in_literal(node: tree_sitter.Node) -> bool:
    up = node.parent
    while up is not None:
        if "string" in up.type or "comment" in up.type:
            return True
        up = up.parent
    return False


def _by_kind(tree: tree_sitter.Tree, source: bytes) -> dict[str, list[tree_sitter.Node]]:
    """Every named node worth cutting, by kind: not the file, no comment, not inside a string,
    1 to 250 bytes, no `$` of its own (it would read as a metavariable)."""
    kinds: dict[str, list[tree_sitter.Node]] = {}
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if not node.is_named or node.is_extra or node.parent is None or "comment" in node.type:
            continue
        if not 1 <= node.end_byte - node.start_byte <= 250 or _in_literal(node):
            continue
        if b"$" in source[node.start_byte : node.end_byte]:
            continue
        kinds.setdefault(node.type, []).append(node)
    return kinds


def _glued(source: bytes, at: int) -> bool:
    return 0 <= at < len(source) and (chr(source[at]).isalnum() or source[at] == ord("_"))


def _cut(source: bytes, node: tree_sitter.Node, rng: random.Random, language: str) -> tuple[str, set[tuple[int, int]]]:
    """The node's text with up to three of its parts written as metavariables: (pattern, the
    extents of the parts)."""
    start, end = node.start_byte, node.end_byte
    parts = []
    stack = list(node.children)
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        whole = (n.start_byte, n.end_byte) == (start, end)  # `$A` alone would match every node
        if n.is_named and not n.is_extra and not whole and n.end_byte > n.start_byte and any(k in n.type for k in REPLACEABLE) and not _in_literal(n):
            parts.append(n)
    rng.shuffle(parts)
    chosen: list[tuple[int, int]] = []
    for n in parts[: rng.randint(0, 3)]:
        if any(not (n.end_byte < a or n.start_byte > b) for a, b in chosen):
            continue  # overlapping or touching: `$A$B` reads as one name
        if _glued(source, n.start_byte - 1) or _glued(source, n.end_byte):
            continue  # `T$A` reads as one name
        chosen.append((n.start_byte, n.end_byte))
    chosen.sort()
    out, pos = b"", start
    for k, (a, b) in enumerate(chosen):
        out += source[pos:a] + b"$" + "ABC"[k].encode() + b"V"
        pos = b
    out += source[pos:end]
    text = out.decode("utf-8")
    if language == "python":  # dedented, as a person writes it
        line_start = source.rfind(b"\n", 0, start) + 1
        text = textwrap.dedent(" " * len(source[line_start:start].decode("utf-8", "replace")) + text).strip()
    return text, set(chosen)


def _is_whole(root: tree_sitter.Node, start: int, end: int, runs: bool) -> bool:
    """Whether [start, end) is one node's extent, or with `runs` a run of siblings'."""
    node = root.descendant_for_byte_range(start, end)
    if node is None:
        return False
    if (node.start_byte, node.end_byte) == (start, end):
        return True
    if not runs:
        return False
    kids = node.children
    return any(k.start_byte == start for k in kids) and any(k.end_byte == end for k in kids)


def _tokens_in_order(reading: Pattern, match: NodeMatch, root: tree_sitter.Node, terminator: bytes | None) -> str | None:
    """None when the match holds the reading's literal tokens in order, each capture a whole
    node or run of siblings between them (a `;` a line break stands for aside); else what is
    wrong."""
    leaves = _leaves(root, match.start_byte, match.end_byte, strings_whole=True)
    k = 0
    for p in _pattern_tokens(reading.nodes):
        if p.meta:
            cap = match.metavars.get(p.name) if p.name else None
            if cap is None or cap.start_byte == cap.end_byte:
                continue
            # a `$$$` takes a run of siblings, and so does a Dart `$A` (a call's `selector`s)
            if not _is_whole(root, cap.start_byte, cap.end_byte, p.meta == MULTI or reading.language == "dart"):
                return f"capture ${p.name} = {cap.text[:40]!r} is no whole node"
            while k < len(leaves) and leaves[k].start_byte < cap.start_byte:
                k += 1
            while k < len(leaves) and leaves[k].end_byte <= cap.end_byte:
                k += 1
            continue
        while k < len(leaves) and not _same_token(leaves[k].text or b"", p.btext):
            whole = _token_above(leaves[k], p.btext)
            if whole is not None:  # a token the grammar splits (Rust's r#"..."#): its leaves at once
                while k + 1 < len(leaves) and leaves[k + 1].end_byte <= whole.end_byte:
                    k += 1
                break
            k += 1
        if k >= len(leaves):
            if terminator is not None and p.btext == terminator:
                continue
            return f"pattern token {p.text!r} is not in the match, after what came before it"
        k += 1
    return None


def _token_above(leaf: tree_sitter.Node, text: bytes) -> tree_sitter.Node | None:
    """The node around `leaf` whose whole text is `text` (a string the pattern writes as one
    token and the grammar as a node whose delimiters are no leaves: Rust's r#"..."#), or None."""
    node: tree_sitter.Node | None = leaf
    while node is not None and node.end_byte - node.start_byte <= len(text):
        if node.text == text:
            return node
        node = node.parent
    return None


def _tokens_hold(pattern: Pattern, match: NodeMatch, root: tree_sitter.Node, terminator: bytes | None) -> str | None:
    """None when some reading of the pattern has its tokens in the match, in order."""
    wrong = None
    for reading in (pattern, *pattern.alternatives):
        wrong = _tokens_in_order(reading, match, root, terminator)
        if wrong is None:
            return None
    return wrong


def _cuts(language: str) -> Iterator[tuple[Path, bytes, tree_sitter.Tree, tree_sitter.Node, str, set[tuple[int, int]]]]:
    rng = random.Random(f"{SEED}:{language}")
    for path, source, tree in _fresh_files(language):
        for _kind, nodes in sorted(_by_kind(tree, source).items()):
            for node in rng.sample(nodes, min(PER_KIND, len(nodes))):
                text, parts = _cut(source, node, rng, language)
                yield path, source, tree, node, text, parts


@pytest.mark.parametrize("language", sorted(CORPORA))
def test_a_cut_of_every_kind_finds_its_node_and_only_whole_nodes(language: str) -> None:
    files = _fresh_files(language)
    terminator = b";" if language in ("go", "python") else None
    unfound: Counter[str] = Counter()
    failures: list[str] = []
    cuts = found = checked = filtered = 0
    kinds: set[str] = set()
    for path, source, tree, node, text, parts in _cuts(language):
        cuts += 1
        kinds.add(node.type)
        where = f"{path.name}:{node.start_point[0] + 1} ({node.type})"
        if language == "python" and _dedent_changes_a_string(node, node):
            continue  # the dedent a Python fragment needs would change the string's text
        try:
            pattern = compile_pattern(text, language)
        except PatternError:
            unfound[f"{node.type}: unparseable"] += 1
            continue
        matches = _matches_in_tree(pattern, tree, source, None)
        here = any((m.start_byte, m.end_byte) == (node.start_byte, node.end_byte) for m in matches)
        if here:
            found += 1
        elif _reading_as_cut(pattern, node, node, parts) is not None:
            failures.append(f"{where}: {text[:100]!r} reads as its own tree but does not find it")
        else:
            unfound[f"{node.type}: read as {'/'.join(p.kind for p in pattern.nodes)}"] += 1
        for m in matches[:MAX_MATCHES_CHECKED]:
            checked += 1
            # a run of siblings only for a pattern of several statements, or Dart's `selector` runs
            runs = language == "dart" or any(r.is_sequence for r in (pattern, *pattern.alternatives))
            if not _is_whole(tree.root_node, m.start_byte, m.end_byte, runs):
                failures.append(f"{where}: {text[:80]!r} matched {m.text[:80]!r}, no whole node")
                continue
            wrong = _tokens_hold(pattern, m, tree.root_node, terminator)
            if wrong:
                failures.append(f"{where}: {text[:80]!r} matched {m.text[:80]!r} at byte {m.start_byte}: {wrong}")
        # the pre-filter: a file it rejects has no match
        for _, other, other_tree in files[:OTHER_FILES]:
            if other is not source and not has_literals(pattern, other):
                filtered += 1
                lost = _matches_in_tree(pattern, other_tree, other, None)
                if lost:
                    failures.append(f"{where}: the pre-filter skips a file where {text[:80]!r} matches {lost[0].text[:80]!r}")
    missed = sum(unfound.values())
    print(f"\n{language}: {len(files)} files, {len(kinds)} kinds, {cuts} cuts, {found} found their node, "
          f"{missed} read otherwise, {checked} matches checked, {filtered} pre-filter rejections checked")
    for reason, n in unfound.most_common(12):
        print(f"  {n} x {reason}")
    assert not failures, "\n".join(failures[:20])
    assert len(kinds) >= (10 if language == "dart" else 30), f"only {len(kinds)} kinds in the {language} files"
    assert filtered, "no file the pre-filter rejects: the property was not tested"
    assert missed <= CEILINGS[language] * cuts, f"{missed} of {cuts} {language} cuts read otherwise: {unfound.most_common(8)}"
