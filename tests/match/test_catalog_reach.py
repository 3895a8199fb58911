"""What the language catalog reaches: every file name ast-grep 0.51.1 reads as a language is read
as the same language here (issue: folders of .sol, .tf, .hcl were not searched at all), and a
search in a language that meets no file of it says so instead of a silent zero."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from minitools.match import language_for_path
from reference_tools import ast_grep_cli

# suffixes ast-grep 0.51.1 reads (its language list), a file each
SUFFIXES = (
    "bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh", "c", "h", "cc",
    "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino", "cs", "css", "scss", "ex", "exs", "go", "hs", "hcl", "tf",
    "tfvars", "html", "htm", "xhtml", "java", "cjs", "js", "mjs", "jsx", "json", "kt", "ktm", "kts", "lua",
    "md", "nix", "php", "py", "py3", "pyi", "bzl", "rb", "rbw", "gemspec", "rs", "scala", "sc", "sbt", "sol",
    "swift", "ts", "cts", "mts", "tsx", "yml", "yaml", "dart", "zig",
)


def test_every_suffix_ast_grep_reads_is_read_as_the_same_language(tmp_path: Path) -> None:
    for suffix in SUFFIXES:
        (tmp_path / f"f.{suffix}").write_text("x\n")
    run = subprocess.run([ast_grep_cli(), "run", "-p", "x", "--json=stream", "."], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    theirs = {json.loads(line)["file"]: json.loads(line)["language"].lower() for line in run.stdout.splitlines()}
    assert len(theirs) >= 60, run.stderr  # the CLI read (nearly) every file: the table is meaningful
    differ = {f: (lang, language_for_path(f)) for f, lang in theirs.items()
              if language_for_path(f) != {"tsx": "tsx", "csharp": "csharp", "cpp": "cpp"}.get(lang, lang)}
    assert not differ, f"ast-grep's language vs ours: {differ}"


def _minitools(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_solidity_and_terraform_folders_are_searched(tmp_path: Path) -> None:
    (tmp_path / "Token.sol").write_text("contract Token {\n  function f() public { emit Sent(1); }\n}\n")
    (tmp_path / "main.tf").write_text('variable "region" {\n  default = "eu"\n}\n')
    sol = _minitools("ast-grep", "emit $E($$$A);", "--lang", "solidity", ".", cwd=tmp_path)
    assert sol.returncode == 0 and "Token.sol:2:" in sol.stdout, sol.stdout + sol.stderr
    tf = _minitools("ast-grep", 'variable "region" { default = "eu" }', "--lang", "hcl", ".", cwd=tmp_path)
    assert tf.returncode == 0 and "main.tf:1:" in tf.stdout, tf.stdout + tf.stderr


def test_a_language_with_no_file_in_the_path_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("foo(1)\n")
    cli = _minitools("ast-grep", "foo($A)", "--lang", "go", ".", cwd=tmp_path)
    assert cli.returncode == 1 and cli.stdout == ""
    assert "no go file (.go) is under ." in cli.stderr
    tool = _minitools("call", "ast_grep", json.dumps({"pattern": "foo($A)", "language": "go", "path": "."}),
                      "--root", str(tmp_path), cwd=tmp_path)
    assert "No go file (.go) is under ." in tool.stdout, tool.stdout + tool.stderr
    found = _minitools("call", "ast_grep", json.dumps({"pattern": "foo($A)", "language": "python", "path": "."}),
                       "--root", str(tmp_path), cwd=tmp_path)
    assert "1 match" in found.stdout and "No python file" not in found.stdout


def test_a_literal_underscore_stays_where_dollar_is_written_as_one(tmp_path: Path) -> None:
    """CSS and Nix write a pattern's `$A` as `_A` to parse it; the `_` of `my_class` is the user's."""
    (tmp_path / "s.css").write_text(".my_class { color: red; }\n.other { color: blue; }\n")
    (tmp_path / "d.nix").write_text("{ pkgs, ... }:\n{\n  add_modifier = x: x + 1;\n}\n")
    for pattern, language, expected in ((".my_class { $$$ }", "css", ["s.css:1:1"]),
                                        (".$A { $$$ }", "css", ["s.css:1:1", "s.css:2:1"]),
                                        ("add_modifier = $X;", "nix", ["d.nix:3:3"])):
        run = _minitools("ast-grep", pattern, "--lang", language, ".", cwd=tmp_path)
        assert [":".join(line.split(":")[:3]) for line in run.stdout.splitlines()] == expected, (pattern, run.stdout, run.stderr)


# (language, file, source, pattern, where minitools matches: "line:column" of each match). The
# fragments are one node of the language that reads as no whole file: each had no rung and was
# refused (`is unparseable`) or found nothing; where ast-grep finds the same the test says so.
FRAGMENTS = [
    ("css", "s.css", ".a { color: red; }\n.b { color: blue; }\n", "color: $C", ["1:6", "2:6"], False),
    ("nix", "d.nix", "{ pkgs, ... }:\n{\n  foo = pkgs.hello;\n}\n", "$A = pkgs.$B", ["3:3"], False),
    ("nix", "d.nix", "{ pkgs, ... }:\n{\n  foo = pkgs.hello;\n}\n", "{ $A, ... }", ["1:1"], True),
    ("lua", "m.lua", "function M.new(self)\n  self:init()\nend\nlocal x = M.new\n", "$A.$B", ["1:10", "4:11"], True),
    ("lua", "m.lua", "local t = {a = 1}\n", "a = $V", ["1:12"], False),
    ("solidity", "T.sol", "contract T {\n  function f(uint a) public { require(a > 0, \"no\"); emit Sent(a); }\n}\n",
     "require($C, $M)", ["2:31"], False),
    ("solidity", "T.sol", "contract T {\n  function f(uint a) public { require(a > 0, \"no\"); emit Sent(a); }\n}\n",
     "emit $E($$$A);", ["2:53"], False),
    ("hcl", "main.tf", 'variable "r" {\n  default = "eu"\n}\n', "default = $D", ["2:3"], False),
    ("hcl", "main.tf", "x = var.name\n", "var.$N", ["1:5"], False),
    ("scala", "a.scala", 'object A {\n  val r = new Runnable { def run(): Unit = println("x") }\n}\n',
     "new $T { $$$ }", ["2:11"], True),
    ("swift", "a.swift", "@objc func f() {}\n", "@$A", ["1:1"], True),
    ("csharp", "a.cs", "class A { int L => s.Length; }\n", "=> $A.Length", ["1:17"], False),
    ("html", "a.html", '<div class="a"><p>hi</p></div>\n<span class="b">x</span>\n', '<$A class="$B">$$$</$A>',
     ["1:1", "2:1"], True),
    ("ruby", "a.rb", "puts \"x\"\nputs 'x'\n", 'puts "x"', ["1:1", "2:1"], True),
    ("bash", "a.sh", 'echo "$HOME"\necho "${X}"\necho plain\n', 'echo "$A"', ["1:1", "2:1"], True),
    # a modifier keyword alone is the modifier (found nothing)
    ("kotlin", "a.kt", "class A {\n    protected open fun f() {}\n}\n", "protected", ["2:5"], True),
    ("php", "a.php", "<?php\nclass A {\n    public function f() { return 1; }\n}\n", "public", ["3:5"], True),
    # a PHP fragment is never inline HTML: a block of one statement (found nothing)
    ("php", "b.php", "<?php\nif ($x) {\n    $y = 2;\n}\n", "{ $A }", ["2:9"], True),
    # a bare CSS word is also a class or pseudo-class name (found nothing)
    ("css", "a.css", ".btn-check:focus { color: red; }\n", "focus", ["1:12"], True),
    # text a node holds in none of its tokens is compared (the CLI finds every block scalar, every string)
    ("yaml", "a.yml", "a: |\n  hello\nb: |\n  other\n", "|\n  hello", ["1:4"], False),
    ("solidity", "I.sol", 'import {A} from "./a.sol";\nimport {B} from "./b.sol";\n', 'import {$A} from "./a.sol";',
     ["1:1"], False),
    # a slot: the metavariable written as the grammar wants it there (a JSON string, a Ruby constant)
    ("json", "a.json", '{"a": 1, "b": [2]}\n', "$A: $B", ["1:2", "1:10"], True),
    ("ruby", "a.rb", "module Foo\n  X = 1\nend\nclass Bar < Foo\nend\n", "module $A\n  $$$\nend", ["1:1"], True),
    ("ruby", "a.rb", "module Foo\n  X = 1\nend\nclass Bar < Foo\nend\n", "class $A < $B\n  $$$\nend", ["4:1"], False),
    ("swift", "a.swift", "switch x {\ncase 1: f()\ndefault: g()\n}\n", "switch $X { $$$ }", ["1:1"], False),
    ("haskell", "a.hs", "f x = case x of\n  1 -> 2\n  _ -> 3\n", "case $X of $$$", ["1:7"], True),
    ("lua", "m.lua", "self:init()\nlocal y = a.b\n", "self:$A", ["1:1"], True),
    # a destructor's declarator (the expression reading found only `~f()`, the bitwise not of a call)
    ("cpp", "a.cc", "class A {\n  ~A();\n};\nA::~A() {}\n", "~$A()", ["2:3"], True),
    ("cpp", "a.cc", "template <typename T>\nT f(T t) { return t; }\n", "template <typename $T>", ["1:1"], True),
    # `((i++))` is a test command to the grammar, `((a == 1))` an arithmetic expansion
    ("bash", "a.sh", "((i++))\n((a == 1))\n", "(($A))", ["1:1", "2:1"], True),
]


def test_one_node_fragments_have_rungs(tmp_path: Path) -> None:
    from reference_tools import ast_grep_run

    for language, name, source, pattern, expected, ast_grep_agrees in FRAGMENTS:
        (tmp_path / name).write_text(source)
        run = _minitools("ast-grep", pattern, "--lang", language, name, cwd=tmp_path)
        found = [":".join(line.split(":")[1:3]) for line in run.stdout.splitlines()]
        assert found == expected, (language, pattern, run.stdout, run.stderr)
        if ast_grep_agrees:
            theirs = ast_grep_run(tmp_path, pattern, language)
            starts = [source.encode()[: f[1]].count(b"\n") + 1 for f in theirs]
            assert starts == [int(e.split(":")[0]) for e in expected], (language, pattern, theirs)
        (tmp_path / name).unlink()


PHP_PATTERNS = [
    "$this->$M($$$)", "$this->load($A)", "return $X;", "throw new $E($M);", "if ($C) { $$$ }",
    "foreach ($A as $K => $V) { $$$ }", "use $N;", "$A + $B", "$A === null", "new $C($$$A)",
]


def test_php_patterns_find_what_ast_grep_finds(tmp_path: Path) -> None:
    """The pack's PHP grammar reads text without `<?php` as inline HTML: every pattern found
    nothing. Each rung now opens PHP first; the matches equal the CLI's, extent and captures."""
    from reference_tools import ast_grep_run, minitools_matches

    (tmp_path / "user_model.php").write_bytes((Path(__file__).parent / "data" / "user_model.php").read_bytes())
    for pattern in PHP_PATTERNS:
        ours = minitools_matches(tmp_path, pattern, "php")
        assert ours, pattern
        assert ours == ast_grep_run(tmp_path, pattern, "php"), pattern


def test_kotlin_headers_end_before_the_comments_after_them(tmp_path: Path) -> None:
    """The pack's Kotlin grammar takes the comments after a package or import header into it:
    `package a.b` matched to the end of the comment below it. Matches equal the CLI's, extents too."""
    from reference_tools import ast_grep_run, minitools_matches

    (tmp_path / "p.kt").write_text("package a.b\n\n// note\nimport x.y\n\n/** doc */\nclass A\n")
    for pattern in ("package a.b", "import x.y", "package $A"):
        ours = minitools_matches(tmp_path, pattern, "kotlin")
        assert ours and ours == ast_grep_run(tmp_path, pattern, "kotlin"), pattern
