"""`minitools ast-grep` against the `ast-grep` CLI 0.51.1 on the flags both have: languages
inferred per file, --globs, -A/-B/-C, --color, --files-with-matches, --json=stream; and the
ripgrep conventions where ast-grep has none (-f FILE or standard input)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from reference_tools import ast_grep_cli

PY = """\
import os

def total(items):
    print("items", len(items))
    value = 0
    for item in items:
        value += item
    print(value,
          "done")
    return value


print(total([1, 2]))
"""
JS = "function f(x) {\n  print(x);\n  return x;\n}\nprint(f(2));\n"
TS = "const n: number = 1;\nprint(n);\n"
RS = "fn main() {\n    print(1);\n}\n"


def ours(*args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", "ast-grep", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def theirs(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ast_grep_cli(), "run", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def spans_ours(out: str) -> set[tuple[str, int, int]]:
    return {(m["file"], m["start_byte"], m["end_byte"]) for m in json.loads(out)}


def spans_theirs(out: str) -> set[tuple[str, int, int]]:
    found = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {(m["file"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]) for m in found}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "calc.py").write_text(PY)
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "f.js").write_text(JS)
    (tmp_path / "web" / "n.ts").write_text(TS)
    (tmp_path / "main.rs").write_text(RS)
    (tmp_path / "notes.txt").write_text("print(1)\n")
    return tmp_path


def test_a_directory_is_searched_per_file_language_as_ast_grep_does(project: Path) -> None:
    mine = ours("print($A)", ".", "--json", cwd=project)
    assert mine.returncode == 0, mine.stderr
    ref = theirs("-p", "print($A)", ".", "--json=stream", cwd=project)
    assert spans_ours(mine.stdout) == spans_theirs(ref.stdout)
    languages = {(m["file"], m["language"]) for m in json.loads(mine.stdout)}
    assert languages == {("app/calc.py", "python"), ("web/f.js", "javascript"), ("web/n.ts", "typescript"),
                         ("main.rs", "rust")}
    # files in sorted walk order whatever their language
    files = [m["file"] for m in json.loads(mine.stdout)]
    assert files == sorted(files, key=lambda f: f.split("/"))


def test_two_files_of_different_languages(project: Path) -> None:
    mine = ours("print($A)", "web/f.js", "app/calc.py", cwd=project)
    assert mine.returncode == 0, mine.stderr
    assert mine.stdout.splitlines() == [
        "web/f.js:2:3: print(x)", "web/f.js:5:1: print(f(2))", 'app/calc.py:13:1: print(total([1, 2]))',
    ]


def test_a_language_the_pattern_does_not_parse_in_is_skipped_with_a_note(project: Path) -> None:
    mine = ours("def $F($$$A): $$$B", ".", cwd=project)
    assert mine.returncode == 0
    assert mine.stdout == "app/calc.py:3:1: def total(items):\n"
    assert "skipping 1 javascript file" in mine.stderr and "skipping 1 rust file" in mine.stderr
    assert "python" not in mine.stderr
    nowhere = ours("print($A", ".", cwd=project)
    assert nowhere.returncode == 8 and nowhere.stdout == ""
    assert 'pattern "print($A" is unparseable as python' in nowhere.stderr


def test_a_pattern_no_language_takes_is_refused_once(project: Path) -> None:
    mine = ours("$$$A", ".", cwd=project)
    assert mine.returncode == 8 and mine.stdout == ""
    assert mine.stderr.count("lone sequence metavariable") == 1 and "skipping" not in mine.stderr
    assert 'wrap $$$A in a larger pattern such as "foo($$$A)"' in mine.stderr


def test_a_named_file_of_no_known_language_is_a_usage_error(project: Path) -> None:
    out = ours("print($A)", "notes.txt", "main.rs", cwd=project)
    assert out.returncode == 2 and out.stdout == ""
    assert '"notes.txt"' in out.stderr and "--lang" in out.stderr
    assert ours("print($A)", "notes.txt", "--lang", "python", cwd=project).returncode == 0


@pytest.mark.parametrize("globs", [["*.py"], ["!web"], ["web/*.js"], ["*.ts", "*.rs"], ["*", "!*.rs"], ["!*.js", "f.js"],
                                   ["ignored.py"], [".hidden.py"], [".hid/*.py"], ["!ignored.py"]])
def test_globs_choose_the_files_as_ast_grep_does(project: Path, globs: list[str]) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("ignored.py\n")
    (project / "ignored.py").write_text("print(0)\n")
    (project / ".hidden.py").write_text("print(-1)\n")
    (project / ".hid").mkdir()
    (project / ".hid" / "x.py").write_text("print(-2)\n")
    flags = [f"--globs={g}" for g in globs]
    # ripgrep's -g spells the same option
    mine = ours("print($A)", ".", "--json", flags[0], *[x for g in globs[1:] for x in ("-g", g)], cwd=project)
    ref = theirs("-p", "print($A)", ".", "--json=stream", *flags, cwd=project)
    assert mine.returncode == ref.returncode, mine.stderr
    assert spans_ours(mine.stdout) == spans_theirs(ref.stdout)


def test_a_hostile_ignore_file_ignores_as_ast_grep_does(project: Path) -> None:
    # ten `*`s a backtracking match splits 120 characters over in every way (the walk hung);
    # and a pattern with four, matched by states: the same files ignored as ast-grep ignores
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*b\n**/app/**/z*/*.py\n")
    (project / ("a" * 120 + ".py")).write_text("print(1)\n")
    (project / ("a" * 10 + "b")).mkdir()  # a folder the first pattern ignores
    (project / ("a" * 10 + "b") / "x.py").write_text("print(2)\n")
    (project / "app" / "x" / "zz").mkdir(parents=True)
    (project / "app" / "x" / "zz" / "q.py").write_text("print(3)\n")
    mine = ours("print($A)", ".", "--json", cwd=project)
    ref = theirs("-p", "print($A)", ".", "--json=stream", cwd=project)
    assert mine.returncode == ref.returncode == 0, mine.stderr
    found = spans_ours(mine.stdout)
    assert found == spans_theirs(ref.stdout)
    assert ("a" * 120 + ".py", 0, 8) in found and not any(f.startswith(("aaaaaaaaaab/", "app/x/zz/")) for f, _, _ in found)


@pytest.mark.parametrize("flags", [["-A", "1"], ["-B", "2"], ["-C", "1"], ["-C", "3"], ["-A", "0"], ["-B", "1", "-A", "2"],
                                   ["-C", "1", "--color", "always"], ["-A", "2", "--color=always"]])
def test_context_lines_as_ast_grep_prints_them(project: Path, flags: list[str]) -> None:
    for file, pattern in [("app/calc.py", "print($$$A)"), ("web/f.js", "print($A)"), ("app/calc.py", "$A += $B")]:
        mine = ours(pattern, file, *flags, cwd=project)
        ref = theirs("-p", pattern, file, *flags, cwd=project)
        assert mine.returncode == ref.returncode == 0, mine.stderr
        assert mine.stdout == ref.stdout


def test_color_marks_the_match_and_auto_follows_the_terminal_and_no_color(project: Path) -> None:
    plain = ours("print($A)", "web/f.js", cwd=project)
    assert "\x1b[" not in plain.stdout  # a pipe: auto means no colour
    always = ours("print($A)", "web/f.js", "--color", "always", cwd=project)
    assert always.stdout.splitlines()[0] == "web/f.js:2:3: \x1b[1;31mprint(x)\x1b[0m"
    never = ours("print($A)", "web/f.js", "--color", "never", cwd=project)
    assert never.stdout == plain.stdout

    def on_a_terminal(**extra: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"} | extra
        main, child = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "minitools", "ast-grep", "print($A)", "web/f.js"],
                                cwd=project, stdout=child, stderr=subprocess.DEVNULL, env=env)
        os.close(child)
        chunks = []
        while True:
            try:
                data = os.read(main, 4096)
            except OSError:  # the terminal closed with the child
                break
            if not data:
                break
            chunks.append(data)
        proc.wait(timeout=60)
        os.close(main)
        return b"".join(chunks).decode()

    assert "\x1b[1;31mprint(x)\x1b[0m" in on_a_terminal()
    assert "\x1b[" not in on_a_terminal(NO_COLOR="1")
    assert "print(x)" in on_a_terminal(NO_COLOR="1")


def test_files_with_matches(project: Path) -> None:
    mine = ours("print($A)", ".", "--files-with-matches", cwd=project)
    ref = theirs("-p", "print($A)", ".", "--files-with-matches", cwd=project)
    assert mine.returncode == 0
    assert mine.stdout.splitlines() == ["app/calc.py", "main.rs", "web/f.js", "web/n.ts"]
    assert sorted(mine.stdout.splitlines()) == sorted(ref.stdout.splitlines())
    coloured = ours("print($A)", "main.rs", "--files-with-matches", "--color=always", cwd=project)
    assert coloured.stdout == theirs("-p", "print($A)", "main.rs", "--files-with-matches", "--color=always",
                                     cwd=project).stdout
    none = ours("nothing_like_this($A)", ".", "--files-with-matches", cwd=project)
    assert none.returncode == 1 and none.stdout == ""


def test_json_stream_is_one_object_a_line(project: Path) -> None:
    stream = ours("print($A)", ".", "--json=stream", cwd=project)
    listed = ours("print($A)", ".", "--json", cwd=project)
    pretty = ours("print($A)", ".", "--json=pretty", cwd=project)
    lines = stream.stdout.splitlines()
    assert [json.loads(line) for line in lines] == json.loads(listed.stdout) == json.loads(pretty.stdout)
    assert len(lines) == len(theirs("-p", "print($A)", ".", "--json=stream", cwd=project).stdout.splitlines())
    assert len(listed.stdout.splitlines()) == 1 and len(pretty.stdout.splitlines()) > len(lines)
    # only `--json=STYLE` takes a style: a path after bare --json is still a path
    assert ours("print($A)", "--json", "web", cwd=project).returncode == 0


def test_the_pattern_from_a_file_standard_input_or_p(project: Path) -> None:
    expected = ours("print($$$A)", "app", cwd=project).stdout
    assert expected
    (project / "pattern.txt").write_text("print($$$A)\n")
    assert ours("-f", "pattern.txt", "app", cwd=project).stdout == expected
    assert ours("app", "-f", "-", cwd=project, stdin="print($$$A)\n").stdout == expected
    assert ours("-p", "print($$$A)", "app", cwd=project).stdout == expected
    multi = "for $X in $Y:\n    $$$B"
    (project / "loop.txt").write_text(multi + "\n")
    assert ours("-f", "loop.txt", cwd=project).stdout == ours(multi, cwd=project).stdout == "app/calc.py:6:5: for item in items:\n"


def test_usage_errors_change_nothing_and_say_what_to_do(project: Path) -> None:
    cases = [
        (["print($A)", "-C", "1", "-A", "2"], "-C/--context cannot be used with -A/--after"),
        (["print($A)", "--files-with-matches", "--json"], "--files-with-matches cannot be used with --json"),
        (["print($A)", "--files-with-matches", "--rewrite", "x"], "--files-with-matches cannot be used with --rewrite"),
        (["-f", "missing.txt"], "cannot read the pattern file 'missing.txt'"),
        (["-f", "-"], "the pattern (from '-') is empty"),
        (["-p", "print($A)", "-f", "-"], "give the pattern once"),
        ([], "no pattern"),
        (["print($A)", "-A", "-1"], "cannot be negative"),
        (["print($A)", "-B", "x"], "'x' is not a number of lines"),
    ]
    for args, message in cases:
        out = ours(*args, cwd=project, stdin="")
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr, (args, out.stderr)
        assert out.stdout == ""


def test_rewrite_without_lang_rewrites_each_language_in_its_own(project: Path) -> None:
    out = ours("print($A)", "--rewrite", "log($A)", ".", cwd=project)
    assert out.returncode == 0, out.stderr
    assert "+log(total([1, 2]))" in out.stdout and "+  log(x);" in out.stdout and "+    log(1);" in out.stdout
    assert (project / "web" / "f.js").read_text() == JS  # a preview writes nothing


PIECES = ["print(1)", "print(2); print(3)", "x = 1", "", "", "print(f(print(4)))", "print(5,\n      6)",
          "y = [\n  print(7),\n]", "if x:\n    print(8)", "z = 'print(9)'"]


@pytest.mark.parametrize("seed", range(30))
def test_context_output_equals_ast_grep_on_generated_files(tmp_path: Path, seed: int) -> None:
    """Nested, same-line, multi-line and adjacent matches, blank lines at the end, random -A/-B/-C."""
    import random

    rnd = random.Random(seed)
    text = "\n".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 14))) + rnd.choice(["", "\n", "\n\n\n"])
    (tmp_path / "t.py").write_text(text)
    n = lambda: str(rnd.randint(0, 3))  # noqa: E731
    flags = rnd.choice([["-A", n()], ["-B", n()], ["-C", n()], ["-A", n(), "-B", n()]])
    flags += rnd.choice([[], ["--color=always"]])
    pattern = rnd.choice(["print($$$A)", "print($A)", "$X = $Y"])
    mine, ref = ours(pattern, "t.py", *flags, cwd=tmp_path), theirs("-p", pattern, "t.py", *flags, cwd=tmp_path)
    assert (mine.returncode, mine.stdout) == (ref.returncode, ref.stdout), (text, flags, mine.stderr)


def test_a_symlink_loop_or_a_missing_path_is_a_clear_error(project: Path) -> None:
    # loopa.py -> loopa -> loopb -> loopa: a message, no traceback, ast-grep's exit code
    (project / "loopa.py").symlink_to("loopa")
    (project / "loopa").symlink_to("loopb")
    (project / "loopb").symlink_to("loopa")
    loop = ours("print($A)", "loopa.py", cwd=project)
    ref = theirs("-p", "print($A)", "loopa.py", cwd=project)
    assert loop.returncode == ref.returncode == 1 and loop.stdout == ""
    assert "loopa.py" in loop.stderr and "symlink loop" in loop.stderr and "Traceback" not in loop.stderr
    missing = ours("print($A)", "nothere.py", cwd=project)
    assert missing.returncode == theirs("-p", "print($A)", "nothere.py", cwd=project).returncode == 1
    assert "nothere.py" in missing.stderr and "does not exist" in missing.stderr
