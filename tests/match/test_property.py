"""Property test over real files: cut a node (or a run of sibling statements) out of a real
file, turn some of its identifiers and sub-expressions into metavariables, search the file.
The original place must be found, and every match must really have the pattern's tokens:
the pattern's literal tokens and captures, in order, where the only target tokens left out
are comments, unnamed tokens standing where the pattern expects another token of the same
parent (docs/tools.md, "How a pattern matches"), a Go/Python `;`, and what trails the match.
A second test leaves one token out of a cut (a keyword, a `,`): the cut must find its place
exactly when that rule lets the target's token be skipped there.

Files come from the corpora benchmarks/corpora/ holds when they are installed, else from
real files on the machine (the running Python's standard library, node_modules' TypeScript,
Go's source, /usr/include, the JDK's src.zip, Debian's Rust crates). A sample the compiler
cannot compile, or compiles as another construct, is skipped with a counted, printed reason;
the test fails when skips pass 30% of the samples.
"""

from __future__ import annotations

import os
import random
import sysconfig
import textwrap
import zipfile
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
import tree_sitter

from minitools.match import NodeMatch, PatternError, compile_pattern, find_matches
from minitools.match._pattern import Pattern, PNode, parser_for
from minitools.match._pattern_tree import hides_text as _hides_text

REPO = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("MINITOOLS_PROPERTY_CORPORA", REPO / "benchmarks" / "corpora"))
SEED = int(os.environ.get("MINITOOLS_PROPERTY_SEED", "20261203"))
FILES, NODES, RUNS = 12, 8, 3  # per language: files sampled, nodes and runs cut per file
MAX_SKIP_SHARE = 0.3  # today 0-25% a language: fragments the compiler reads otherwise out of their file
MAX_MATCHES_CHECKED = 40

EXTENSIONS = {
    "python": (".py",), "typescript": (".ts",), "javascript": (".js",), "go": (".go",),
    "c": (".c", ".h"), "java": (".java",), "rust": (".rs",),
}
FALLBACKS: dict[str, list[str]] = {
    "python": [sysconfig.get_paths()["stdlib"]],
    "typescript": [str(REPO / "node_modules" / "typescript" / "lib")],
    "javascript": [str(REPO / "node_modules" / "typescript-language-server"), str(REPO / "node_modules" / "typescript" / "lib")],
    "go": ["/usr/lib/go/src"],
    "c": ["/usr/include"],
    "java": [],  # the JDK's src.zip, below
    "rust": ["/usr/share/cargo/registry"],
}
# what a metavariable may stand for: identifiers and expressions (a statement or a block
# turned into `$A` reads as another construct)
REPLACEABLE = ("identifier", "expression", "call", "literal", "integer", "number", "attribute", "member", "subscript", "string")
# what is cut: nodes that stand alone in source (a parameter list, a type annotation or a
# modifier list is no fragment a user would search for)
STANDALONE = ("statement", "expression", "declaration", "definition", "call", "assignment", "item")
STATEMENT_PARENTS = ("block", "body", "module", "program", "source_file", "translation_unit", "statement_list", "compound_statement")


def _files(language: str) -> list[tuple[str, bytes]]:
    """(name, source) of the files sampled for `language`, seeded."""
    exts = EXTENSIONS[language]
    roots = [str(p) for p in sorted(CORPORA.glob("*")) if p.is_dir()] if CORPORA.is_dir() else []
    found: list[str] = []
    for root in [*roots, *FALLBACKS[language]]:
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "site-packages")
            found.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(exts) and not n.endswith(".min.js"))
        if len(found) >= FILES * 4 and root in roots:
            break  # the installed corpus is enough
    rng = random.Random(f"{SEED}:{language}")
    out: list[tuple[str, bytes]] = []
    if not found and language == "java":
        for z in sorted(Path("/usr/lib/jvm").glob("*/lib/src.zip")) + sorted(Path("/usr/lib/jvm").glob("*/src.zip")):
            with zipfile.ZipFile(z) as archive:
                members = [m for m in archive.namelist() if m.endswith(".java") and m.startswith("java.base/")]
                for m in rng.sample(members, min(len(members), FILES * 3)):
                    data = archive.read(m)
                    if 1000 <= len(data) <= 120_000:
                        out.append((f"{z}!{m}", data))
            if out:
                return out[:FILES]
    rng.shuffle(found)
    for path in found:
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if 1000 <= len(data) <= 120_000 and b"\0" not in data:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            out.append((path, data))
        if len(out) >= FILES:
            break
    return out


