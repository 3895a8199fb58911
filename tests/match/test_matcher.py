"""Table-driven matcher tests: (language, pattern, source, expected match texts and captures)."""

from __future__ import annotations

import pytest

from minitools.match import PatternError, compile_pattern, find_matches

# (language, pattern, source, [(match text, {capture: text})])
CASES: list[tuple[str, str, str, list[tuple[str, dict[str, str]]]]] = [
    # the must-work cases, where a fragment needs a scaffold
    ("dart", "print($A)", "void main() { print('x'); var y = print(z); }",
     [("print('x')", {"A": "'x'"}), ("print(z)", {"A": "z"})]),
    ("dart", "if ($X != null) $X.dispose()",
     "void f() {\n  if (a != null) a.dispose();\n  if (b != null) a.dispose();\n}",
     [("if (a != null) a.dispose();", {"X": "a"})]),
    ("go", "fmt.Println($A)", 'package main\nfunc main() {\n\tfmt.Println("hi")\n\tfmt.Println(1, 2)\n}\n',
     [('fmt.Println("hi")', {"A": '"hi"'})]),
    ("c", "free($P)", "void f(char *p) { free(p); free(q->r); xfree(p); }",
     [("free(p)", {"P": "p"}), ("free(q->r)", {"P": "q->r"})]),
    # strings and comments: never a match inside them; comments in the target insignificant
    ("python", "foo($A)", 's = "foo(x)"\n# foo(y)\nfoo(  # note\n    z)\n', [("foo(  # note\n    z)", {"A": "z"})]),
    ("javascript", "foo($A)", "const s = 'foo(x)'; /* foo(y) */ foo(w);", [("foo(w)", {"A": "w"})]),
    ("java", "foo($A)", 'class C { void m() { String s = "foo(x)"; foo(y); } }', [("foo(y)", {"A": "y"})]),
    ("rust", "foo($A)", 'fn m() { let s = "foo(x)"; // foo(z)\n foo(y); }', [("foo(y)", {"A": "y"})]),
    # a string whose whole content is one metavariable takes any content, as in the CLI;
    # a metavariable elsewhere inside a string is literal text
    ("javascript", 'log("$A")', 'log("$A"); log("b"); log(c); log("");', [('log("$A")', {"A": "$A"}), ('log("b")', {"A": "b"})]),
    ("javascript", "log('$$$S')", "log('a b'); log(''); log(x);", [("log('a b')", {"S": "a b"}), ("log('')", {"S": ""})]),
    ("python", 'f("id: $A")', 'f("id: $A")\nf("id: 7")\n', [('f("id: $A")', {})]),
    # leaves compare by exact text
    ("python", "f('x')", "f('x')\nf(\"x\")\n", [("f('x')", {})]),
    ("typescript", "let $A: number = 1", "let a: number = 1; let b: string = 1; let c: number = 1.0;",
     [("let a: number = 1;", {"A": "a"})]),
    # repeated metavariables: whitespace insignificant, parentheses not
    ("python", "f($X, $X)", "f(a+b, a + b)\nf(a, (a))\nf(c, d)\n", [("f(a+b, a + b)", {"X": "a+b"})]),
    ("go", "$A == $A", "package p\nfunc f() bool { return x == x || x == y }\n", [("x == x", {"A": "x"})]),
    # $_ binds nothing and never constrains equality
    ("javascript", "f($_, $_)", "f(1, 2); f(3);", [("f(1, 2)", {})]),
    # $$$ backtracks: these find nothing in the ast-grep CLI
    ("javascript", "foo($$$A, $B)", "foo(1, 2, 3);", [("foo(1, 2, 3)", {"A": "1, 2", "B": "3"})]),
    ("javascript", "bar($$$A, $X, $X)", "bar(1, 2, 2); bar(1, 2);", [("bar(1, 2, 2)", {"A": "1", "X": "2"})]),
    ("javascript", "foo($$$ARGS)", "foo(); foo(1, 2);", [("foo()", {"ARGS": ""}), ("foo(1, 2)", {"ARGS": "1, 2"})]),
    # an empty sequence needs no separator after it (as in the CLI); the one before is written
    ("javascript", "foo($$$A, b)", "foo(b); foo(a, b);", [("foo(b)", {"A": ""}), ("foo(a, b)", {"A": "a"})]),
    ("javascript", "foo($$$A, b)", "foo(/* c */ b);", [("foo(/* c */ b)", {"A": "/* c */"})]),
    ("javascript", "foo(a, $$$B)", "foo(a); foo(a, b);", [("foo(a, b)", {"B": "b"})]),
    ("python", "lambda $$$A: $B", "f = lambda u, v: 2\n", [("lambda u, v: 2", {"A": "u, v", "B": "2"})]),
    # nested matches, outer first
    ("python", "f($A)", "f(f(f(1)))\n", [("f(f(f(1)))", {"A": "f(f(1))"}), ("f(f(1))", {"A": "f(1)"}), ("f(1)", {"A": "1"})]),
    ("typescript", "g($A)", "g(g(x));", [("g(g(x))", {"A": "g(x)"}), ("g(x)", {"A": "x"})]),
    # extra trailing children of the target are ignored: an if with an else still matches
    ("javascript", "if ($C) { $$$ }", "if (a) { b(); } else { c(); }", [("if (a) { b(); } else { c(); }", {"C": "a"})]),
    ("python", "if $X is None: $$$B", "if a is None:\n    x = 1\n", [("if a is None:\n    x = 1", {"X": "a", "B": "x = 1"})]),
    # a statement pattern (with its `;`) matches statements only
    ("javascript", "foo($A);", "foo(1); bar(foo(2));", [("foo(1);", {"A": "1"})]),
    ("c", "return $X;", "int f(void) { return 0; }", [("return 0;", {"X": "0"})]),
    ("java", "System.out.println($A)", "class C { void m() { System.out.println(1); } }", [("System.out.println(1)", {"A": "1"})]),
    ("rust", "$A.unwrap()", "fn m() { let v = x.unwrap(); y.expect(\"e\"); }", [("x.unwrap()", {"A": "x"})]),
    # a token the pattern leaves out is a difference where the pattern expects a metavariable
    # or a sub-construct (docs/tools.md, "How a pattern matches")
    ("typescript", "() => true", "const a = async () => true;\nconst b = () => true;", [("() => true", {})]),
    ("typescript", "cb(1)", "cb?.(1);\ncb(1);", [("cb(1)", {})]),
    ("javascript", "foo.bar($A)", "foo?.bar(1); foo.bar(2);", [("foo.bar(2)", {"A": "2"})]),
    ("go", "var $A $B", "package p\nvar x = g()\nvar y int\n", [("var y int", {"A": "y", "B": "int"})]),
    ("go", "type $A struct { $B $C }", "package p\ntype T struct {\n\ta, b int\n}\ntype U struct {\n\tc string\n}\n",
     [("type U struct {\n\tc string\n}", {"A": "U", "B": "c", "C": "string"})]),
    ("python", "lambda: $A", "f = lambda x: 1\ng = lambda: 2\n", [("lambda: 2", {"A": "2"})]),
    # ... and may be skipped only where the pattern expects another token of that node
    ("typescript", "function $A() {}", "async function f() {}\nfunction g() {}", [("async function f() {}", {"A": "f"}), ("function g() {}", {"A": "g"})]),
    ("java", "class $C { private final $T $F = $V; }",
     'class S { private static final String B = "x"; }\nclass R { final private int d = 2; }',
     [('class S { private static final String B = "x"; }', {"C": "S", "T": "String", "F": "B", "V": '"x"'})]),
    ("javascript", "foo($A, $B)", "foo(a, b,);", [("foo(a, b,)", {"A": "a", "B": "b"})]),
    # comments are formatting: skipped wherever they sit, kept in the match's text
    ("python", "if $A in $B:\n    continue",
     "for x in y:\n    if a in b:\n        # note\n        continue\n    if c in d:\n        x()\n        continue\n",
     [("if a in b:\n        # note\n        continue", {"A": "a", "B": "b"})]),
    ("javascript", "foo(g(1))", "foo(/* c */ g(1)); foo(g(/* c */ 1));", [("foo(/* c */ g(1))", {}), ("foo(g(/* c */ 1))", {})]),
    # a `$$$` capture is the source from its first to its last node, comments included
    ("python", "foo($$$ARGS)", "foo(a, # note\n b)\nfoo(  # lead\n    z)\nfoo(z  # trail\n)\n",
     [("foo(a, # note\n b)", {"ARGS": "a, # note\n b"}), ("foo(  # lead\n    z)", {"ARGS": "# lead\n    z"}),
      ("foo(z  # trail\n)", {"ARGS": "z  # trail"})]),
    ("python", "foo($A, $$$REST)", "foo(a, # note\n b)\n", [("foo(a, # note\n b)", {"A": "a", "REST": "# note\n b"})]),
    # a run of statements matches anywhere: at the top of a file or in any block, in every language
    ("python", "x = 1; y = 2", "a = 0\nx = 1\ny = 2\ndef f():\n    x = 1; y = 2\n    z = 3\n",
     [("x = 1\ny = 2", {}), ("x = 1; y = 2", {})]),
    ("python", "x = 1\ny = $A", "a = 0\nx = 1\ny = 2\ndef f():\n    x = 1\n    # between\n    y = 3\n",
     [("x = 1\ny = 2", {"A": "2"}), ("x = 1\n    # between\n    y = 3", {"A": "3"})]),
    ("javascript", "x = 1; y = $A;", "let a = 0;\nx = 1; y = 2;\nfunction f() { x = 1; y = 3; }\n",
     [("x = 1; y = 2;", {"A": "2"}), ("x = 1; y = 3;", {"A": "3"})]),
    ("typescript", "const $A = 1;\nconst $B = 2;", "let z = 0;\nconst a = 1;\nconst b = 2;\n", [("const a = 1;\nconst b = 2;", {"A": "a", "B": "b"})]),
    ("go", "foo($A);", "package p\nfunc f() {\n\tfoo(1)\n\tfoo(2); bar()\n}\n", [("foo(1)", {"A": "1"}), ("foo(2);", {"A": "2"})]),
    ("go", "foo($A)\nbar()", "package p\nfunc f() {\n\tfoo(1)\n\tfoo(2); bar()\n}\n", [("foo(2); bar()", {"A": "2"})]),
    ("c", "a(); b($X);", "void f(void) { z(); a(); b(1); }", [("a(); b(1);", {"X": "1"})]),
    ("java", "a(); b($X);", "class C { void m() { z(); a(); b(1); } }", [("a(); b(1);", {"X": "1"})]),
    ("rust", "a(); b($X);", "fn m() { z(); a(); b(1); }", [("a(); b(1);", {"X": "1"})]),
    ("kotlin", "a()\nb($X)", "fun m() {\n  z()\n  a()\n  b(1)\n}\n", [("a()\n  b(1)", {"X": "1"})]),
    ("csharp", "a(); b($X);", "class C { void M() { z(); a(); b(1); } }", [("a(); b(1);", {"X": "1"})]),
    # Dart writes a postfix chain as siblings: a single metavariable captures all of it
    ("dart", "$A == $B", "void f() { if (t.id == id) {} }", [("t.id == id", {"A": "t.id", "B": "id"})]),
    ("dart", "return $A;", "String g() { return jsonEncode(x); }", [("return jsonEncode(x);", {"A": "jsonEncode(x)"})]),
    ("dart", "$A.dispose()", "void f() { a.b.dispose(); }", [("a.b.dispose()", {"A": "a.b"})]),
    ("dart", "$A == $A", "void f() { if (a.b == a.b) {} if (a.b == a.c) {} }", [("a.b == a.b", {"A": "a.b"})]),
    # one match per node, and no run of children inside an unrelated node
    ("c", "#include <signal.h>", "#include <stdio.h>\n#include <signal.h>\nint x;\n", [("#include <signal.h>\n", {})]),
    ("c", "int $A", "int f(void) { int a; int b = 2; return 0; }\nint g;\n",
     [("int a;", {"A": "a"}), ("int b = 2;", {"A": "b = 2"}), ("int g;", {"A": "g"})]),
    ("go", "$A = $E", "package p\nconst wordBits = 32\nfunc f() { var d time.Duration = 0; x = 1 }\n", [("x = 1", {"A": "x", "E": "1"})]),
    ("java", "$A $B", "class C { int f; void m(T t) { int x; a.b c; g(h); } }",
     [("int x;", {"A": "int", "B": "x"}), ("a.b c;", {"A": "a.b", "B": "c"})]),
    # strings compare by their text, in Dart too, where the contents are no node
    ("dart", "print('zzz')", "void main() { print('a'); print('zzz'); }", [("print('zzz')", {})]),
    ("dart", "import 'dart:collection';", "import 'dart:async';\nimport 'dart:collection';\n",
     [("import 'dart:collection';", {})]),
    # a qualified name is a type too; a Dart type's arguments and `?` belong to it
    ("go", "unsafe.Pointer", "package p\nfunc f(p unsafe.Pointer) { g(unsafe.Pointer(p)) }\n", [("unsafe.Pointer", {}), ("unsafe.Pointer", {})]),
    ("java", "Map.Entry", "class A { Map.Entry e; Object o = Map.Entry; }", [("Map.Entry", {}), ("Map.Entry", {})]),
    ("rust", "io::Result", "fn f() -> io::Result<()> { io::Result::Ok(()) }", [("io::Result", {}), ("io::Result", {})]),
    ("dart", "void $A($B $C)", "void f(Iterable<E> x) {}\nvoid g(List<int>? y) {}\n",
     [("void f(Iterable<E> x)", {"A": "f", "B": "Iterable<E>", "C": "x"}), ("void g(List<int>? y)", {"A": "g", "B": "List<int>?", "C": "y"})]),
    # a run of siblings starts at its first node, not at the comments before it, and a file's
    # last `;` ends its last statement (a file has no closing token)
    ("dart", "$T $X = $V;", "/// doc\n/// more\nvar lines = 0;\n", [("var lines = 0;", {"T": "var", "X": "lines", "V": "0"})]),
    ("dart", "$T $X = $V;", "var a = 0;\nvar b = 1;\n", [("var a = 0;", {"T": "var", "X": "a", "V": "0"}), ("var b = 1;", {"T": "var", "X": "b", "V": "1"})]),
    # a declaration written without its `;` is the declaration (as the CLI reads it), here
    # beside the parameter the same text is
    ("csharp", "using System.Text", "using System.Text;\nusing System.IO;\n", [("using System.Text;", {})]),
    ("cpp", "std::vector<$T>::iterator $I = $C.begin()",
     "void f(std::vector<int> &v, std::vector<int>::iterator p = v.begin()) {\n"
     "  for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) {}\n}\n",
     [("std::vector<int>::iterator p = v.begin()", {"T": "int", "I": "p", "C": "v"}),
      ("std::vector<int>::iterator it = v.begin();", {"T": "int", "I": "it", "C": "v"})]),
]


