"""The scaffold ladder, as data: per language, the contexts a pattern fragment is tried in.

A rung is (name, prefix, suffix). The fragment is parsed as ``prefix + fragment + suffix``
with the file's own grammar; the rung accepts when nothing in that parse is an ERROR or
MISSING node and the fragment's byte range is one node, or a run of sibling nodes
(SPEC.md, "A fragment is parsed in a scaffold, not alone"). Several rungs may share a
name: they are variants of one context (say, with and without a closing ``;``). The
first accepting rung wins; error messages name the distinct rungs tried, in order.
"""

from __future__ import annotations

__all__ = ["Rung", "ladder_for", "METAVAR_CHAR"]

Rung = tuple[str, str, str]

# Where `$` cannot be part of an identifier the pattern's `$` becomes a character that
# can (REFERENCE.md, "Structural matching"); languages absent here use `$` as is.
METAVAR_CHAR: dict[str, str] = {
    **dict.fromkeys(
        ["python", "rust", "go", "csharp", "kotlin", "php", "ruby", "swift", "elixir", "haskell"], "µ"
    ),
    "c": "\U00010000",
    "cpp": "\U00010000",
    "css": "_",
    "nix": "_",
}

_C_LIKE_BLOCK = "void __mt(void) {\n"
_LADDERS: dict[str, list[Rung]] = {
    "python": [
        ("statement", "", ""),
        ("expression", "__mt = ", "\n"),
        ("class member", "class __MT:\n    ", "\n"),
    ],
    "javascript": [
        ("statement", "", ""),
        ("expression", "__mt = ", ";"),
        ("class member", "class __MT {\n", "\n}"),
        ("declaration", "", ""),
    ],
    "dart": [
        ("statement", "void __mt() {\n", "\n}"),
        ("statement", "void __mt() {\n", ";\n}"),
        ("expression", "var __mt = ", ";"),
        ("class member", "class __MT {\n", "\n}"),
        ("declaration", "", ""),
    ],
    "go": [
        ("statement", "package __mt\nfunc __mt() {\n", "\n}"),
        ("expression", "package __mt\nvar __mt = ", "\n"),
        ("class member", "package __mt\ntype __MT struct {\n", "\n}"),
        ("declaration", "package __mt\n", "\n"),
        ("declaration", "", ""),
    ],
    "c": [
        ("statement", _C_LIKE_BLOCK, "\n}"),
        ("statement", _C_LIKE_BLOCK, ";\n}"),
        ("expression", "int __mt = ", ";"),
        ("class member", "struct __MT {\n", "\n};"),
        ("declaration", "", ""),
    ],
    "java": [
        ("statement", "class __MT { void __mt() {\n", "\n}}"),
        ("statement", "class __MT { void __mt() {\n", ";\n}}"),
        ("expression", "class __MT { Object __mt = ", ";}"),
        ("class member", "class __MT {\n", "\n}"),
        ("declaration", "", ""),
    ],
    "rust": [
        ("statement", "fn __mt() {\n", "\n}"),
        ("statement", "fn __mt() {\n", ";\n}"),
        ("expression", "const __MT: () = ", ";"),
        ("class member", "impl __MT {\n", "\n}"),
        ("declaration", "", ""),
    ],
}
_LADDERS["typescript"] = _LADDERS["javascript"]
_LADDERS["tsx"] = _LADDERS["javascript"]
_LADDERS["cpp"] = [
    *_LADDERS["c"][:3],
    ("class member", "class __MT {\n", "\n};"),
    ("declaration", "", ""),
]
_LADDERS["csharp"] = [
    ("statement", "class __MT { void __mt() {\n", "\n}}"),
    ("statement", "class __MT { void __mt() {\n", ";\n}}"),
    ("expression", "class __MT { object __mt = ", ";}"),
    ("class member", "class __MT {\n", "\n}"),
    ("declaration", "", ""),
]
_LADDERS["kotlin"] = [
    ("statement", "fun __mt() {\n", "\n}"),
    ("expression", "val __mt = ", "\n"),
    ("class member", "class __MT {\n", "\n}"),
    ("declaration", "", ""),
]
# Any other language: the fragment as a whole file, the way the ast-grep CLI parses it.
_DEFAULT: list[Rung] = [("statement", "", "")]


def ladder_for(language: str) -> list[Rung]:
    """The rungs tried, in order, for `language`."""
    return _LADDERS.get(language, _DEFAULT)