def _named(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_named and not n.is_extra:
            yield n
        stack.extend(reversed(n.children))


def _same_extent_kinds(node: tree_sitter.Node) -> set[str]:
    kinds = {node.type}
    up = node.parent
    while up is not None and up.start_byte == node.start_byte and up.end_byte == node.end_byte:
        kinds.add(up.type)
        up = up.parent
    down = node
    while down.named_child_count >= 1:
        kids = [c for c in down.children if not c.is_extra]
        if len(kids) != 1 or kids[0].start_byte != node.start_byte or kids[0].end_byte != node.end_byte:
            break
        down = kids[0]
        kinds.add(down.type)
    return kinds


def _inside_string(node: tree_sitter.Node, top: tree_sitter.Node) -> bool:
    up = node.parent
    while up is not None and up.id != top.id:
        if "string" in up.type or "comment" in up.type:
            return True
        up = up.parent
    return False


def _cut(
    source: bytes, first: tree_sitter.Node, last: tree_sitter.Node, rng: random.Random, language: str, most: int = 3
) -> tuple[str, list[tuple[int, int, str]]]:
    """The fragment from `first` to `last` with up to `most` sub-nodes turned into
    metavariables: (pattern text, [(start, end, name)] of the replaced spans)."""
    start, end = first.start_byte, last.end_byte
    subs = [
        n for top in _siblings(first, last) for n in _named(top)
        if n.start_byte >= start and n.end_byte <= end and (n.start_byte, n.end_byte) != (start, end)
        and any(k in n.type for k in REPLACEABLE) and not _inside_string(n, top) and n.end_byte > n.start_byte
    ]
    rng.shuffle(subs)
    chosen: list[tuple[int, int, str]] = []
    names: dict[bytes, str] = {}
    for n in subs[: rng.randint(0, 6) if most else 0]:
        if any(not (n.end_byte < s or n.start_byte > e) for s, e, _ in chosen):
            continue  # overlapping, or touching: `$A$B` would read as one name
        if _word_byte(source, n.start_byte - 1) or _word_byte(source, n.end_byte):
            continue  # `T{...}` as `T$A` would read as one name
        text = source[n.start_byte : n.end_byte]
        # the same text under one name now and then: a repeated metavariable
        name = names.get(text) if rng.random() < 0.5 else None
        if name is None:
            name = "ABCDEFGHJK"[len(chosen)] + "V"
            names[text] = name
        chosen.append((n.start_byte, n.end_byte, name))
        if len(chosen) >= most:
            break
    chosen.sort()
    out, pos = b"", start
    for s, e, name in chosen:
        out += source[pos:s] + b"$" + name.encode()
        pos = e
    out += source[pos:end]
    if language != "python":
        return out.decode("utf-8"), chosen
    # Python reads indentation: the fragment dedented, as a user would write it
    line_start = source.rfind(b"\n", 0, start) + 1
    text = " " * len(source[line_start:start].decode("utf-8", "replace")) + out.decode("utf-8")
    return textwrap.dedent(text).strip(), chosen


def _dedent_changes_a_string(first: tree_sitter.Node, last: tree_sitter.Node) -> bool:
    """Whether the cut holds a string that spans lines below an indented first line (the
    dedent a Python fragment needs would change the string's text)."""
    if first.start_point[1] == 0:
        return False
    return any(
        "string" in n.type and n.start_point[0] != n.end_point[0]
        for top in _siblings(first, last) for n in _named(top)
    )


def _word_byte(source: bytes, at: int) -> bool:
    return 0 <= at < len(source) and (chr(source[at]).isalnum() or source[at] == ord("_"))


Shape = object


def _target_shape(node: tree_sitter.Node, spans: set[tuple[int, int]], dropped: int = -1) -> Shape:
    if (node.start_byte, node.end_byte) in spans:
        return "$"
    kids = [c for c in node.children if not c.is_extra and c.id != dropped]
    if not kids:
        return node.type
    return (node.type, tuple(_target_shape(c, spans, dropped) for c in kids))


def _pattern_shape(p: PNode) -> Shape:
    if p.meta:
        return "$"
    if not p.children:
        return p.kind
    return (p.kind, tuple(_pattern_shape(c) for c in p.children))


def _compiled_as_cut(
    pattern: Pattern, first: tree_sitter.Node, last: tree_sitter.Node, spans: set[tuple[int, int]], dropped: int = -1
) -> bool:
    """Whether the pattern's tree is the cut's own tree, metavariables where spans were cut
    out: else the fragment reads as another construct out of its file (nothing the matcher
    can find)."""
    tops = _siblings(first, last) if first.id != last.id else [first]
    tops = [t for t in tops if not t.is_extra]
    if len(tops) != len(pattern.nodes):
        return False
    for top, p in zip(tops, pattern.nodes):
        node: tree_sitter.Node | None = top
        # the pattern's root is the innermost node of the fragment's extent
        while node is not None and node.type != p.kind:
            kids = [c for c in node.children if not c.is_extra]
            node = kids[0] if len(kids) == 1 and (kids[0].start_byte, kids[0].end_byte) == (top.start_byte, top.end_byte) else None
        if node is None or _target_shape(node, spans, dropped) != _pattern_shape(p):
            return False
    return True


def _reading_as_cut(
    pattern: Pattern, first: tree_sitter.Node, last: tree_sitter.Node, spans: set[tuple[int, int]], dropped: int = -1
) -> Pattern | None:
    """The pattern's reading (itself or one of its alternatives, docs/architecture.md,
    "Matcher") whose tree is the cut's own, searched alone from here on; None if none is."""
    return next((r for r in (pattern, *pattern.alternatives) if _compiled_as_cut(r, first, last, spans, dropped)), None)


def _siblings(first: tree_sitter.Node, last: tree_sitter.Node) -> list[tree_sitter.Node]:
    if first.id == last.id:
        return [first]
    parent = first.parent
    assert parent is not None
    return [c for c in parent.children if c.start_byte >= first.start_byte and c.end_byte <= last.end_byte]


def _leaves(root: tree_sitter.Node, start: int, end: int, strings_whole: bool = False) -> list[tree_sitter.Node]:
    """The target's tokens in [start, end), comments left out; with `strings_whole`, a string
    with text none of its children holds (Dart's) is one token, as the matcher compares it."""
    out: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.end_byte <= start or n.start_byte >= end or n.is_extra:
            continue
        if n.child_count == 0 or (strings_whole and "string" in n.type and not n.named_child_count and _hides_text(n)):
            if n.end_byte > n.start_byte:
                out.append(n)
            continue
        stack.extend(reversed(n.children))
    return out


def _pattern_tokens(nodes: tuple[PNode, ...]) -> list[PNode]:
    out: list[PNode] = []
    stack = list(reversed(nodes))
    while stack:
        p = stack.pop()
        if p.meta or not p.children:
            out.append(p)
        else:
            stack.extend(reversed(p.children))
    return out


def _contains(node: tree_sitter.Node, leaf: tree_sitter.Node) -> bool:
    return node.start_byte <= leaf.start_byte and leaf.end_byte <= node.end_byte


def _may_leave_out(s: tree_sitter.Node, prev: tree_sitter.Node | None, hit: tree_sitter.Node, terminator: bytes | None) -> bool:
    """Whether target leaf `s`, between the leaf matched last (`prev`) and the one matched
    next (`hit`), may be left out: a `;` that a line break stands for; an unnamed token of
    `hit`'s own parent (the pattern expects a token there); or what trails the children
    the pattern wrote for a node around `prev` that `hit` lies outside of."""
    if terminator is not None and s.text == terminator:
        return True
    if not s.is_named and s.parent is not None and hit.parent is not None and s.parent.id == hit.parent.id:
        return True
    if prev is None:
        return False
    up: tree_sitter.Node | None = prev
    while up is not None and not _contains(up, s):
        up = up.parent
    return up is not None and not _contains(up, hit)


def _same_token(target: bytes, pattern: bytes) -> bool:
    """A target token is the pattern's: the same text, or a directive with a space after the
    `#` (`# include` is `#include`, docs/tools.md)."""
    return target == pattern or (pattern[:1] == b"#" and b"".join(target.split()) == pattern)


def _really_has_tokens(pattern: Pattern, m: NodeMatch, root: tree_sitter.Node, terminator: bytes | None) -> str | None:
    """None when the match is the pattern's tokens in order, the captures included (what
    `_may_leave_out` allows aside); else what is wrong."""
    leaves = _leaves(root, m.start_byte, m.end_byte)
    k = 0
    prev: tree_sitter.Node | None = None
    seen: set[str] = set()
    for p in _pattern_tokens(pattern.nodes):
        if p.meta:
            cap = m.metavars.get(p.name) if p.name else None
            if cap is None:
                return f"metavariable {p!r} has no capture"
            want = [leaf.text for leaf in _leaves(root, cap.start_byte, cap.end_byte)]
            if p.name in seen or not want:
                # a repeated metavariable: the same tokens again, here
                while want and k < len(leaves) and leaves[k].text != want[0] and terminator is not None and leaves[k].text == terminator:
                    k += 1
                got = [leaf.text for leaf in leaves[k : k + len(want)]]
                if got != want:
                    return f"${p.name} again: {got!r} where its capture was {want!r}"
                k += len(want)
                prev = leaves[k - 1] if want else prev
                continue
            seen.add(p.name)  # type: ignore[arg-type]
            while k < len(leaves) and terminator is not None and leaves[k].text == terminator and leaves[k].start_byte < cap.start_byte:
                k += 1
            if k >= len(leaves) or not cap.start_byte <= leaves[k].start_byte < cap.end_byte:
                got = leaves[k].text if k < len(leaves) else b"<end>"
                return f"capture ${p.name} = {cap.text!r} does not start at the next target token {got!r}"
            while k < len(leaves) and leaves[k].end_byte <= cap.end_byte:
                k += 1
            prev = leaves[k - 1]
            continue
        j = k
        while j < len(leaves) and not _same_token(leaves[j].text or b"", p.btext):
            j += 1
        if j >= len(leaves):
            if terminator is not None and p.btext == terminator:
                continue  # a line break in the target where the pattern writes `;`
            return f"pattern token {p.text!r} is not in the match"
        hit = leaves[j]
        for s in leaves[k:j]:
            if not _may_leave_out(s, prev, hit, terminator):
                return f"target token {s.text!r} ({s.type}) left out before {p.text!r}"
        prev, k = hit, j + 1
    return None


def _standalone(tree: tree_sitter.Tree, source: bytes) -> list[tree_sitter.Node]:
    """The nodes worth cutting: standalone constructs of a modest size."""
    return [
        n for n in _named(tree.root_node)
        if 12 <= n.end_byte - n.start_byte <= 300 and n.child_count >= 2 and not n.has_error
        and any(k in n.type for k in STANDALONE) and "parameter" not in n.type and "comment" not in n.type and "string" not in n.type and n.parent is not None
        and b"$" not in source[n.start_byte : n.end_byte]
    ]


def _samples(tree: tree_sitter.Tree, source: bytes, rng: random.Random, language: str) -> Iterator[tuple[tree_sitter.Node, tree_sitter.Node]]:
    nodes = _standalone(tree, source)
    for n in rng.sample(nodes, min(NODES, len(nodes))):
        yield n, n
    runs = []
    for parent in _named(tree.root_node):
        if not any(k in parent.type for k in STATEMENT_PARENTS) or parent.has_error:
            continue
        kids = [c for c in parent.children if c.is_named and not c.is_extra]
        for a, b in pairwise(kids):
            if b.end_byte - a.start_byte <= 300 and b"$" not in source[a.start_byte : b.end_byte]:
                runs.append((a, b))
    for a, b in rng.sample(runs, min(RUNS, len(runs))):
        yield a, b


def _corpus(language: str, purpose: str) -> tuple[list[tuple[str, bytes]], random.Random, bytes | None]:
    """The files, a seeded sampler and the optional terminator for one language's test."""
    files = _files(language)
    if not files:
        pytest.skip(f"no {language} files on this machine or in {CORPORA}")
    return files, random.Random(f"{SEED}:{language}:{purpose}"), (b";" if language in ("go", "python") else None)


@pytest.mark.parametrize("language", sorted(EXTENSIONS))
def test_cut_patterns_find_their_place_and_only_their_tokens(language: str) -> None:
    files, rng, terminator = _corpus(language, "cut")
    skips: Counter[str] = Counter()
    failures: list[str] = []
    tried = checked = 0
    for name, source in files:
        tree = parser_for(language).parse(source)
        if tree.root_node.has_error:
            continue  # not this grammar's language (a C++ header), or not valid
        for first, last in _samples(tree, source, rng, language):
            tried += 1
            where = f"{name}:{first.start_point[0] + 1}"
            if language == "python" and _dedent_changes_a_string(first, last):
                skips["a multi-line string the dedent would change"] += 1
                continue
            # with metavariables first; where the grammar wants a literal in the place of one
            # (an import's source string, C's `if (...)`), the plain cut
            attempt: Pattern | str = ""
            for most in (3, 0):
                text, cuts = _cut(source, first, last, rng, language, most)
                try:
                    pattern = compile_pattern(text, language)
                except PatternError:
                    attempt = "unparseable out of its file"
                    continue
                # the reading (of the pattern's union of rung readings) that is the cut's tree
                reading = _reading_as_cut(pattern, first, last, {(a, b) for a, b, _ in cuts})
                if reading is None:
                    attempt = "compiles as another construct"
                    continue
                attempt = reading
                break
            if isinstance(attempt, str):
                skips[attempt] += 1
                if os.environ.get("MINITOOLS_PROPERTY_VERBOSE"):
                    print(attempt, first.type, repr(text[:80]))
                continue
            pattern = attempt
            found = find_matches(pattern, source)
            if not any(m.start_byte == first.start_byte and m.end_byte == last.end_byte for m in found):
                failures.append(f"{where}: {text!r} does not find its own place (tree {pattern.nodes})")
                continue
            for m in found[:MAX_MATCHES_CHECKED]:
                checked += 1
                wrong = _really_has_tokens(pattern, m, tree.root_node, terminator)
                if wrong:
                    failures.append(f"{where}: {text!r} matched {m.text!r} at byte {m.start_byte}: {wrong}")
    skipped = sum(skips.values())
    print(f"\n{language}: {len(files)} files, {tried} samples, {checked} matches checked, {skipped} skipped: {dict(skips)}")
    assert not failures, "\n".join(failures[:20])
    assert tried >= len(files), f"too few {language} samples: {tried}"
    assert skipped <= MAX_SKIP_SHARE * tried, f"{skipped} of {tried} {language} samples skipped: {dict(skips)}"


def _droppable(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The unnamed tokens inside `node` (neither its first nor its last, outside strings)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_extra or "string" in n.type or "comment" in n.type:
            continue
        if n.child_count == 0:
            if not n.is_named and n.start_byte > node.start_byte and n.end_byte < node.end_byte and n.end_byte > n.start_byte:
                out.append(n)
            continue
        stack.extend(n.children)
    return out


def _skip_allowed(dropped: tree_sitter.Node, terminator: bytes | None) -> bool:
    """What docs/tools.md, "How a pattern matches", predicts for a pattern that leaves out
    the token `dropped`: found where the pattern expects another token of the same node
    there, where nothing of that node follows (trailing), or for a Go/Python `;`."""
    if terminator is not None and dropped.text == terminator:
        return True
    parent = dropped.parent
    assert parent is not None
    kids = [c for c in parent.children if not c.is_extra]
    after = kids[kids.index(next(c for c in kids if c.id == dropped.id)) + 1 :]
    if not after:
        return True
    nxt = after[0]
    return nxt.child_count == 0 and nxt.kind_id != dropped.kind_id


@pytest.mark.parametrize("language", sorted(EXTENSIONS))
def test_a_token_left_out_of_a_cut_is_a_difference_unless_the_rule_allows(language: str) -> None:
    """A cut with one unnamed token (a keyword, an operator, a `=`) left out, that still reads
    as the same construct, finds its place exactly when the strictness rule lets the target's
    token be skipped there, and every match it has is the pattern's tokens in order."""
    files, rng, terminator = _corpus(language, "drop")
    unusable: Counter[str] = Counter()
    failures: list[str] = []
    predicted: Counter[bool] = Counter()
    for name, source in files:
        tree = parser_for(language).parse(source)
        if tree.root_node.has_error:
            continue
        nodes = _standalone(tree, source)
        nodes = rng.sample(nodes, min(len(nodes), 2 * NODES))
        for node in nodes:
            tokens = _droppable(node)
            if not tokens or (language == "python" and _dedent_changes_a_string(node, node)):
                unusable["no token to leave out"] += 1
                continue
            rng.shuffle(tokens)
            # keywords first (`async`, `static`, `mut`): the ones a fragment can do without
            tokens.sort(key=lambda t: not (t.text or b"").isalpha())
            usable: tuple[tree_sitter.Node, str, Pattern] | None = None
            for d in tokens[:16]:  # most tokens cannot go: the fragment no longer parses
                glue = b" " if _word_byte(source, d.start_byte - 1) and _word_byte(source, d.end_byte) else b""
                text = (source[node.start_byte : d.start_byte] + glue + source[d.end_byte : node.end_byte]).decode("utf-8")
                if language == "python":
                    line_start = source.rfind(b"\n", 0, node.start_byte) + 1
                    text = textwrap.dedent(" " * len(source[line_start : node.start_byte].decode("utf-8", "replace")) + text).strip()
                try:
                    pattern = compile_pattern(text, language)
                except PatternError:
                    continue
                reading = _reading_as_cut(pattern, node, node, set(), d.id)
                if reading is not None:
                    usable = (d, text, reading)
                    break
            if usable is None:
                unusable["no token can go"] += 1
                continue
            d, text, pattern = usable
            want = _skip_allowed(d, terminator)
            predicted[want] += 1
            found = find_matches(pattern, source)
            here = any(m.start_byte == node.start_byte and m.end_byte == node.end_byte for m in found)
            where = f"{name}:{node.start_point[0] + 1}"
            if here != want:
                failures.append(f"{where}: {text!r} (without {d.text!r} of {d.parent.type if d.parent else '?'}) "
                                f"{'found' if here else 'missed'} its place; the rule says {'found' if want else 'missed'}")
            for m in found[:MAX_MATCHES_CHECKED]:
                wrong = _really_has_tokens(pattern, m, tree.root_node, terminator)
                if wrong:
                    failures.append(f"{where}: {text!r} matched {m.text!r} at byte {m.start_byte}: {wrong}")
    print(f"\n{language}: {sum(predicted.values())} cuts with a token left out "
          f"({predicted[True]} found by the rule, {predicted[False]} a difference), unusable: {dict(unusable)}")
    assert not failures, "\n".join(failures[:20])
    if not predicted:
        # most tokens are structural: without them the fragment reads otherwise (C, Go)
        pytest.skip(f"no {language} cut could do without one of its tokens: {dict(unusable)}")
