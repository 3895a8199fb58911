"""symbol_edit with the symbol's extent from real servers (basedpyright, typescript-language-server,
clangd 16): a definition replaced whole, code inserted before and after it, staged until resolve
accepts it, and the accept's new diagnostics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lsp_support import write

PY = '''import functools


class Cart:
    """A cart."""

    def __init__(self) -> None:
        self.items: list[int] = []

    @functools.cache
    def total(self) -> int:
        return sum(self.items)


def main() -> None:
    print(Cart().total())
'''
TS = '''export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private side: number) {}

  area(): number {
    return this.side * this.side;
  }
}

/** Makes a square. */
export function makeSquare(side: number): Shape {
  return new Square(side);
}
'''
C = '''#include <stdio.h>

/* Adds two ints. */
static int add(int a, int b) {
    return a + b;
}

int main(void) {
    printf("%d\\n", add(1, 2));
    return 0;
}
'''
CLANGD_16 = ('[[lsp.servers]]\nid = "clangd"\ncommand = ["clangd-16", "--log=error"]\nlanguages = ["c"]\n'
             'extensions = [".c", ".h"]\nroot_markers = ["compile_flags.txt"]\n')


async def _accept(run: Any, staged: Any) -> Any:
    assert staged.ok, staged.text
    return await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})


async def test_replace_a_decorated_method_on_basedpyright_and_see_what_it_broke(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "cart.py": PY})
    run = run_factory(root)
    staged = await run.call("symbol_edit", {"file": "cart.py", "line": 11, "symbol": "total", "action": "replace",
                                            "code": "@functools.cache\ndef total(self) -> int:\n    return sum(self.items) + missing\n"})
    assert staged.ok and staged.data["by"] == "basedpyright", staged.text
    assert staged.data["extent"] == {"start_line": 10, "end_line": 12}  # the decorator is part of it
    assert "+        return sum(self.items) + missing" in staged.text
    assert (root / "cart.py").read_text() == PY  # staged, not written
    accepted = await _accept(run, staged)
    assert accepted.ok, accepted.text
    assert (root / "cart.py").read_text() == PY.replace("sum(self.items)\n", "sum(self.items) + missing\n")
    assert '"missing" is not defined' in accepted.text  # the write-time diagnostics of the accept


async def test_insert_after_and_before_a_method_keep_the_spacing_of_its_siblings(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "cart.py": PY})
    run = run_factory(root)
    after = await run.call("symbol_edit", {"file": "cart.py", "line": 7, "symbol": "__init__", "action": "insert_after",
                                           "code": "def count(self) -> int:\n    return len(self.items)"})
    assert after.data["new_lines"] == {"start_line": 10, "end_line": 11}, after.text
    accepted = await _accept(run, after)
    assert accepted.ok, accepted.text
    text = (root / "cart.py").read_text()
    assert ("        self.items: list[int] = []\n\n    def count(self) -> int:\n        return len(self.items)\n\n"
            "    @functools.cache\n") in text
    before = await run.call("symbol_edit", {"file": "cart.py", "line": 18, "symbol": "main", "action": "insert_before",
                                            "code": "    def helper() -> int:\n        return 1\n"})
    assert (await _accept(run, before)).ok
    assert "\n\n\ndef helper() -> int:\n    return 1\n\n\ndef main() -> None:\n" in (root / "cart.py").read_text()


async def test_typescript_a_method_replaced_and_code_put_above_a_doc_comment(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["*.ts"]}',
                                     "shapes.ts": TS})
    run = run_factory(root)
    replaced = await run.call("symbol_edit", {"file": "shapes.ts", "line": 8, "symbol": "area", "action": "replace",
                                              "code": "area(): number {\n  return this.side ** 2;\n}"})
    assert replaced.data["by"] == "typescript-language-server" and replaced.data["kind"] == "method", replaced.text
    assert (await _accept(run, replaced)).ok
    inserted = await run.call("symbol_edit", {"file": "shapes.ts", "line": 14, "symbol": "makeSquare",
                                              "action": "insert_before", "code": "export const UNIT = 1;"})
    assert (await _accept(run, inserted)).ok
    assert (root / "shapes.ts").read_text() == TS.replace("this.side * this.side", "this.side ** 2").replace(
        "/** Makes", "export const UNIT = 1;\n\n/** Makes")


async def test_c_function_replaced_by_clangd_16s_extent(tmp_path: Path, run_factory: Any, clangd_16: str) -> None:
    root = write(tmp_path / "proj", {"compile_flags.txt": "-std=c11\n", "m.c": C, "minitools.toml": CLANGD_16})
    run = run_factory(root, config=True)
    staged = await run.call("symbol_edit", {"file": "m.c", "line": 4, "symbol": "add", "action": "replace",
                                            "code": "static int add(int a, int b) {\n    return b + a;\n}"})
    assert staged.data["by"] == "clangd" and staged.data["extent"] == {"start_line": 4, "end_line": 6}, staged.text
    assert (await _accept(run, staged)).ok
    assert (root / "m.c").read_text() == C.replace("return a + b;", "return b + a;")
    use = await run.call("symbol_edit", {"file": "m.c", "line": 9, "symbol": "add", "action": "replace", "code": "x"})
    assert not use.ok and '"add" on line 9 of m.c names no definition there' in use.text
    assert 'printf("%d\\n", add(1, 2));' in use.text


async def test_an_edit_staged_before_the_file_changed_is_refused(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "cart.py": PY})
    run = run_factory(root)
    staged = await run.call("symbol_edit", {"file": "cart.py", "line": 15, "symbol": "main", "action": "replace",
                                            "code": "def main() -> None:\n    pass"})
    assert staged.ok, staged.text
    (root / "cart.py").write_text(PY + "\nmain()\n")
    refused = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
    assert not refused.ok and "cart.py changed since the edit was staged" in refused.text
    assert (root / "cart.py").read_text() == PY + "\nmain()\n"


async def test_pylsps_flat_symbols_name_a_definition_only_on_its_own_line(tmp_path: Path, run_factory: Any) -> None:
    """pylsp answers SymbolInformation (a location, no selection range): a use inside a function
    does not name the function around it."""
    root = write(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "demo"\n', "cart.py": PY})
    run = run_factory(root, lsp_servers={"python": ["pylsp"]})
    use = await run.call("symbol_edit", {"file": "cart.py", "line": 16, "symbol": "total", "action": "replace", "code": "x"})
    assert not use.ok and '"total" on line 16 of cart.py names no definition there' in use.text, use.text
    staged = await run.call("symbol_edit", {"file": "cart.py", "line": 15, "symbol": "main", "action": "insert_after",
                                            "code": "def other() -> None:\n    pass"})
    assert staged.ok and staged.data["by"] == "pylsp" and staged.data["extent"]["start_line"] == 15, staged.text
    assert (await _accept(run, staged)).ok
    assert (root / "cart.py").read_text() == PY + "\n\ndef other() -> None:\n    pass\n"


GREET = {"name": "greet", "kind": 6, "selectionRange": {"start": {"line": 4, "character": 8}, "end": {"line": 4, "character": 13}}}


@pytest.mark.parametrize("answer", [
    {"not": "a list"},  # no documentSymbol answer at all
    [dict(GREET, range={"start": {"line": 500, "character": 0}, "end": {"line": 900, "character": 0}})],  # past the file
])
async def test_a_server_answer_that_cannot_be_trusted_leaves_the_extent_to_the_parser(py_project: Path, hostile: Any,
                                                                                      answer: Any) -> None:
    run = hostile(py_project, {"capabilities": {"documentSymbolProvider": True},
                               "answers": {"textDocument/documentSymbol": answer}})
    staged = await run.call("symbol_edit", {"file": "a.py", "line": 5, "symbol": "greet", "action": "replace",
                                            "code": "def greet(self, name: str) -> str:\n    return name"})
    assert staged.ok and staged.data["by"] == "parser" and staged.data["extent"] == {"start_line": 5, "end_line": 6}, staged.text
    assert "-        return \"héllo😀 \" + name\n+        return name" in staged.text
