"""The lsp query side on real code: pluggy and packaging (installed with pytest) under
basedpyright, npm's own lib/ under typescript-language-server, zlib's example programs
(setup/35-lsp-real.sh) under clangd. Expected places are read from the sources themselves."""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

ZLIB_EXAMPLES = Path("/usr/share/doc/zlib1g-dev/examples")


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin, f"{name} is not installed in the venv (pytest depends on it)"
    return Path(spec.origin).parent


def npm_lib() -> Path:
    npm = shutil.which("npm")
    assert npm, "npm is not installed (setup/30-lsp.sh installs it)"
    lib = Path(os.path.realpath(npm)).parents[1] / "lib"  # <npm>/bin/npm-cli.js -> <npm>/lib
    assert (lib / "npm.js").is_file(), f"npm's lib/ is not at {lib}"
    return lib


def line_of(path: Path, text: str) -> int:
    """1-based number of the first line of `path` holding `text`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} is not in {path}")


def places(r: Any) -> list[tuple[str, int]]:
    return sorted((loc["file"], loc["line"]) for loc in r.data["locations"])


@pytest.fixture
def real_py(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for name in ("pluggy", "packaging"):
        shutil.copytree(package_dir(name), root / name, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pyproject.toml").write_text('[project]\nname = "real"\n')
    # the users' own example beside the real packages
    (root / "shapes.py").write_text("class Square:\n    def __init__(self, side: float) -> None:\n        self.side = side\n\n\n"
                                    "def make_square(side: float) -> Square:\n    return Square(side)\n\n\n"
                                    "sq = make_square(2.0)\n")
    return root


@pytest.fixture
def real_js(tmp_path: Path) -> Path:
    root = tmp_path / "npm"
    shutil.copytree(npm_lib(), root / "lib")
    (root / "package.json").write_text('{"name": "npm-lib-copy", "private": true}\n')
    return root


def zlib_project(root: Path, copies: int = 1) -> Path:
    """zlib's examples with a compile_commands.json (clangd indexes every file it lists);
    `copies` > 1 repeats them in subfolders, for an index that takes a while to build."""
    sources = sorted(ZLIB_EXAMPLES.glob("*.[ch]"))
    assert sources, f"zlib's examples are missing from {ZLIB_EXAMPLES} (setup/35-lsp-real.sh installs zlib1g-dev)"
    commands = []
    for n in range(copies):
        folder = root if n == 0 else root / f"copy{n}"
        folder.mkdir(parents=True, exist_ok=True)
        for source in sources:
            shutil.copy(source, folder / source.name)
            if source.suffix == ".c":
                commands.append({"directory": str(folder), "file": str(folder / source.name),
                                 "arguments": ["cc", "-c", "-std=c99", source.name]})
    (root / "compile_commands.json").write_text(json.dumps(commands))
    return root


# Issue: a short identifier also found inside a longer name --------------------------------

def short_names_inside_longer_ones(root: Path) -> list[tuple[str, int, str]]:
    """(file, line, name) of assignments `x = ...` whose short name also occurs inside
    another identifier on the same line (`i = len(hookimpls) - 1`)."""
    found = []
    for path in sorted((root / "pluggy").glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r"\s*([a-z]{1,3}) = ", line)
            if m and line.count(m.group(1)) > 1 and len(re.findall(rf"\b{m.group(1)}\b", line)) == 1:
                found.append((str(path.relative_to(root)), number, m.group(1)))
    return found


async def test_a_short_identifier_inside_longer_names_resolves(real_py: Path, run_factory: Any) -> None:
    run = run_factory(real_py, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp", {"action": "type_definition", "file": "shapes.py", "line": 10, "symbol": "sq"})
    assert r.ok, r.text
    assert places(r) == [("shapes.py", 1)] and r.data["position"] == {"line": 10, "column": 1, "name": "sq",
                                                                      "occurrence": 1, "of": 1}
    cases = short_names_inside_longer_ones(real_py)
    assert cases, "pluggy has no such line any more; pick another package"
    for file, line, name in cases[:3]:
        r = await run.call("lsp", {"action": "hover", "file": file, "line": line, "symbol": name})
        assert r.ok, r.text
        assert f"(variable) {name}:" in r.text, (file, line, r.text)


async def test_several_whole_word_occurrences_are_refused_with_text_that_picks_each(real_py: Path, run_factory: Any) -> None:
    run = run_factory(real_py, lsp_servers={"python": ["basedpyright"]})
    line = line_of(real_py / "pluggy/_manager.py", "self.plugin = plugin")
    r = await run.call("lsp", {"action": "definition", "file": "pluggy/_manager.py", "line": line, "symbol": "plugin"})
    assert not r.ok
    assert f'"plugin" is ambiguous on line {line} of pluggy/_manager.py' in r.text
    picks = re.findall(r'column \d+: "([^"]+)"', r.text)
    assert picks == [".plugin", "= plugin"], r.text
    # each listed text resolves, to a different place: the attribute, and the parameter it is given
    first = await run.call("lsp", {"action": "definition", "file": "pluggy/_manager.py", "line": line, "symbol": picks[0]})
    second = await run.call("lsp", {"action": "definition", "file": "pluggy/_manager.py", "line": line, "symbol": picks[1]})
    assert first.ok and second.ok, (first.text, second.text)
    assert [loc["text"] for loc in first.data["locations"]] == ["self.plugin = plugin"]
    assert [loc["text"].startswith("def __init__(self, plugin") for loc in second.data["locations"]] == [True]
    assert f'"plugin" occurs 2 times on line {line}; used the 2nd' in second.text


# Issue: `self._spec`, `this.npm`, `gz.fd` resolved to their receiver ---------------------

async def test_a_qualified_name_means_its_last_identifier_python(real_py: Path, run_factory: Any) -> None:
    run = run_factory(real_py, lsp_servers={"python": ["basedpyright"]})
    manager = real_py / "pluggy/_manager.py"
    line = line_of(manager, "return self._inner_hookexec(")
    r = await run.call("lsp", {"action": "definition", "file": "pluggy/_manager.py", "line": line,
                               "symbol": "self._inner_hookexec"})
    assert r.ok, r.text
    assert r.data["position"]["name"] == "_inner_hookexec"
    assert r.data["locations"] and all("self._inner_hookexec =" in loc["text"] for loc in r.data["locations"]), r.text
    assert ("pluggy/_manager.py", line_of(manager, "self._inner_hookexec =")) in places(r)
    # the name repeats on the line: the answer says which one was used
    line = line_of(manager, "self.plugin = plugin")
    r = await run.call("lsp", {"action": "hover", "file": "pluggy/_manager.py", "line": line, "symbol": "self.plugin"})
    assert r.ok and "plugin" in r.text and "class PluginValidationError" not in r.text, r.text
    assert f'"plugin" occurs 2 times on line {line}; used the 1st (column ' in r.text


async def test_a_qualified_name_means_its_last_identifier_typescript(real_js: Path, run_factory: Any) -> None:
    # tsserver takes seconds to load npm's lib/, over 10 s on a loaded machine, and until
    # its first publish answers definitions with nothing: wait for that publish, however long
    run = run_factory(real_js, lsp_ready_timeout=120)
    use = line_of(real_js / "lib/arborist-cmd.js", "= this.npm")
    r = await run.call("lsp", {"action": "definition", "file": "lib/arborist-cmd.js", "line": use, "symbol": "this.npm"})
    assert r.ok and r.data["server"] == "typescript-language-server", r.text
    assert places(r) == [("lib/base-cmd.js", line_of(real_js / "lib/base-cmd.js", "this.npm = npm"))], r.text
    line = line_of(real_js / "lib/base-cmd.js", "this.npm = npm")
    r = await run.call("lsp", {"action": "hover", "file": "lib/base-cmd.js", "line": line, "symbol": "this.npm"})
    assert r.ok and "(property) BaseCommand.npm" in r.text, r.text
    assert f'"npm" occurs 2 times on line {line}; used the 1st' in r.text


async def test_a_qualified_name_means_its_last_identifier_c(tmp_path: Path, run_factory: Any) -> None:
    root = zlib_project(tmp_path / "zlib")
    run = run_factory(root)
    line = line_of(root / "gzappend.c", "gz.fd = open(")
    r = await run.call("lsp", {"action": "definition", "file": "gzappend.c", "line": line, "symbol": "gz.fd"})
    assert r.ok and r.data["server"] == "clangd", r.text
    assert [loc["text"].split(";")[0] for loc in r.data["locations"]] == ["int fd"], r.text


# Issue: the outline of a big file ---------------------------------------------------------

def biggest_module(root: Path) -> tuple[Path, ast.Module]:
    trees = {p: ast.parse(p.read_text()) for p in sorted((root / "packaging").glob("*.py"))}
    return max(trees.items(), key=lambda item: sum(1 for _ in ast.walk(item[1])))


async def test_a_big_outline_lists_top_level_entries_and_class_members_first(real_py: Path, run_factory: Any) -> None:
    path, tree = biggest_module(real_py)
    rel = str(path.relative_to(real_py))
    run = run_factory(real_py, lsp_servers={"python": ["basedpyright"]})
    r = await run.call("lsp", {"action": "symbols", "file": rel})
    assert r.ok, r.text
    rows, total = r.data["symbols"], r.data["total"]
    assert total > 200, f"{rel} has {total} symbols: the cap is not reached, pick a bigger file"
    assert len(rows) == 200 and r.data["truncated"]
    shown = {(row["name"], row["line"], row["depth"]) for row in rows}
    defs = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    top = [node for node in tree.body if isinstance(node, defs)]
    assert {(node.name, node.lineno, 0) for node in top} <= shown
    # every method of every top-level class: before any function's locals
    members = {(node.name, item.name) for node in top if isinstance(node, ast.ClassDef)
               for item in node.body if isinstance(item, defs)}  # by name: overloads are one entry
    parents: dict[int, str] = {}
    listed = set()
    for row in rows:
        parents[row["depth"]] = row["name"]
        if row["depth"] == 1:
            listed.add((parents[0], row["name"]))
    assert members and members <= listed
    # nested in document order: each row follows its parent
    for before, row in itertools.pairwise(rows):
        assert row["depth"] <= before["depth"] + 1
    hidden = sum(row["hidden"] for row in rows)
    assert hidden == total - 200
    assert f"{total - 200} more entries are inside those marked +N; symbols with `file` and the `line` of an entry" in r.text
    # the way to the rest: the inside of one function, all of it
    function = max((row for row in rows if row["kind"] == "function" and row["depth"] == 0), key=lambda row: row["hidden"])
    assert function["hidden"] > 0
    r = await run.call("lsp", {"action": "symbols", "file": rel, "line": function["line"]})
    assert r.ok, r.text
    inside = r.data["symbols"]
    assert (inside[0]["name"], inside[0]["depth"]) == (function["name"], 0)
    at = rows.index(function)
    under = rows[at + 1:][: next((i for i, row in enumerate(rows[at + 1:]) if row["depth"] == 0), None)]
    assert r.data["total"] == len(inside) == 1 + function["hidden"] + sum(1 + row["hidden"] for row in under)
    assert not r.data["truncated"]
    node = next(n for n in top if n.name == function["name"])
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    assert {a.arg for a in node.args.args} <= {row["name"] for row in inside[1:]}
    r = await run.call("lsp", {"action": "symbols", "file": rel, "line": 1})
    assert not r.ok and f"no symbol of {rel} spans line 1" in r.text


# Issue: a cold clangd while its index builds ---------------------------------------------

async def test_a_cold_clangd_waits_for_its_index(tmp_path: Path, run_factory: Any) -> None:
    root = zlib_project(tmp_path / "zlib")
    run = run_factory(root)
    r = await run.call("lsp", {"action": "symbols", "query": "gzlog_open"})
    assert r.ok, r.text
    assert ("gzlog_open", "gzlog.c", line_of(root / "gzlog.c", "gzlog *gzlog_open(char *path)")) in \
        {(s["name"], s["file"], s["line"]) for s in r.data["symbols"]}, r.text
    assert not r.data["incomplete"] and "may be incomplete" not in r.text
    # references from a header, cold: the uses in the .c file come from the index
    root = zlib_project(tmp_path / "zlib2")
    run = run_factory(root)
    line = line_of(root / "zran.h", "void deflate_index_free(")
    r = await run.call("lsp", {"action": "references", "file": "zran.h", "line": line, "symbol": "deflate_index_free"})
    assert r.ok, r.text
    # zran.c is not open: its definition and uses come from the index
    definition = line_of(root / "zran.c", "void deflate_index_free(")
    assert ("zran.c", definition) in places(r) and len([p for p in places(r) if p[0] == "zran.c"]) >= 2, r.text


async def test_an_answer_while_clangd_indexes_says_it_may_be_incomplete(tmp_path: Path, run_factory: Any) -> None:
    root = zlib_project(tmp_path / "zlib", copies=6)
    run = run_factory(root, lsp_index_timeout=0)
    r = await run.call("lsp", {"action": "symbols", "query": "gzlog_open"})
    assert r.ok, r.text
    assert r.data["incomplete"] and re.search(r"clangd is still indexing \d+/\d+: this answer may be incomplete", r.text), r.text
    status = await run.call("lsp", {"action": "status"})
    assert status.data["running"][0]["working"].startswith("indexing") and "indexing" in status.text
    client = run.ctx.resources["lsp"].running()[0]
    assert await client.wait_idle(120)
    r = await run.call("lsp", {"action": "symbols", "query": "gzlog_open"})
    assert not r.data["incomplete"] and "may be incomplete" not in r.text
    assert "gzlog_open" in {s["name"] for s in r.data["symbols"]}, r.text
