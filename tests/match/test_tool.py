"""The ast_grep tool through a real Run, and the `ast-grep` / `grammars` CLI subcommands."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from minitools import Run
from minitools.commands import ast_grep as ast_grep_cmd
from minitools.commands import grammars as grammars_cmd
from minitools.match import Searcher
from minitools.toolspec import Tier


@pytest.fixture
def sample(tmp_path: Path, repo_root: Path) -> Path:
    dest = tmp_path / "sample"
    shutil.copytree(repo_root / "examples" / "sample", dest)
    return dest


async def test_tool_finds_the_guard_that_disposes_what_it_checked(sample: Path) -> None:
    async with Run(sample) as run:
        spec = next(s for s in run.tools("plan") if s.name == "ast_grep")
        assert spec.tier is Tier.READ and spec.parallel_safe
        r = await run.call("ast_grep", {"pattern": "if ($X != null) $X.dispose()", "language": "dart"})
    assert r.ok, r.text
    assert "lib/controller.dart:11: if (controller != null) controller.dispose();" in r.text
    assert "$X='controller'" in r.text
    assert r.data["total"] == 1
    (m,) = r.data["matches"]
    assert m["file"] == "lib/controller.dart" and m["start"] == {"line": 11, "column": 5}
    assert m["metavars"]["X"]["text"] == "controller"


async def test_tool_infers_the_language_from_a_file_path(sample: Path) -> None:
    async with Run(sample) as run:
        r = await run.call("ast_grep", {"pattern": "print($A)", "path": "lib/controller.dart"})
    assert r.ok and r.data["total"] == 2, r.text


async def test_tool_reports_how_many_more_and_how_to_narrow(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("".join(f"foo({i})\n" for i in range(7)))
    async with Run(tmp_path) as run:
        r = await run.call("ast_grep", {"pattern": "foo($A)", "language": "python", "max_results": 5})
    assert r.ok and len(r.data["matches"]) == 5 and r.data["truncated"]
    assert "showing 1-5 of 7; offset 5 for the next; or narrow with path or a more specific pattern" in r.text
    async with Run(tmp_path) as run:
        rest = await run.call("ast_grep", {"pattern": "foo($A)", "language": "python", "max_results": 5, "offset": 5})
    assert rest.ok and [m["metavars"]["A"]["text"] for m in rest.data["matches"]] == ["5", "6"]
    assert "showing 6-7 of 7" in rest.text and not rest.data["truncated"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        ({"pattern": "dispose(x", "language": "dart"},
         'pattern "dispose(x" is unparseable as dart: tried statement, expression, class member, annotation, declaration'),
        ({"pattern": "foo($A)", "path": "../elsewhere"}, "outside the workspace root"),
        ({"pattern": "print($A", "path": "lib"}, 'pattern "print($A" is unparseable'),
        ({"pattern": "foo($A)", "language": "klingon"}, 'language "klingon" has no grammar'),
        ({"pattern": "foo($A)", "language": "dartt"}, 'language "dartt" has no grammar here; did you mean dart?'),
        ({"pattern": "$$$A", "language": "dart"}, 'pattern "$$$A" is a lone sequence metavariable, which would match every node; use $A'),
    ],
)
async def test_tool_expected_failures_are_results(sample: Path, args: dict[str, object], needle: str) -> None:
    async with Run(sample) as run:
        r = await run.call("ast_grep", args)
    assert not r.ok and needle in r.text


@pytest.mark.parametrize("language", ["Python", "py", "python3", " PYTHON "])
async def test_a_language_is_taken_as_people_write_it(tmp_path: Path, language: str) -> None:
    (tmp_path / "app.py").write_text("print(1)\n")
    async with Run(tmp_path, resources={"lsp": False}) as run:
        found = await run.call("ast_grep", {"pattern": "print($A)", "language": language})
        ruled = await run.call("ast_grep", {"rule": {"pattern": "print($A)"}, "language": language})
    assert found.ok and found.data["language"] == "python" and found.data["total"] == 1, found.text
    assert ruled.ok and ruled.data["total"] == 1, ruled.text


def test_the_cli_takes_ast_greps_short_language_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.ts").write_text("foo(1);\n")
    (tmp_path / "b.cc").write_text("int main() { foo(2); }\n")
    parser = argparse.ArgumentParser()
    ast_grep_cmd.configure(parser)
    for lang, shown in (("ts", "a.ts"), ("c++", "b.cc"), ("TypeScript", "a.ts")):
        code = ast_grep_cmd.main(parser.parse_args(["-l", lang, "--root", str(tmp_path), "foo($A)", str(tmp_path)]))
        assert code == 0 and shown in capsys.readouterr().out


async def test_without_a_language_each_file_is_searched_in_its_own(tmp_path: Path) -> None:
    # the default call (no path, no language) over a mixed project: each file in the language
    # its extension names, the pattern compiled once per language, unparseable ones noted
    (tmp_path / "app.py").write_text("print(1)\nprint(2)\n")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "main.js").write_text("print(3);\nconsole.log(4);\n")
    (tmp_path / "conf.toml").write_text("[a]\nb = 1\n")
    async with Run(tmp_path, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        r = await run.call("ast_grep", {"pattern": "print($A)"})
        assert r.ok, r.text
        assert r.data["total"] == 3 and set(r.data["languages"]) == {"python", "javascript"}
        assert [m["file"] for m in r.data["matches"]] == ["app.py", "app.py", "web/main.js"]
        assert "each file in its extension's language" in r.text
        assert "not searched: 1 toml file" in r.text
        edit = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "show($A)"})
        assert edit.ok and edit.data["replacements"] == 3, edit.text
        done = await run.call("resolve", {"edit_id": edit.data["edit_id"], "action": "accept"})
        assert done.ok, done.text
        none = await run.call("ast_grep", {"pattern": "impl $T for $U {}"})
        assert not none.ok and "parses in none of the languages" in none.text
    assert (tmp_path / "app.py").read_text() == "show(1)\nshow(2)\n"
    assert (tmp_path / "web" / "main.js").read_text() == "show(3);\nconsole.log(4);\n"


async def test_tool_names_every_reading_it_matched(tmp_path: Path) -> None:
    (tmp_path / "A.java").write_text("class A {\n  final int n = 1;\n  void m() { final int k = 2; }\n}\n")
    async with Run(tmp_path) as run:
        r = await run.call("ast_grep", {"pattern": "final $T $F = $V;", "language": "java"})
    assert r.ok, r.text
    assert r.text.startswith('2 matches of "final $T $F = $V;" (java, statement + class member) in 1 of 1 files')
    assert r.data["rung"] == "statement" and r.data["rungs"] == ["statement", "class member"]
    assert [m["metavars"]["F"]["text"] for m in r.data["matches"]] == ["n", "k"]


async def test_tool_absent_when_the_parser_is_not_wired(sample: Path) -> None:
    async with Run(sample, resources={"parser": False}) as run:
        assert "ast_grep" not in [s.name for s in run.tools()]


async def test_tool_uses_the_injected_searcher(sample: Path) -> None:
    searcher = Searcher(sample)
    async with Run(sample, resources={"parser": searcher}) as run:
        await run.call("ast_grep", {"pattern": "print($A)", "language": "dart"})
    assert len(searcher.cache) == 1


def _cli(module: object, argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    module.configure(parser)  # type: ignore[attr-defined]
    return module.main(parser.parse_args(argv))  # type: ignore[attr-defined,no-any-return]


def test_cli_exit_codes_and_json(sample: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(sample)
    assert _cli(ast_grep_cmd, ["free($P)", "--lang", "c", "--json"]) == 0
    (m,) = json.loads(capsys.readouterr().out)
    assert set(m) >= {"file", "start", "end", "start_byte", "end_byte", "text", "metavars", "multi"}
    assert m["file"] == "native/buffer.c" and m["text"].startswith("free(")
    assert _cli(ast_grep_cmd, ["nothing_here($A)", "--lang", "c"]) == 1
    assert _cli(ast_grep_cmd, ["free(", "--lang", "c"]) == 8
    assert "unparseable as c" in capsys.readouterr().err
    assert _cli(ast_grep_cmd, ["$$$A", "--lang", "c"]) == 8  # the ast-grep CLI's code for it too
    assert "lone sequence metavariable" in capsys.readouterr().err
    # no --lang over a folder: each file in its own language; toml cannot hold a call, so a note
    assert _cli(ast_grep_cmd, ["free($P)"]) == 0
    found = capsys.readouterr()
    assert found.out == "native/buffer.c:13:5: free(p)\n"
    assert 'skipping 1 toml file: pattern "free($P)" is unparseable as toml' in found.err
    assert _cli(ast_grep_cmd, ["print($A)", "lib/controller.dart"]) == 0
    assert capsys.readouterr().out.splitlines() == ["lib/controller.dart:13:5: print('closed')", "lib/controller.dart:20:3: print(screen)"]


def test_grammars_list_and_vendor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(grammars_cmd, ["list", "python", "c"]) == 0
    out = capsys.readouterr().out
    assert "python: vendored" in out and "c: pack 0.13.0" in out
    assert _cli(grammars_cmd, ["vendor", "go", "--dest", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (entry,) = manifest["grammars"]
    assert entry["language"] == "go" and entry["source"] == "tree-sitter-language-pack" and entry["version"] == "0.13.0"
    assert len(entry["sha256"]) == 64 and (tmp_path / entry["file"]).exists()
    assert _cli(grammars_cmd, ["vendor", "no_such_lang", "--dest", str(tmp_path)]) == 1


@pytest.mark.parametrize(("path", "files"), [("pkg/*.py", 2), ("**/*.py", 3), ("pkg/b*.py", 1), ("**/c.py", 1)])
async def test_a_glob_path_searches_and_rewrites_the_files_it_names(tmp_path: Path, path: str, files: int) -> None:
    """A model's first call often writes path as a glob: it names the files it matches (ignore
    rules kept: the ignored folder's file is not among them)."""
    (tmp_path / "a.py").write_text("print(1)\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "b.py").write_text("print(2)\n")
    (tmp_path / "pkg" / "c.py").write_text("print(3)\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "d.py").write_text("print(4)\n")
    async with Run(tmp_path, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        found = await run.call("ast_grep", {"pattern": "print($A)", "path": path})
        ruled = await run.call("ast_grep", {"rule": {"pattern": "print($A)"}, "language": "python", "path": path})
        staged = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "path": path})
        refused = await run.call("ast_grep", {"pattern": "print($A)", "path": "pkg/*.rs"})
    assert found.ok and found.data["total"] == files and f"under {path}" in found.text, found.text
    assert "node_modules" not in found.text
    assert ruled.ok and len(ruled.data["matches"]) == files, ruled.text
    assert staged.ok and staged.data["replacements"] == files, staged.text
    assert not refused.ok and 'path "pkg/*.rs" (a glob) matches no file' in refused.text


async def test_tool_searches_a_snippet_given_as_code(tmp_path: Path) -> None:
    """`code` instead of `path`: a pattern or rule tried on the lines the call brings, nothing read
    from the workspace; `explain` shows the snippet's tree."""
    code = "def f(x):\n    print(1)\n    print(x + 1)\n"
    async with Run(tmp_path) as run:
        found = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "code": code})
        rule = await run.call("ast_grep", {"rule": {"pattern": "print($A)", "has": {"kind": "argument_list",
                                                                                   "has": {"kind": "binary_operator"}}},
                                           "language": "python", "code": code})
        relaxed = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "code": code,
                                              "strictness": "ast"})
        tree = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "code": code, "explain": True})
        no_language = await run.call("ast_grep", {"pattern": "print($A)", "code": code})
        both = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "code": code, "path": "."})
        huge = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "code": "x = 1\n" * 200_000})
    assert found.ok and found.data["total"] == 2 and "<code>:2: print(1)" in found.text and "$A='x + 1'" in found.text
    assert rule.ok and rule.data["total"] == 1 and "<code>:3: print(x + 1)" in rule.text
    assert relaxed.ok and relaxed.data["total"] == 2
    assert tree.ok and "function_definition (1:1)" in tree.text and "call (2:5)" in tree.text
    assert "statement rung" in tree.text  # the pattern's reading comes first
    assert not no_language.ok and "code needs language" in no_language.text
    assert not both.ok and "not both" in both.text
    assert not huge.ok and "give path instead" in huge.text