def _ids() -> list[str]:
    return [f"{c[0]}:{c[1]}" for c in CASES]


@pytest.mark.parametrize(("language", "pattern", "source", "expected"), CASES, ids=_ids())
def test_match_table(language: str, pattern: str, source: str, expected: list[tuple[str, dict[str, str]]]) -> None:
    compiled = compile_pattern(pattern, language)
    found = find_matches(compiled, source.encode("utf-8"))
    got = [(m.text, {k: v.text for k, v in m.metavars.items()}) for m in found]
    assert got == expected, f"pattern tree: {compiled.nodes}"


def test_unicode_columns_are_code_points_and_lines_one_based() -> None:
    src = 'x = "héllo😀"; foo(y)\n  foo(é)\n'
    found = find_matches(compile_pattern("foo($A)", "python"), src.encode("utf-8"))
    assert [(m.start, m.end) for m in found] == [((1, 15), (1, 21)), ((2, 3), (2, 9))]
    assert found[0].start_byte == len('x = "héllo😀"; '.encode())
    assert found[1].metavars["A"].start == (2, 7)


def test_crlf_sources_match_with_the_same_lines() -> None:
    src = b"a = 1\r\nif a is None:\r\n    foo(a)\r\n"
    found = find_matches(compile_pattern("foo($A)", "python"), src)
    assert [(m.text, m.start, m.end) for m in found] == [("foo(a)", (3, 5), (3, 11))]


