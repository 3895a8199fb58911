"""The public surface of minitools.match, and its layering: it imports only itself."""

from __future__ import annotations

import ast
from pathlib import Path

import minitools.match as match


def test_public_surface_is_pinned() -> None:
    assert sorted(match.__all__) == sorted([
        "Capture", "GrammarError", "GrammarSource", "NodeMatch", "PathError", "Pattern", "PatternError",
        "SearchResult", "Searcher", "Template", "TemplateError", "apply_edits", "available_languages", "check_fragment",
        "compile_pattern", "find_matches", "grammar_source", "has_grammar", "ladder_for", "language_for_path", "load_language",
        "parse_errors", "plan_edits", "vendor_grammars",
        "LanguagePlan", "Skipped", "UnknownLanguage", "bound_plan", "one_language", "plan_languages", "search_languages",
        "Budget", "DEFAULT_MAX_FILE_BYTES", "DEFAULT_MEMORY_BYTES", "DEFAULT_SECONDS", "MAX_PATTERN_BYTES",
        "MAX_PATTERN_DEPTH",
        # what the rule engine (minitools.rules) and the rule scan build on
        "Edit", "MetaVarEnv", "glob_regex", "match_in_env", "PROBE_BYTES", "node_match", "parser_for", "render", "explain_pattern",
        "line_tree", "source_tree", "FilesOutcome", "fork_available", "forked_search",
        # the whole-word test the pattern pre-filter and the rule scan's word pre-filter share
        "has_word",
        # text no file can hold (a lone surrogate), refused where a pattern, template, rule or code is read
        "not_unicode",
        # the workspace walk (ignore files, hidden and dependency folders), for the files a write may break
        "walk_files",
        # pattern strictness, for a rule's `pattern: {context, strictness}`
        "PNode", "STRICTNESS", "match_at_strictness",
        # a rule scan's budget, watched inside a match, and charged with what its transforms build
        "watched", "charge",
        # regexes in linear time (a rule's regex and replace, ignore-file globs), in Rust's syntax
        "Regex", "python_regex",
        # a language as callers name it ("TypeScript", "ts", "C++")
        "language_named", "LANGUAGE_NAMES",
        # the language catalog: a row per language, what the rules and tools ask about one
        "LANGUAGES", "Language", "language_row", "no_files_note",
        # a file parsed, refused first when its parser would crash on it (deeply nested YAML)
        "UnsafeSource", "parse_source",
        # the nodes of given kinds, found by one query: the matcher's candidates and a rule scan's
        "ERROR_KIND", "captured", "kinds_query",
    ])
    assert issubclass(match.PatternError, ValueError)


def test_match_imports_only_itself_tree_sitter_and_the_stdlib() -> None:
    import sys

    package = Path(match.__file__).parent
    for file in package.glob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                # minitools.exports: the stdlib-only lazy-export helper every package __init__ uses
                ok = (name.startswith("minitools.match") or name == "minitools.exports"
                      or top in {"tree_sitter", "tree_sitter_language_pack", "__future__"} or top in sys.stdlib_module_names)
                assert ok, f"{file.name} imports {name}"


def test_a_language_lives_in_its_catalog_row_only() -> None:
    """No module of match/ or rules/ but the catalog keeps a table keyed by language: a new
    language is a row of match/_catalog.py (docs/architecture.md, "Adding a language")."""
    root = Path(match.__file__).parent.parent
    names = set(match.LANGUAGES)
    offenders = []
    for file in sorted([*(root / "match").glob("*.py"), *(root / "rules").glob("*.py")]):
        if file.name == "_catalog.py":
            continue
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            keys = node.keys if isinstance(node, ast.Dict) else []
            if sum(isinstance(k, ast.Constant) and k.value in names for k in keys) >= 1:
                offenders.append(f"{file.name}:{node.lineno}")
            is_fromkeys = (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                           and node.func.attr == "fromkeys" and node.args and isinstance(node.args[0], ast.List)
                           and any(isinstance(e, ast.Constant) and e.value in names for e in node.args[0].elts))
            if is_fromkeys:
                offenders.append(f"{file.name}:{node.lineno}")
    assert not offenders, f"per-language tables outside match/_catalog.py: {offenders}"


def test_catalog_rows_are_consistent() -> None:
    """Every row's grammar is in the pack, no extension or name belongs to two rows, and every
    rung of a ladder parses as its language (a scaffold with an empty fragment)."""
    from minitools.match import available_languages

    pack = set(available_languages())
    seen: dict[str, str] = {}
    for row in match.LANGUAGES.values():
        assert row.id in pack, row.id
        for key in (*row.extensions, *row.names):
            assert seen.setdefault(key, row.id) == row.id, f"{key} is in {seen[key]} and {row.id}"
        assert all(ext.startswith(".") and ext == ext.lower() for ext in row.extensions), row.id
        assert len(row.metavar_char) == 1, row.id
    assert match.language_row("no-such-grammar").rungs == (("statement", "", ""),)
