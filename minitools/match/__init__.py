"""Structural search over tree-sitter: patterns with metavariables, compiled through a
scaffold ladder, matched structurally (docs/reference.md, "Structural matching").

    pattern = compile_pattern("if ($X != null) $X.dispose()", "dart")
    find_matches(pattern, source_bytes)           # every match, outer first
    Searcher(root).search(pattern, [Path("lib")])  # files, ignore rules, tree cache
    Searcher(root, max_seconds=10).search(pattern, max_results=50)  # bounded: docs/tools.md, "Limits"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minitools.exports import lazy_getattr
from minitools.match._budget import DEFAULT_MEMORY_BYTES, DEFAULT_SECONDS, Budget, charge, watched
from minitools.match._by_language import (
    LanguagePlan,
    Skipped,
    UnknownLanguage,
    bound_plan,
    one_language,
    plan_languages,
    search_languages,
)
from minitools.match._catalog import LANGUAGES, Language, ladder_for, language_row, no_files_note
from minitools.match._fork import fork_available, forked_search
from minitools.match._grammars import (
    GrammarError,
    GrammarSource,
    UnsafeSource,
    available_languages,
    grammar_source,
    has_grammar,
    load_language,
    parse_source,
    vendor_grammars,
)
from minitools.match._kind_query import ERROR_KIND, captured, kinds_query
from minitools.match._many_files import PathError, Searcher
from minitools.match._matcher import PROBE_BYTES, MetaVarEnv, match_in_env
from minitools.match._one_file import (
    DEFAULT_MAX_FILE_BYTES,
    Capture,
    NodeMatch,
    SearchResult,
    find_matches,
    has_word,
    node_match,
    parse_errors,
)
from minitools.match._outcome import FilesOutcome
from minitools.match._pattern import (
    MAX_PATTERN_BYTES,
    MAX_PATTERN_DEPTH,
    Pattern,
    PatternError,
    PNode,
    check_fragment,
    compile_pattern,
    parser_for,
)
from minitools.match._regex import Regex, python_regex
from minitools.match._unicode import not_unicode
from minitools.match._walk import LANGUAGE_NAMES, glob_regex, language_for_path, language_named, walk_files

if TYPE_CHECKING:
    from minitools.match._explain import explain_pattern, line_tree, source_tree
    from minitools.match._rewrite import Edit, Template, TemplateError, apply_edits, plan_edits, render
    from minitools.match._strictness import STRICTNESS, match_at_strictness

# rewriting loads on first use: a search (the CLI's cold start) does not pay for it
_LAZY = dict.fromkeys(
    ("Edit", "Template", "TemplateError", "apply_edits", "plan_edits", "render"), "minitools.match._rewrite"
) | dict.fromkeys(("explain_pattern", "line_tree", "source_tree"), "minitools.match._explain") | dict.fromkeys(
    ("STRICTNESS", "match_at_strictness"), "minitools.match._strictness"
)

__all__ = [
    "Budget",
    "Capture",
    "ERROR_KIND",
    "captured",
    "kinds_query",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MEMORY_BYTES",
    "DEFAULT_SECONDS",
    "MAX_PATTERN_BYTES",
    "MAX_PATTERN_DEPTH",
    "Edit",
    "FilesOutcome",
    "GrammarError",
    "GrammarSource",
    "LanguagePlan",
    "MetaVarEnv",
    "NodeMatch",
    "PathError",
    "Pattern",
    "PatternError",
    "PNode",
    "STRICTNESS",
    "SearchResult",
    "Searcher",
    "Skipped",
    "Template",
    "TemplateError",
    "UnknownLanguage",
    "apply_edits",
    "available_languages",
    "check_fragment",
    "compile_pattern",
    "explain_pattern",
    "find_matches",
    "fork_available",
    "forked_search",
    "glob_regex",
    "grammar_source",
    "has_grammar",
    "ladder_for",
    "LANGUAGES",
    "Language",
    "language_row",
    "no_files_note",
    "match_at_strictness",
    "match_in_env",
    "PROBE_BYTES",
    "language_for_path",
    "walk_files",
    "language_named",
    "LANGUAGE_NAMES",
    "line_tree",
    "source_tree",
    "load_language",
    "node_match",
    "bound_plan",
    "one_language",
    "parse_errors",
    "parser_for",
    "plan_edits",
    "plan_languages",
    "render",
    "search_languages",
    "vendor_grammars",
    "watched",
    "Regex",
    "python_regex",
    "UnsafeSource",
    "parse_source",
    "charge",
    "has_word",
    "not_unicode",
]


__getattr__ = lazy_getattr("minitools.match", _LAZY, globals())