def test_empty_sequence_capture_is_empty_at_a_position() -> None:
    (m,) = find_matches(compile_pattern("foo($$$A)", "javascript"), b"foo();")
    cap = m.metavars["A"]
    assert cap.text == "" and cap.start_byte == cap.end_byte
    assert m.multi["A"] == []


def test_multi_lists_each_node_of_the_sequence() -> None:
    (m,) = find_matches(compile_pattern("foo($$$A)", "javascript"), b"foo(1, 2)")
    assert [c.text for c in m.multi["A"]] == ["1", ",", "2"]
    assert m.metavars["A"].text == "1, 2"


@pytest.mark.parametrize(
    ("language", "pattern", "rung"),
    [
        ("dart", "print($A)", "statement"),
        ("dart", "$A == $A", "statement"),
        ("javascript", "get $P() { return 1; }", "class member"),
        ("dart", "void dispose() {}", "statement"),
        ("python", "def $F(self): $$$B", "statement"),
        ("c", "free($P)", "statement"),
        ("go", "fmt.Println($A)", "statement"),
        ("java", "public int $M() { return 0; }", "class member"),
        ("javascript", "foo($A)", "statement"),
        ("rust", "fn $F() { $$$ }", "statement"),
    ],
)
def test_ladder_rung_choice(language: str, pattern: str, rung: str) -> None:
    compiled = compile_pattern(pattern, language)
    assert compiled.rung == rung, compiled.nodes


