"""Differential test per language on real code: minitools and the `ast-grep` CLI (0.51.1) on the same
files, the same patterns, compared match by match (file, start and end byte, text, captures).

The files are a deterministic sample (tests/corpora.py) of the corpora setup/15-corpora.sh installs:
Go's source tree, glibc, the JDK's java.base, Rust crates, TypeScript npm packages and the
TypeScript lib .d.ts files, the Python standard library, and the few real Dart files there are.
Where minitools' scaffold ladder finds what plain `ast-grep run -p` cannot (docs/tools.md), the
reference is ast-grep's own `pattern: {context, selector}` rule: the pattern written in a context
that parses, the match taken at the node of the selector's kind.

A case that fails today for a known class of disagreement is an expected failure (strict, so it
shows up when the class is fixed) whose reason names the class.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import corpora
from minitools.match import Searcher
from reference_tools import Found, ast_grep_run, ast_grep_selector, minitools_matches

# The classes of disagreement known today (the reason an expected failure gives).


@dataclass(frozen=True)
class Case:
    language: str
    pattern: str
    context: str | None = None  # with selector: ast-grep's context+selector rule is the reference
    selector: str | None = None
    with_run: bool = False  # with selector: plain `ast-grep run` finds more of the reference
    also: tuple[tuple[str, str], ...] = ()  # more (context, selector) readings of the reference
    superset: bool = False  # the ladder finds more than any reference reading can say: ours ⊇ theirs
    known: str | None = None  # the class of a known disagreement

    @property
    def id(self) -> str:
        return f"{self.language}:{self.pattern}"


def _rust_files() -> list[Path]:
    return [p for crate in ("regex", "syn", "serde", "memchr", "libc")
            for p in corpora.sample(corpora.rust_crate(crate), (".rs",), 8)]


def _dart_files() -> list[Path]:
    return [*corpora.sample(corpora.dart_files(), (".dart",), 10),
            *sorted((corpora.REPO / "examples" / "sample").rglob("*.dart"))]


# The files each language's cases search: a few dozen, chosen deterministically.
FILES: dict[str, Callable[[], list[Path]]] = {
    "go": lambda: corpora.sample(corpora.go_src(), (".go",), 40),
    "c": lambda: corpora.sample(corpora.glibc(), (".c", ".h"), 40),
    "java": lambda: corpora.sample(corpora.jdk_java_base(), (".java",), 40),
    "rust": _rust_files,
    "typescript": lambda: [*corpora.sample(corpora.typescript_packages(), (".ts",), 30),
                           *corpora.sample(corpora.typescript_lib(), (".d.ts",), 10)],
    "javascript": lambda: corpora.sample(corpora.typescript_packages(), (".js",), 40),
    "python": lambda: corpora.sample(corpora.python_stdlib(), (".py",), 40),
    "dart": _dart_files,
}

CASES: list[Case] = [
    # Go (Go's source tree)
    Case("go", "if err != nil { $$$B }"),
    Case("go", "return $A, nil"),
    Case("go", "$X := $Y"),
    Case("go", "defer $F($$$A)"),
    Case("go", "make($T, $N)"),
    Case("go", "fmt.Errorf($$$A)", "func _() { fmt.Errorf($$$A) }", "call_expression"),
    Case("go", "$A.$B($$$C)", "func _() { $A.$B($$$C) }", "call_expression"),
    Case("go", "func $F($$$P) $R { $$$B }"),
    Case("go", "for $I := range $X { $$$B }"),
    Case("go", "type $T struct { $$$F }"),
    Case("go", "var $A $B"),
    Case("go", "switch $X { $$$ }"),
    # C (glibc)
    Case("c", "return $X;"),
    Case("c", "memcpy($A, $B, $C)"),
    Case("c", "$A->$B = $C;"),
    Case("c", "sizeof($T)"),
    Case("c", "goto $L;"),
    Case("c", "int $X = $Y;"),
    Case("c", "free($P)", "void _() { free($P); }", "call_expression"),
    Case("c", "if ($C) { $$$B }"),
    Case("c", "while ($C) { $$$B }"),
    Case("c", "switch ($X) { $$$ }"),
    Case("c", "static int $F($$$P) { $$$B }"),
    Case("c", "struct $S { $$$F };", "struct $S { $$$F };", "struct_specifier"),
    # Java (the JDK's java.base)
    Case("java", "throw new $E($$$A);"),
    Case("java", "$A.equals($B)"),
    Case("java", "return $X;"),
    Case("java", "Objects.requireNonNull($X)"),
    Case("java", "new $T($$$A)"),
    Case("java", "if ($C) { $$$B }"),
    Case("java", "for ($T $X : $Y) { $$$B }"),
    Case("java", "try { $$$B } catch ($E $X) { $$$C }"),
    Case("java", "public $R $M($$$P) { $$$B }", "class _ { public $R $M($$$P) { $$$B } }", "method_declaration"),
    Case("java", "@Override public $R $M($$$P) { $$$B }"),
    Case("java", "private static final $T $N = $V;", "class _ { private static final $T $N = $V; }",
         "field_declaration"),
    Case("java", "@$A"),
    # Rust (crates from Debian's librust-*-dev)
    Case("rust", "$X.unwrap()"),
    Case("rust", "#[derive($$$D)]"),
    Case("rust", "let $A = $B;"),
    Case("rust", "$A?"),
    Case("rust", "unsafe { $$$B }"),
    Case("rust", "Some($X)"),
    Case("rust", "use $A;"),
    Case("rust", "fn $F($$$P) -> $R { $$$B }"),
    Case("rust", "$A::new($$$B)"),
    Case("rust", "impl $T for $S { $$$ }"),
    Case("rust", "match $X { $$$ }"),
    Case("rust", "pub struct $S { $$$F }"),
    Case("rust", "pub $F: $T", "struct _ { pub $F: $T }", "field_declaration"),
    # TypeScript (rxjs, effect, tfjs-core; the TypeScript lib .d.ts files)
    Case("typescript", "interface $I { $$$ }"),
    Case("typescript", "class $C { $$$ }"),
    Case("typescript", "type $T = $U;"),
    Case("typescript", "export declare function $F($$$P): $R;"),
    Case("typescript", "new $C($$$A)"),
    Case("typescript", "$A as $T"),
    Case("typescript", "($$$P) => $B"),
    Case("typescript", "declare var $V: $T;"),
    Case("typescript", "if ($C) { $$$B }"),
    Case("typescript", "Promise<$T>", "let _: Promise<$T>;", "generic_type"),
    Case("typescript", "readonly $P: $T;", "interface _ { readonly $P: $T; }", "property_signature",
         also=(("class _ { readonly $P: $T; }", "public_field_definition"),)),
    # JavaScript (the packages' .js files)
    Case("javascript", "if ($C) { $$$B }"),
    Case("javascript", "$A.subscribe($$$B)"),
    Case("javascript", "new $C($$$A)"),
    Case("javascript", "Object.defineProperty($$$A)"),
    Case("javascript", "return $X;"),
    Case("javascript", "try { $$$B } catch ($E) { $$$C }"),
    Case("javascript", "var $A = $B;"),
    Case("javascript", "$A === void 0"),
    Case("javascript", "function $F($$$P) { $$$B }"),
    Case("javascript", "($$$P) => { $$$B }"),
    # Python (the standard library)
    Case("python", "self.$A = $B"),
    Case("python", "isinstance($X, $T)"),
    Case("python", "return $X"),
    Case("python", "@$D\ndef $F($$$P): $$$B"),
    Case("python", "with $A as $B: $$$C"),
    Case("python", "import $M"),
    Case("python", "assert isinstance($X, $T)"),
    Case("python", "def $F($$$P): $$$B"),
    Case("python", "if $X is None: $$$B"),
    Case("python", "raise $E($$$A)"),
    Case("python", "from $M import $N"),
    Case("python", "@$D", "@$D\ndef _(): pass", "decorator"),
    # Dart (the tree-sitter-dart package's files, examples/sample)
    Case("dart", "print($A);", "void _() { print($A); }", "expression_statement"),
    Case("dart", "$A.dispose();", "void _() { $A.dispose(); }", "expression_statement"),
    Case("dart", "$A = $B;", "void _() { $A = $B; }", "expression_statement"),
    Case("dart", "return $X;"),
    Case("dart", "final $A = $B;", "void _() { final $A = $B; }", "local_variable_declaration", with_run=True),
    Case("dart", "var $A = $B;", "void _() { var $A = $B; }", "local_variable_declaration", with_run=True),
    Case("dart", "@override"),
    Case("dart", "class $C { $$$ }"),
    # a Dart method is two siblings (signature, body): no selector names it, so ast-grep's
    # top-level functions must be among ours
    Case("dart", "void $F($$$P) { $$$B }", superset=True),
    # one match per node, and a run of children inside an unrelated
    # node is no match (`wordBits = 32` of `const wordBits = 32`, `int x` of `int x;`)
    Case("go", "$A = $E"),
    # ... and a declaration, a field or a parameter alike (the parameter rung)
    Case("c", "int $A", "struct _ { int $A; }", "field_declaration", with_run=True,
         also=(("void _(int $A);", "parameter_declaration"),)),
    Case("c", "#include $H"),
    Case("c", "#include <stdlib.h>"),
    # metavariables alone mean what the first rung reads: a local declaration, as in the CLI
    Case("java", "$A $B"),
    # a fragment cut from inside a construct is found there (the sub-construct
    # rungs), and a metavariable stands where the grammar wants a string (`from $M`)
    Case("typescript", "import { $$$A } from $M"),
    Case("typescript", "import $A from $M"),
    Case("javascript", "import { $$$A } from $M"),
    Case("python", "except $A as $B:\n    $$$C", "try:\n    pass\nexcept $A as $B:\n    $$$C", "except_clause"),
    Case("python", "except $A:\n    $$$C", "try:\n    pass\nexcept $A:\n    $$$C", "except_clause"),
    Case("java", "catch ($T $E) { $$$B }", "class _ { void _() { try {} catch ($T $E) { $$$B } } }", "catch_clause"),
    Case("java", "case $A -> $B;", "class _ { void _() { switch (_) { case $A -> $B; } } }", "switch_rule"),
    Case("rust", "$A => $B,", "fn _() { match _ { $A => $B, } }", "match_arm"),
    Case("rust", "$A: $B", "struct _ { $A: $B }", "field_declaration",
         also=(("fn _($A: $B) {}", "parameter"), ("fn _() { _ { $A: $B }; }", "field_initializer"))),
    Case("go", "case $A:", "func _() { switch _ { case $A: } }", "expression_case"),
    Case("c", "case $A:", "void _() { switch (_) { case $A: } }", "case_statement"),
    Case("java", "public static final"),
    Case("rust", "pub(crate)"),
    # a Dart string compares by its text (its contents are no node of their own)
    Case("dart", "import 'dart:io';"),
    Case("dart", "print('closed');", "void _() { print('closed'); }", "expression_statement"),
    # a qualified name is found in type positions too
    Case("go", "io.Reader", "var _ io.Reader", "qualified_type", with_run=True),
    Case("java", "Map.Entry", "class _ { Map.Entry _; }", "scoped_type_identifier", with_run=True),
    Case("rust", "fmt::Result", "type _ = fmt::Result;", "scoped_type_identifier", with_run=True),
]


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], tuple[Path, Searcher]]]:
    """language -> (a folder holding that language's sample files, a Searcher over it that keeps
    its trees between the cases)."""
    made: dict[str, tuple[Path, Searcher]] = {}

    def get(language: str) -> tuple[Path, Searcher]:
        if language not in made:
            files = FILES[language]()
            root = tmp_path_factory.mktemp(language)
            for i, path in enumerate(files):
                shutil.copyfile(path, root / f"{i:02d}_{path.name}")
            made[language] = (root, Searcher(root, ignore_parents=False))
        return made[language]

    yield get
    for _, searcher in made.values():
        searcher.close()


def _both(case: Case, searched: Callable[[str], tuple[Path, Searcher]]) -> tuple[list[Found], list[Found]]:
    root, searcher = searched(case.language)
    if case.selector is None:
        theirs = ast_grep_run(root, case.pattern, case.language)
    else:
        # a declaration minitools finds both at the top level (as `ast-grep run` parses the
        # pattern) and in a function (the context's reading): the reference is both
        assert case.context is not None
        theirs = ast_grep_selector(root, case.context, case.selector, case.language)
        more = [ast_grep_selector(root, context, selector, case.language) for context, selector in case.also]
        if case.with_run:
            more.append(ast_grep_run(root, case.pattern, case.language))
        union = {m[:3]: m for found in (theirs, *more) for m in found}
        theirs = sorted(union.values(), key=lambda t: (t[0], t[1], -t[2]))
    assert theirs, f"the sample has nothing for ast-grep to find with {case.pattern!r}: pick another pattern"
    return minitools_matches(root, case.pattern, case.language, searcher), theirs


def _params(cases: list[Case]) -> list[object]:
    return [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.known)] if c.known else [])
            for c in cases]


def _differences(ours: list[Found], theirs: list[Found], limit: int = 3) -> str:
    """The first few matches only one tool reports, and the first few whose captures differ."""
    mine = {m[:3]: m for m in ours}
    other = {m[:3]: m for m in theirs}
    lines = [f"minitools {len(ours)} matches, ast-grep {len(theirs)}"]
    lines += [f"only minitools: {m[:4]!r}" for m in ours if m[:3] not in other][:limit]
    lines += [f"only ast-grep:  {m[:4]!r}" for m in theirs if m[:3] not in mine][:limit]
    differ = [(mine[k], m) for k, m in other.items() if k in mine and mine[k] != m][:limit]
    lines += [f"at {b[:3]} {b[3][:60]!r}...\n  minitools captures {a[4]!r}\n  ast-grep captures  {b[4]!r}"
              for a, b in differ]
    return "\n".join(line[:900] for line in lines)


@pytest.mark.parametrize("case", _params(CASES))
def test_same_matches_and_captures_as_ast_grep(case: Case, searched: Callable[[str], tuple[Path, Searcher]]) -> None:
    ours, theirs = _both(case, searched)
    if case.superset:
        mine = {m[:3]: m for m in ours}
        assert [mine.get(m[:3]) for m in theirs] == theirs, _differences(ours, theirs)
    else:
        assert ours == theirs, _differences(ours, theirs)
