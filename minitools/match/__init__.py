"""Structural search over tree-sitter: patterns with metavariables, compiled through a
scaffold ladder, matched structurally (REFERENCE.md, "Structural matching").

    pattern = compile_pattern("if ($X != null) $X.dispose()", "dart")
    find_matches(pattern, source_bytes)           # every match, outer first
    Searcher(root).search(pattern, [Path("lib")])  # files, ignore rules, tree cache
"""

from __future__ import annotations

from minitools.match._grammars import (
    GrammarError,
    GrammarSource,
    available_languages,
    grammar_source,
    load_language,
    vendor_grammars,
)
from minitools.match._ladder import ladder_for
from minitools.match._pattern import Pattern, PatternError, compile_pattern
from minitools.match._search import (
    Capture,
    NodeMatch,
    SearchResult,
    find_matches,
    parse_errors,
)
from minitools.match._searcher import PathError, Searcher
from minitools.match._walk import language_for_path

__all__ = [
    "Capture",
    "GrammarError",
    "GrammarSource",
    "NodeMatch",
    "PathError",
    "Pattern",
    "PatternError",
    "SearchResult",
    "Searcher",
    "available_languages",
    "compile_pattern",
    "find_matches",
    "grammar_source",
    "ladder_for",
    "language_for_path",
    "load_language",
    "parse_errors",
    "vendor_grammars",
]
