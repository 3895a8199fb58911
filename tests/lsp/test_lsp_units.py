"""Pure parts of the client: column conversion, symbol addressing, workspace edits."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minitools.lsp import EditError, apply_plan, apply_text_edits, from_lsp_column, path_to_uri, plan_workspace_edit, to_lsp_column
from minitools.tools.lsp import locate_symbol
from minitools.toolspec import ToolError

LINE = 's = "héllo😀"; g.greet(s)'


def test_columns_in_each_encoding() -> None:
    col = LINE.index("g.greet")  # 14 code points
    assert to_lsp_column(LINE, col, "utf-32") == 14
    assert to_lsp_column(LINE, col, "utf-16") == 15  # 😀 is two UTF-16 units
    assert to_lsp_column(LINE, col, "utf-8") == 18  # é 2 bytes, 😀 4 bytes
    for enc in ("utf-8", "utf-16", "utf-32"):
        assert from_lsp_column(LINE, to_lsp_column(LINE, col, enc), enc) == col
    assert from_lsp_column(LINE, 999, "utf-16") == len(LINE)


@given(st.text(max_size=30), st.data())
def test_column_round_trip(line: str, data: st.DataObject) -> None:
    col = data.draw(st.integers(0, len(line)))
    for enc in ("utf-8", "utf-16", "utf-32"):
        assert from_lsp_column(line, to_lsp_column(line, col, enc), enc) == col


def test_symbol_addressing_rules() -> None:
    assert locate_symbol(LINE, "greet", "a.py", 3) == LINE.index("greet")
    with pytest.raises(ToolError, match=r'"nope" is not on line 3 of a\.py'):
        locate_symbol(LINE, "nope", "a.py", 3)
    # "s" occurs inside other words: ambiguous, and the message shows where
    with pytest.raises(ToolError, match="ambiguous"):
        locate_symbol("foo(food)", "foo", "a.py", 1)
    # every occurrence is the same whole name: fine, the first is used
    assert locate_symbol("x = x + 1", "x", "a.py", 1) == 0
    # a substring with punctuation points at its identifier
    assert locate_symbol("return self.value", ".value", "a.py", 1) == len("return self.")


def test_text_edits_and_overlap() -> None:
    text = "héllo😀 world\nsecond\n"
    edits = [{"range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 13}}, "newText": "there"},
             {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 6}}, "newText": "2nd"}]
    assert apply_text_edits(text, edits, "utf-16") == "héllo😀 there\n2nd\n"
    overlapping = edits + [{"range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 10}}, "newText": ""}]
    with pytest.raises(EditError, match="overlap"):
        apply_text_edits(text, overlapping, "utf-16")


def test_both_edit_forms_and_resource_operations(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("old = 1\n")
    (tmp_path / "b.py").write_text("from a import old\n")
    rng = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}
    edit = {"documentChanges": [
        {"textDocument": {"uri": path_to_uri(tmp_path / "a.py"), "version": 3}, "edits": [{"range": rng, "newText": "new"}]},
        {"kind": "rename", "oldUri": path_to_uri(tmp_path / "a.py"), "newUri": path_to_uri(tmp_path / "c.py")},
        {"kind": "create", "uri": path_to_uri(tmp_path / "d.py")},
    ]}
    plan = plan_workspace_edit(edit, "utf-16", top=tmp_path, versions={path_to_uri(tmp_path / "a.py"): 3})
    apply_plan(plan)
    assert not (tmp_path / "a.py").exists() and (tmp_path / "c.py").read_text() == "new = 1\n" and (tmp_path / "d.py").read_text() == ""
    import_site = {"start": {"line": 0, "character": 14}, "end": {"line": 0, "character": 17}}
    changes = {"changes": {path_to_uri(tmp_path / "b.py"): [{"range": import_site, "newText": "new"}]}}
    apply_plan(plan_workspace_edit(changes, "utf-16", top=tmp_path))
    assert (tmp_path / "b.py").read_text() == "from a import new\n"


def test_all_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    rng = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
    stale = {"documentChanges": [{"textDocument": {"uri": path_to_uri(tmp_path / "a.py"), "version": 1}, "edits": [{"range": rng, "newText": "y"}]}]}
    with pytest.raises(EditError, match="version 1"):
        plan_workspace_edit(stale, "utf-16", top=tmp_path, versions={path_to_uri(tmp_path / "a.py"): 2})
    outside = {"changes": {path_to_uri(tmp_path.parent / "elsewhere.py"): [{"range": rng, "newText": "y"}]}}
    with pytest.raises(EditError, match="outside the workspace root"):
        plan_workspace_edit(outside, "utf-16", top=tmp_path)
    # a file changed between planning and writing: nothing is written
    (tmp_path / "b.py").write_text("x = 2\n")
    two = {"changes": {path_to_uri(tmp_path / n): [{"range": rng, "newText": "z"}] for n in ("a.py", "b.py")}}
    plan = plan_workspace_edit(two, "utf-16", top=tmp_path)
    (tmp_path / "b.py").write_text("x = 3\n")
    with pytest.raises(EditError, match="changed on disk"):
        apply_plan(plan)
    assert (tmp_path / "a.py").read_text() == "x = 1\n" and (tmp_path / "b.py").read_text() == "x = 3\n"


def test_layering_and_public_surface() -> None:
    import ast

    import minitools.lsp as lsp
    import minitools.transport as transport

    allowed = {"transport": {"protocol", "tracing", "transport"}, "lsp": {"protocol", "transport", "tracing", "lsp"}}
    for package, ok in allowed.items():
        folder = Path(__file__).resolve().parents[2] / "minitools" / package
        for path in folder.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("minitools"):
                    inner = node.module.split(".")[1] if "." in node.module else ""
                    assert inner in ok, f"minitools/{package}/{path.name} imports {node.module}"
    assert {"ChildProcess", "ChildExited", "FramedConnection", "JSONRPCEndpoint", "RPCError", "StderrRing"} <= set(transport.__all__)
    assert {"Supervisor", "LSPClient", "CATALOG", "plan_workspace_edit", "apply_plan"} <= set(lsp.__all__)
    python = [s.id for s in lsp.CATALOG if "python" in s.languages]
    assert python == ["basedpyright", "pyright", "pylsp", "jedi-language-server"]
    assert {s.id for s in lsp.CATALOG} >= {"typescript-language-server", "clangd", "gopls", "rust-analyzer", "dart"}


def test_lines_are_counted_as_lsp_counts_them() -> None:
    from minitools.lsp import split_lines

    assert split_lines("a\x0cb\nc\r\nd\re\u2028f\n") == ["a\x0cb", "c", "d", "e\u2028f"]


def test_languages_and_language_ids_by_extension() -> None:
    from minitools.lsp import language_id, language_of

    cases = {"a.py": ("python", "python"), "a.ts": ("typescript", "typescript"),
             "a.tsx": ("typescript", "typescriptreact"), "a.mts": ("typescript", "typescript"),
             "a.js": ("javascript", "javascript"), "a.jsx": ("javascript", "javascriptreact"),
             "a.cjs": ("javascript", "javascript"), "a.c": ("c", "c"), "a.h": ("c", "c"), "a.hpp": ("cpp", "cpp"),
             "a.cc": ("cpp", "cpp"), "a.go": ("go", "go"), "a.rs": ("rust", "rust"), "a.txt": (None, "plaintext")}
    assert {name: (language_of(name), language_id(name)) for name in cases} == cases