def test_metavar_names_exclude_wildcards() -> None:
    assert compile_pattern("f($A, $_, $$$REST, $_X, $$$)", "javascript").metavar_names == frozenset({"A", "REST"})


@pytest.mark.parametrize(
    ("language", "pattern"),
    [("dart", "dispose(x"), ("python", "def ("), ("javascript", "foo(("), ("go", "func {"), ("c", "free("),
     ("java", "return $A, nil")],  # (no field of a type named `return` with its `;` left out)
)
def test_unparseable_patterns_name_the_rungs(language: str, pattern: str) -> None:
    with pytest.raises(PatternError) as info:
        compile_pattern(pattern, language)
    message = str(info.value)
    assert f'pattern "{pattern}" is unparseable as {language}: tried statement' in message


def test_dart_unparseable_message_exact() -> None:
    tried = "statement, expression, class member, annotation, declaration"
    with pytest.raises(PatternError, match=rf'^pattern "dispose\(x" is unparseable as dart: tried {tried}$'):
        compile_pattern("dispose(x", "dart")


def test_empty_pattern_is_an_error() -> None:
    with pytest.raises(PatternError):
        compile_pattern("  ", "python")


def test_a_terminator_after_a_sequence_stands_for_a_line_break() -> None:
    # Bash `$$$B; fi`: the `;` is where the target breaks the line instead
    from minitools.match import compile_pattern, find_matches

    source = b"if [ -f x ]; then\n  rm x\n  rm y\nfi\nif true; then echo a; fi\n"
    found = find_matches(compile_pattern("if $C; then $$$B; fi", "bash"), source)
    assert [m.text.splitlines()[0] for m in found] == ["if [ -f x ]; then", "if true; then echo a; fi"]
