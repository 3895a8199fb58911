"""Pure parts of the client: column conversion, symbol addressing, workspace edits, which server's
language a file is."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minitools.lsp import EditError, apply_plan, apply_text_edits, from_lsp_column, language_id, language_of, path_to_uri, plan_workspace_edit, to_lsp_column
from minitools.lsp._catalog import BUILT_IN
from minitools.lsp._client import LSPClient
from minitools.tools._symbol_address import resolve_symbol
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


def column_of(body: str, symbol: str, language: str = "python") -> int:
    return resolve_symbol(body, symbol, language, "a.py", 1).column


def test_symbol_addressing_rules() -> None:
    assert column_of(LINE, "greet") == LINE.index("greet")
    with pytest.raises(ToolError, match=r'"nope" is not on line 1 of a\.py'):
        column_of(LINE, "nope")
    # once as a whole word, also inside a longer name: the whole word
    assert column_of("sq = make_square(2.0)", "sq") == 0
    assert column_of("foo(food)", "foo") == 0
    # only inside longer names, once: that one; several times: refused, each listed with text that picks it
    assert column_of("a_x = b", "_x") == 1
    with pytest.raises(ToolError, match=r'occurs 2 times \(column 2 in "a_x": "a_x"; column 8 in "b_x": "b_x"\)'):
        column_of("a_x = b_x", "_x")
    # several whole-word occurrences: refused, and the listed text resolves to each one
    with pytest.raises(ToolError, match=r'as a whole word 2 times \(column 1: "x ="; column 5: "= x"\)'):
        column_of("x = x + 1", "x")
    assert column_of("x = x + 1", "x =") == 0 and column_of("x = x + 1", "= x") == 4
    # the last identifier the symbol writes: never the receiver of a qualified name
    assert column_of("return self.value", "self.value") == len("return self.")
    assert column_of("    gz.fd = open(name, O_RDWR, 0);", "gz.fd", "c") == 7
    assert column_of("f(make_square(2.0))", "make_square(") == 2
    # identifier rules by language: `$` is part of a JS name, not of a Python one
    assert column_of("const $el = el;", "el", "javascript") == len("const $el = ")
    with pytest.raises(ToolError, match="ambiguous"):
        column_of("a = $el + el", "el")


def test_a_repeated_name_says_which_occurrence_was_used() -> None:
    at = resolve_symbol("        self.plugin = plugin", "= plugin", "python", "m.py", 138)
    assert (at.name, at.column, at.occurrence, at.occurrences) == ("plugin", 22, 2, 2)
    assert at.note(138) == '"plugin" occurs 2 times on line 138; used the 2nd (column 23).'
    assert resolve_symbol("sq = make_square(2.0)", "sq", "python", "m.py", 1).note(1) == ""


def test_text_edits_and_overlap() -> None:
    text = "héllo😀 world\nsecond\n"
    edits = [{"range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 13}}, "newText": "there"},
             {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 6}}, "newText": "2nd"}]
    assert apply_text_edits(text, edits, "utf-16") == "héllo😀 there\n2nd\n"
    overlapping = edits + [{"range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 10}}, "newText": ""}]
    with pytest.raises(EditError, match="overlap"):
        apply_text_edits(text, overlapping, "utf-16")


def test_text_edits_keep_a_crlf_documents_line_endings() -> None:
    insert = [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "newText": "x = 1\ny = 2\n"}]
    assert apply_text_edits("a\r\nb\r\n", insert, "utf-16") == "a\r\nx = 1\r\ny = 2\r\nb\r\n"
    # new text already in CRLF stays as it is; a document with mixed endings is left to the server
    crlf = [{**insert[0], "newText": "x = 1\r\n"}]
    assert apply_text_edits("a\r\nb\r\n", crlf, "utf-16") == "a\r\nx = 1\r\nb\r\n"
    assert apply_text_edits("a\r\nb\n", insert, "utf-16") == "a\r\nx = 1\ny = 2\nb\n"
    assert apply_text_edits("a\nb\n", insert, "utf-16") == "a\nx = 1\ny = 2\nb\n"


def test_an_edit_to_a_file_that_is_not_utf8_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "latin.py").write_bytes(b"name = 'caf\xe9'\n")
    edit = {"changes": {path_to_uri(tmp_path / "latin.py"): [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 4}}, "newText": "label"}]}}
    with pytest.raises(EditError, match=r"latin.py is not UTF-8 text \(byte 11\); nothing was written"):
        plan_workspace_edit(edit, "utf-16", top=tmp_path)
    assert (tmp_path / "latin.py").read_bytes() == b"name = 'caf\xe9'\n"


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
    import minitools.lsp as lsp
    import minitools.transport as transport

    # what lsp and transport may import: tests/core/test_layering.py
    assert {"ChildProcess", "ChildExited", "FramedConnection", "JSONRPCEndpoint", "RPCError", "StderrRing"} <= set(transport.__all__)
    assert {"Supervisor", "LSPClient", "CATALOG", "plan_workspace_edit", "apply_plan"} <= set(lsp.__all__)
    python = [s.id for s in lsp.CATALOG if "python" in s.languages]
    assert python == ["basedpyright", "pyright", "pylsp", "jedi-language-server"]
    assert {s.id for s in lsp.CATALOG} >= {"typescript-language-server", "clangd", "gopls", "rust-analyzer", "dart"}


def test_lines_are_counted_as_lsp_counts_them() -> None:
    from minitools.lsp import split_lines

    assert split_lines("a\x0cb\nc\r\nd\re\u2028f\n") == ["a\x0cb", "c", "d", "e\u2028f"]


def test_a_refusal_on_a_minified_line_is_bounded() -> None:
    body = "var a=b(a,c);" * 8000
    with pytest.raises(ToolError) as caught:
        resolve_symbol(body, "a", "javascript", "min.js", 1)
    message = str(caught.value)
    assert "occurs as a whole word 16000 times" in message and "; and 15990 more" in message
    assert len(message) < 2000 and "(103600 more characters)" in message


def test_which_servers_diagnose_across_files() -> None:
    # a write is checked for the files that depend on it only where a file's diagnostics can
    # depend on another file (docs/tools.md, "Write-time diagnostics"); measured per server in
    # docs/reference.md (pylsp republishes no other file; typescript-language-server nothing for a
    # file that stays clean)
    from minitools.lsp import CATALOG

    assert {s.id for s in CATALOG if s.single_file_diagnostics} == {
        "pylsp", "jedi-language-server", "bash-language-server", "yaml-language-server", "vscode-json-language-server",
        "vscode-css-language-server", "vscode-html-language-server", "dockerfile-language-server"}
    assert [s.id for s in CATALOG if s.silent_when_clean] == ["typescript-language-server"]


@pytest.mark.parametrize(("path", "language", "language_id_"), [
    ("Dockerfile", "dockerfile", "dockerfile"), ("web/Dockerfile.prod", "dockerfile", "dockerfile"),
    ("Containerfile", "dockerfile", "dockerfile"), ("ci/build.dockerfile", "dockerfile", "dockerfile"),
    ("src/shapes.F90", "fortran", "fortran"), ("old.f", "fortran", "fortran"),
    ("lib/Greeter.pm", "perl", "perl"), ("t/basic.t", "perl", "perl"),
    ("Dockerfiles.txt", None, "plaintext"), ("notes.prod", None, "plaintext"),
])
def test_a_file_is_served_by_its_extension_or_its_name(path: str, language: str | None, language_id_: str) -> None:
    # a Dockerfile has no extension: the catalog row names it (`file_names`), Dockerfile.prod too
    assert (language_of(path), language_id(path)) == (language, language_id_)


async def test_publishes_in_one_burst_are_one_answer_where_the_row_says_so(tmp_path: Path) -> None:
    # Perl::LanguageServer 2.5 publishes a file's errors and an empty list at once, in a random order
    perl = BUILT_IN.spec("perl-language-server")
    uri = path_to_uri(tmp_path / "broken.pl")
    error = {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 0}}, "message": "syntax error"}
    for order in ([error], []), ([], [error]):
        client = LSPClient(perl, tmp_path, ["perl"], None)
        for diagnostics in order:
            client._publish({"uri": uri, "diagnostics": diagnostics})
        assert client.diagnostics[uri] == [error]
        # a publish after the burst is a new answer: the file was fixed
        client._diag_time[uri] -= 1.0
        client._publish({"uri": uri, "diagnostics": []})
        assert client.diagnostics[uri] == []
    # any other server's last publish is its answer
    client = LSPClient(replace(perl, merge_burst=0.0), tmp_path, ["perl"], None)
    client._publish({"uri": uri, "diagnostics": [error]})
    client._publish({"uri": uri, "diagnostics": []})
    assert client.diagnostics[uri] == []
