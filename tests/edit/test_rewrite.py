"""Rewrite templates: substitution, re-indentation (spaces and tabs), CRLF, `$$$` with
separators, unicode, overlap (the outer edit wins)."""

from __future__ import annotations

import pytest

from minitools.match import compile_pattern, find_matches
from minitools.match._rewrite import Template, TemplateError, apply_edits, plan_edits


def rewrite(language: str, pattern: str, template: str, source: str) -> tuple[str, int]:
    compiled = compile_pattern(pattern, language)
    data = source.encode("utf-8")
    edits, inner = plan_edits(Template.parse(template), find_matches(compiled, data), data)
    return apply_edits(data, edits).decode("utf-8"), inner


CASES = [
    ("python", "print($$$A)", "log.info($$$A)",
     "def f():\n    print('a',\n          'b')\n    print()\n",
     "def f():\n    log.info('a',\n          'b')\n    log.info()\n"),
    ("python", "if $C: $$$B", "while $C:\n    $$$B\n    break",
     "def f():\n    if ok:\n        step()\n        other()\n",
     "def f():\n    while ok:\n        step()\n        other()\n        break\n"),
    ("python", "if $C: $$$B", "while $C:\n\t$$$B\n\tbreak",
     "def f():\n\tif ok:\n\t\tstep()\n\t\tother()\n",
     "def f():\n\twhile ok:\n\t\tstep()\n\t\tother()\n\t\tbreak\n"),
    ("python", "foo($A, $B)", "foo($B, $A)",
     "x = foo('é😀', b)  # foo(1, 2)\ny = 'foo(1, 2)'\n",
     "x = foo(b, 'é😀')  # foo(1, 2)\ny = 'foo(1, 2)'\n"),
    ("javascript", "console.log($$$ARGS)", "logger.debug($$$ARGS)",
     "function f() {\n  console.log(a, b,\n    c);\n}\n",
     "function f() {\n  logger.debug(a, b,\n    c);\n}\n"),
    ("javascript", "foo($$$A, $B)", "bar($B, $$$A)",
     "foo(1, 2, 3);\n", "bar(3, 1, 2);\n"),
    ("dart", "dispose($X)", "$X.dispose()",
     "void main() {\n  dispose(controller);\n  var y = dispose(other);\n}\n",
     "void main() {\n  controller.dispose();\n  var y = other.dispose();\n}\n"),
    ("rust", "$A.unwrap()", "$A.expect(\"checked\")",
     "fn main() {\n    let v = parse(s).unwrap();\n}\n",
     "fn main() {\n    let v = parse(s).expect(\"checked\");\n}\n"),
    ("go", "if $C { $$$B }", "for $C {\n\t$$$B\n}",
     "package main\n\nfunc main() {\n\tif ok {\n\t\tstep()\n\t\tother()\n\t}\n}\n",
     "package main\n\nfunc main() {\n\tfor ok {\n\t\tstep()\n\t\tother()\n\t}\n}\n"),
    # a rewrite never loses source text that was inside the match: comments in a `$$$`
    # capture (before, among and after its items) are carried over
    ("python", "foo($$$ARGS)", "bar($$$ARGS)",
     "foo(a, # note\n b)\nfoo(  # lead\n    z)\nfoo(z  # trail\n)\n",
     "bar(a, # note\n b)\nbar(# lead\n    z)\nbar(z  # trail\n)\n"),
    ("python", "foo($$$ARGS)", "bar($$$ARGS)",
     "if x:\n    foo(a,  # t\n        b  # u\n    )\n",
     "if x:\n    bar(a,  # t\n        b  # u\n    )\n"),
    ("javascript", "f($$$A)", "g($$$A)",
     "f(/* first */ 1, 2 /* last */);\n", "g(/* first */ 1, 2 /* last */);\n"),
    ("javascript", "f($$$A)", "g($$$A)",
     "f(1, // one\n  2 // two\n);\n", "g(1, // one\n  2 // two\n);\n"),
    ("go", "fmt.Println($$$A)", "log.Println($$$A)",
     "package main\n\nfunc main() {\n\tfmt.Println(\"a\",\n\t\t\"b\")\n}\n",
     "package main\n\nfunc main() {\n\tlog.Println(\"a\",\n\t\t\"b\")\n}\n"),
]


@pytest.mark.parametrize(("language", "pattern", "template", "source", "expected"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_rewrite_table(language, pattern, template, source, expected):
    got, _ = rewrite(language, pattern, template, source)
    assert got == expected


def test_crlf_files_stay_crlf():
    source = "def f():\r\n    if ok:\r\n        step()\r\n"
    got, _ = rewrite("python", "if $C: $$$B", "while $C:\n    $$$B\n    break", source)
    assert got == "def f():\r\n    while ok:\r\n        step()\r\n        break\r\n"
    assert "\n" not in got.replace("\r\n", "")


def test_overlapping_matches_outer_wins_inner_counted():
    got, inner = rewrite("python", "foo($A)", "bar($A)", "foo(foo(foo(1)))\n")
    assert got == "bar(foo(foo(1)))\n"
    assert inner == 2


def test_unbound_template_metavariable_is_named():
    pattern = compile_pattern("print($A)", "python")
    template = Template.parse("log($A, $LEVEL, $$$REST)")
    assert template.names == {"A", "LEVEL", "REST"}
    with pytest.raises(TemplateError, match=r'uses \$LEVEL, \$REST, which the pattern "print\(\$A\)" does not bind \(it binds \$A\)'):
        template.check_bound(pattern.metavar_names, pattern.source)


def test_dollar_text_that_is_not_a_metavariable_is_literal():
    got, _ = rewrite("javascript", "cost($A)", "price($A, '$usd')", "cost(1);\n")
    assert got == "price(1, '$usd');\n"
