"""Searcher: walking, ignore rules, skips, caps, the tree cache, path refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minitools.match import PathError, Searcher, compile_pattern, language_for_path
from reference_tools import ast_grep_cli


def _tree(root: Path, files: dict[str, bytes | str]) -> None:
    for rel, body in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(body.encode("utf-8") if isinstance(body, str) else body)


def test_gitignore_hidden_and_dependency_folders_are_skipped(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "build/\n*.gen.py\n!keep.gen.py\n/top_only.py\n",
            "a.py": "foo(1)\n",
            "build/b.py": "foo(2)\n",
            "x.gen.py": "foo(3)\n",
            "keep.gen.py": "foo(4)\n",
            "top_only.py": "foo(5)\n",
            "sub/top_only.py": "foo(6)\n",
            ".hidden/c.py": "foo(7)\n",
            "node_modules/d.py": "foo(8)\n",
            "sub/.gitignore": "local.py\n",
            "sub/local.py": "foo(9)\n",
            "notes.txt": "foo(10)\n",
        },
    )
    result = Searcher(tmp_path).search(compile_pattern("foo($A)", "python"))
    assert [(m.path, m.metavars["A"].text) for m in result.matches] == [
        ("a.py", "1"),
        ("keep.gen.py", "4"),
        ("sub/top_only.py", "6"),
    ]
    assert result.files_searched == 3 and result.files_matched == 3


def test_a_file_named_explicitly_is_searched_even_if_ignored(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "gen.py\n", "gen.py": "foo(1)\n"})
    result = Searcher(tmp_path).search(compile_pattern("foo($A)", "python"), [tmp_path / "gen.py"])
    assert result.total == 1


def test_binary_non_utf8_and_oversized_files_are_skipped_and_counted(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "ok.py": "foo(1)\n",
            "bin.py": b"foo(2)\n\x00\x01\x02",
            "latin.py": "foo('caf\xe9')\n".encode("latin-1"),
            "big.py": "foo(3)\n" + "x = 1\n" * 200,
        },
    )
    result = Searcher(tmp_path, max_file_bytes=1000).search(compile_pattern("foo($A)", "python"))
    assert result.total == 1
    assert result.skipped == {"binary": 1, "non-utf8": 1, "oversized": 1}


def test_max_results_caps_matches_but_counts_all(tmp_path: Path) -> None:
    _tree(tmp_path, {f"m{i}.py": "foo(1)\nfoo(2)\n" for i in range(5)})
    result = Searcher(tmp_path).search(compile_pattern("foo($A)", "python"), max_results=3)
    assert len(result.matches) == 3 and result.total == 10 and result.truncated
    assert [m.path for m in result.matches] == ["m0.py", "m0.py", "m1.py"]


def test_paths_outside_the_root_are_refused(tmp_path: Path) -> None:
    inside = tmp_path / "root"
    _tree(inside, {"a.py": "foo(1)\n"})
    _tree(tmp_path, {"outside.py": "foo(2)\n"})
    searcher = Searcher(inside)
    pattern = compile_pattern("foo($A)", "python")
    with pytest.raises(PathError, match="outside the search root"):
        searcher.search(pattern, [tmp_path / "outside.py"])
    with pytest.raises(PathError, match="outside the search root"):
        searcher.search(pattern, [Path("../outside.py")])
    (inside / "link.py").symlink_to(tmp_path / "outside.py")
    with pytest.raises(PathError):
        searcher.search(pattern, [Path("link.py")])


def test_cache_serves_unchanged_files_and_reparses_changed_ones(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.py": "foo(1)\n"})
    searcher = Searcher(tmp_path)
    pattern = compile_pattern("foo($A)", "python")
    assert searcher.search(pattern).matches[0].metavars["A"].text == "1"
    assert searcher.search(pattern).total == 1 and searcher.cache.hits == 1
    (tmp_path / "a.py").write_text("foo(22)\nfoo(3)\n")
    os.utime(tmp_path / "a.py", ns=(1, 10**18))
    assert [m.metavars["A"].text for m in searcher.search(pattern).matches] == ["22", "3"]


def test_cache_is_bounded_by_source_bytes(tmp_path: Path) -> None:
    _tree(tmp_path, {f"f{i}.py": "foo(1)\n" + "#" * 1000 + "\n" for i in range(10)})
    searcher = Searcher(tmp_path, cache_bytes=3500)
    searcher.search(compile_pattern("foo($A)", "python"))
    assert len(searcher.cache) == 3 and searcher.cache.bytes <= 3500


def test_a_directory_search_takes_only_the_language_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.ts": "foo(1);\n", "b.js": "foo(2);\n", "c.tsx": "foo(3);\n"})
    result = Searcher(tmp_path).search(compile_pattern("foo($A)", "typescript"))
    assert [m.path for m in result.matches] == ["a.ts"]


@pytest.mark.parametrize(
    ("name", "language"),
    [("a.py", "python"), ("x.dart", "dart"), ("m.go", "go"), ("b.h", "c"), ("C.java", "java"), ("t.tsx", "tsx"), ("r.txt", None)],
)
def test_language_for_path(name: str, language: str | None) -> None:
    assert language_for_path(name) == language


def test_sample_dart_guard(repo_root: Path) -> None:
    root = repo_root / "examples" / "sample"
    result = Searcher(root).search(compile_pattern("if ($X != null) $X.dispose()", "dart"))
    assert [(m.path, m.start[0], m.metavars["X"].text) for m in result.matches] == [("lib/controller.dart", 11, "controller")]


def test_shard_workers_give_the_same_results_and_stop_on_close(tmp_path: Path) -> None:
    _tree(tmp_path, {f"d{i % 3}/m{i}.py": f"foo({i})\nbar(foo({i}))\n" for i in range(12)})
    _tree(tmp_path, {"skip/latin.py": b"foo('\xe9')\n"})
    pattern = compile_pattern("foo($A)", "python")
    alone = Searcher(tmp_path, workers=1).search(pattern, max_results=20)
    with Searcher(tmp_path, workers=2, pool_min_files=2, pool_min_bytes=0) as sharded:
        first = sharded.search(pattern, max_results=20)
        again = sharded.search(pattern, max_results=20)
        assert sharded._pool is not None and not sharded._pool.broken
        pids = sharded._pool.pids
        assert len(pids) == 1  # this process is shard 0
    for result in (first, again):
        assert result.matches == alone.matches
        assert (result.total, result.files_searched, result.files_matched, result.skipped, result.truncated) == (
            24, 12, 12, {"non-utf8": 1}, True,
        )
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_patterns_sharing_a_root_kind_do_not_share_candidates(tmp_path: Path) -> None:
    # the per-tree kind index must not hand one pattern's anchor-ranged candidates to another
    _tree(tmp_path, {"a.py": "subprocess.run(x)\nisinstance(y, str)\nprint(z)\n"})
    searcher = Searcher(tmp_path, workers=1)
    assert searcher.search(compile_pattern("subprocess.run($$$A)", "python")).total == 1
    assert searcher.search(compile_pattern("isinstance($X, str)", "python")).total == 1
    assert searcher.search(compile_pattern("$F($$$A)", "python")).total == 3


def test_prefilter_takes_words_whole_but_never_drops_a_real_match(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "a.js": "x.subscriber(1); unsubscribe(2);\n",   # only glued occurrences: skipped, no match
        "b.js": "x.subscribe(1);\n",
        "c.js": "é.subscribe(2); $y.subscribe(3);\n",
        "d.py": "x = 1if y else 2\nfoo(1if a else b)\n",
    })
    js = Searcher(tmp_path, workers=1).search(compile_pattern("$A.subscribe($B)", "javascript"))
    assert [(m.path, m.metavars["B"].text) for m in js.matches] == [("b.js", "1"), ("c.js", "2"), ("c.js", "3")]
    py = Searcher(tmp_path, workers=1).search(compile_pattern("foo($A if $B else $C)", "python"))
    assert py.total == 1


def test_prefilter_never_requires_a_token_a_match_may_lack(tmp_path: Path) -> None:
    """A Go/Python `;` a line break stands for, and the separator after an empty `$$$`, are
    in no matching file necessarily: neither the pre-filter nor the candidate search needs them."""
    _tree(tmp_path, {
        "a.go": "package p\nfunc f() {\n\tfoo(1)\n}\n",
        "b.js": "foo(b)\n",
        "c.py": "x = 1\ny = 2\n",
    })
    search = Searcher(tmp_path, workers=1).search
    assert [m.text for m in search(compile_pattern("foo($A);", "go")).matches] == ["foo(1)"]
    assert [m.text for m in search(compile_pattern("foo($$$A, b)", "javascript")).matches] == ["foo(b)"]
    assert [m.text for m in search(compile_pattern("x = 1; y = 2", "python")).matches] == ["x = 1\ny = 2"]


def _parent_ignores(tmp_path: Path, *, repository: bool) -> Path:
    """A workspace `app/` below a folder whose .gitignore hides `gen/` and `*_tmp.py`."""
    _tree(tmp_path, {
        ".gitignore": "gen/\n*_tmp.py\n",
        "app/gen/a.py": "foo(1)\n", "app/b_tmp.py": "foo(2)\n", "app/c.py": "foo(3)\n",
    })
    if repository:
        (tmp_path / ".git").mkdir()
    return tmp_path / "app"


def test_ignore_files_above_the_root_apply_within_its_repository(tmp_path: Path) -> None:
    app = _parent_ignores(tmp_path, repository=True)
    pattern = compile_pattern("foo($A)", "python")
    assert [m.path for m in Searcher(app, workers=1).search(pattern).matches] == ["c.py"]
    every = Searcher(app, workers=1, ignore_parents=False).search(pattern).matches
    assert [m.path for m in every] == ["b_tmp.py", "c.py", "gen/a.py"]


def test_ignore_files_above_the_root_mean_nothing_outside_a_repository(tmp_path: Path) -> None:
    app = _parent_ignores(tmp_path, repository=False)
    found = Searcher(app, workers=1).search(compile_pattern("foo($A)", "python")).matches
    assert [m.path for m in found] == ["b_tmp.py", "c.py", "gen/a.py"]


@pytest.mark.parametrize("repository", [True, False])
@pytest.mark.parametrize("no_ignore", [[], ["--no-ignore", "parent"]])
def test_parent_ignore_files_as_the_ast_grep_cli_reads_them(tmp_path: Path, repository: bool, no_ignore: list[str]) -> None:
    exe = ast_grep_cli()
    app = _parent_ignores(tmp_path, repository=repository)

    def files(argv: list[str]) -> list[str]:
        proc = subprocess.run([*argv, *no_ignore], cwd=app, capture_output=True, text=True, timeout=60)
        assert proc.returncode in (0, 1), proc.stderr
        found: set[str] = set()
        for line in proc.stdout.splitlines():  # ours: one JSON list; theirs: a match a line
            value = json.loads(line) if line.strip() else []
            found.update(m["file"] for m in (value if isinstance(value, list) else [value]))
        return sorted(found)

    theirs = files([exe, "run", "-p", "foo($A)", "-l", "python", "--json=stream", "."])
    ours = files([sys.executable, "-m", "minitools", "ast-grep", "foo($A)", ".", "-l", "python", "--json"])
    assert ours == theirs


@pytest.mark.parametrize(("pattern", "source"), [
    ("print($A, $$$REST)", 'print("é\\"q\\\\", 1, x)\nprint(\'\\u00e9\', "\\t")\n'),
    ("$F($$$ARGS)", "f()\ng(*a, **k)\n# 注释\nh('日本', \"\\n\")\n"),
])
def test_the_cli_s_json_lines_are_json_dumps_of_each_match(tmp_path: Path, pattern: str, source: str) -> None:
    # the CLI writes its JSON text directly, for speed: it must be the encoder's, byte for byte
    from minitools.commands._grep_output import json_line

    (tmp_path / 'we"ird é.py').write_text(source, encoding="utf-8")
    matches = Searcher(tmp_path, workers=1).search(compile_pattern(pattern, "python")).matches
    assert matches and any(m.multi for m in matches)
    assert [json_line(m) for m in matches] == [json.dumps(m.to_json(), ensure_ascii=False) for m in matches]
    proc = subprocess.run([sys.executable, "-m", "minitools", "ast-grep", pattern, ".", "--lang", "python", "--json=stream"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.stdout == "".join(json.dumps(m.to_json(), ensure_ascii=False) + "\n" for m in matches)


def test_ignore_rules_read_as_runs_decide_as_rule_by_rule() -> None:
    # the runs of rules with one verdict are searched as one alternation each, the last run first:
    # every path gets the verdict of the last rule that matches it, as reading rule by rule gives
    import random

    from minitools.match._walk import _Ignore

    rnd = random.Random(7)
    parts = ["a", "b", "build", "x.log", "keep.log", "gen.py", "src", "tmp"]
    globs = ["*.log", "!keep.log", "build/", "/src/*.py", "gen.py", "!b/gen.py", "tmp", "**/x.*", "!a/**", "*.py"]
    for _ in range(300):
        lines = rnd.sample(globs, rnd.randint(1, len(globs)))
        ign = _Ignore("/r", lines)
        for _ in range(20):
            path = "/r/" + "/".join(rnd.choice(parts) for _ in range(rnd.randint(1, 3)))
            is_dir = rnd.random() < 0.3
            expected = None
            for rx, negated, dir_only in ign.rules:  # rule by rule, the last match decides
                if (not dir_only or is_dir) and rx.search(path[3:]):
                    expected = not negated
            assert ign.decide(path, is_dir) == expected, (lines, path, is_dir)