async def test_a_bare_rule_object_of_any_key_is_read_as_a_rule(tmp_path: Path) -> None:
    # a rule object given without the configuration around it, whatever its keys: the answer is
    # about the rule itself, not a request to wrap it
    (tmp_path / "a.py").write_text("print(1)\nprint(2)\n")
    async with Run(tmp_path, resources={"lsp": False}) as run:
        r = await run.call("ast_grep", {"rule": {"regex": r"^print\(1\)$", "precedes": {"regex": "2"}}, "language": "python"})
        kinded = await run.call("ast_grep", {"rule": {"regex": r"^print\(1\)$", "precedes": {"regex": "2"},
                                                      "kind": "expression_statement"}, "language": "python"})
    assert not r.ok and "does not say which node kinds it matches" in r.text and "add a kind" in r.text, r.text
    assert kinded.ok and [m["start"]["line"] for m in kinded.data["matches"]] == [1], kinded.text


@pytest.mark.parametrize(("language", "suffix", "comment"), [("python", "py", "# TODO: fix"), ("rust", "rs", "// TODO: fix"),
                                                              ("javascript", "js", "/* TODO: fix */")])
async def test_a_comment_pattern_is_refused_with_a_rule_that_finds_the_comments(tmp_path: Path, language: str, suffix: str,
                                                                                 comment: str) -> None:
    (tmp_path / f"a.{suffix}").write_text(f"{comment}\nx\n")
    async with Run(tmp_path) as run:
        refused = await run.call("ast_grep", {"pattern": comment, "language": language})
        assert not refused.ok and f"it reads as a {language} comment" in refused.text, refused.text
        # the rule the refusal suggests, taken from its text, finds the comment
        rule = json.loads(refused.text.split("give a rule such as ", 1)[1].split(" (the CLI", 1)[0])
        found = await run.call("ast_grep", {"rule": {**rule, "language": language}})
    assert found.ok and found.data["total"] == 1 and comment in found.text, found.text


async def test_plain_words_are_refused_as_words_not_code(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    async with Run(tmp_path) as run:
        refused = await run.call("ast_grep", {"pattern": "find the retry loop", "language": "python"})
    assert not refused.ok and "reads as plain words, not code: search the text with grep" in refused.text, refused.text
