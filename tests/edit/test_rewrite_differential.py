"""ast_edit + resolve against `ast-grep run --pattern P --rewrite R --update-all` on copies of the
same files, for rewrites where the two agree (docs/reference.md, "Rewrite": spaces, bound metavariables)."""

from __future__ import annotations

import subprocess

import pytest

from minitools import Run
from reference_tools import ast_grep_cli

SOURCES = {
    "python": ("m.py", "def f(a, b):\n    print(a)\n    if a is None:\n        print(a,\n              b)\n    return foo(foo(a), b)\n"),
    "javascript": ("m.js", "function g(x) {\n  console.log(x, 1);\n  if (x) {\n    console.log(\n      x);\n  }\n  return foo(foo(x), 2);\n}\n"),
    "rust": ("m.rs", "fn main() {\n    let v = parse(s).unwrap();\n    let w = parse(parse(t).unwrap()).unwrap();\n}\n"),
    "go": ("m.go", "package main\n\nfunc main() {\n    fmt.Println(\"a\", b)\n    x := foo(foo(1), 2)\n}\n"),
}
CASES = [
    ("python", "print($$$A)", "log($$$A)"),
    ("python", "foo($A, $B)", "bar($B, $A)"),
    ("python", "if $X is None: $$$B", "if $X is not None: $$$B"),
    ("javascript", "console.log($$$A)", "logger.info($$$A)"),
    ("javascript", "foo($A, $B)", "foo($B, $A)"),
    ("rust", "$A.unwrap()", "$A?"),
    ("go", "foo($A, $B)", "bar($A)"),
]




@pytest.mark.parametrize(("language", "pattern", "rewrite"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
async def test_same_files_as_ast_grep_rewrite(tmp_path, language, pattern, rewrite):
    name, text = SOURCES[language]
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    for d in (theirs, ours):
        d.mkdir()
        (d / name).write_text(text)
    subprocess.run([ast_grep_cli(), "run", "--pattern", pattern, "--rewrite", rewrite, "--lang", language,
                    "--update-all", str(theirs)], check=True, capture_output=True, timeout=60)
    async with Run(ours, approve=lambda s, a: True, resources={"lsp": False}) as run:
        proposed = await run.call("ast_edit", {"pattern": pattern, "rewrite": rewrite, "language": language})
        assert proposed.ok, proposed.text
        assert proposed.data["edit_id"], f"no match for {pattern!r}"
        assert (await run.call("resolve", {"edit_id": proposed.data["edit_id"], "action": "accept"})).ok
    assert (ours / name).read_text() == (theirs / name).read_text()
