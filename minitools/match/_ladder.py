"""The scaffold ladder, as data: per language, the contexts a pattern fragment is tried in.

A rung is (name, prefix, suffix). The fragment is parsed as ``prefix + fragment + suffix``
with the file's own grammar; the rung accepts when that parse has no ERROR or MISSING node
(but those only a metavariable causes) and the fragment's byte range is one node, or a run of
sibling nodes. Several rungs may share a name: they are variants of one context (say, with
and without a closing ``;``). Every accepting rung contributes its tree and the pattern
matches any of them (docs/architecture.md, "Matcher"); error messages name the distinct
rungs tried, in order.
"""

from __future__ import annotations

__all__ = ["Rung", "ladder_for", "METAVAR_CHAR", "SUB_CONSTRUCTS", "STATEMENT_END", "HOLE_KINDS", "TYPE_LOOKALIKES", "BODY_RUNS", "SPECIFIERS"]

Rung = tuple[str, str, str]

# Where `$` cannot be part of an identifier the pattern's `$` becomes a character that
# can (docs/reference.md, "Structural matching"); languages absent here use `$` as is.
METAVAR_CHAR: dict[str, str] = {
    **dict.fromkeys(
        ["python", "rust", "go", "csharp", "kotlin", "php", "ruby", "swift", "elixir", "haskell"], "µ"
    ),
    "c": "\U00010000",
    "cpp": "\U00010000",
    "css": "_",
    "nix": "_",
}

# Where a `$$$` before `}` is read as something other than statements unless it is followed by
# the token that ends a statement, the fragment is also tried with that token written there
# (and left out of the pattern): Dart reads `if ($C) { $$$ }` as an `if` whose body is a set
# literal, `if ($C) { $$$; }` as one whose body is a block; C# reads that body as an initializer.
STATEMENT_END: dict[str, str] = {"dart": ";", "csharp": ";"}

# Rungs that exist for one kind of node accept only a hole that is one node of that kind: a
# decorator scaffold must not turn `Promise<$T>` into a comparison with the method after it.
HOLE_KINDS: dict[str, frozenset[str]] = {
    "decorator": frozenset({"decorator"}),
    "annotation": frozenset({"annotation", "marker_annotation", "attribute_list"}),
}

# A fragment that reads as an expression means the expression, and its type reading is dropped,
# except where the expression is one a type is spelled like and the person may mean either: in
# TypeScript `Promise<$T>` (an instantiation expression, or the generic type of a signature) and
# `$A | undefined` (a bitwise or, or a union type), and a qualified name in Go, Java and Rust.
# `($$$P) => $B` means arrow functions, not function types.
TYPE_LOOKALIKES: dict[str, frozenset[str]] = {
    "typescript": frozenset({"instantiation_expression", "binary_expression"}),
    "tsx": frozenset({"instantiation_expression", "binary_expression"}),
    # a qualified name: Go `unsafe.Pointer`, Java `Map.Entry`, Rust `io::Result` as a type too
    "go": frozenset({"selector_expression"}),
    "java": frozenset({"field_access"}),
    "rust": frozenset({"scoped_identifier"}),
}

# A type written with its body and the `;` that ends its declaration (C `struct $S { $$$F };`)
# means the type: at file scope the grammar gives the specifier and the `;` as siblings, in a
# function the `;` ends a declaration of which the specifier is the type. The specifier alone
# matches both, and its extent leaves the `;` out.
SPECIFIERS: dict[str, frozenset[str]] = {
    "c": frozenset({"struct_specifier", "union_specifier", "enum_specifier"}),
    "cpp": frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"}),
}

# A body node with no brackets of its own, which a hole is only where the scaffold wrote the
# body (Python's class body, when the fragment is two statements): the statements it holds.
BODY_RUNS: dict[str, frozenset[str]] = {"python": frozenset({"block"})}

_C_LIKE_BLOCK = "void __mt(void) {\n"
_LADDERS: dict[str, list[Rung]] = {
    "python": [
        ("statement", "", ""),
        ("expression", "__mt = ", "\n"),
        ("class member", "class __MT:\n    ", "\n"),
        ("decorator", "", "\ndef __mt(): pass\n"),
    ],
    "javascript": [
        ("statement", "", ""),
        ("expression", "__mt = ", ";"),
        ("class member", "class __MT {\n", "\n}"),
        ("decorator", "class __MT {\n", "\n__mt() {}\n}"),
        ("decorator", "", "\nclass __MT {}"),
    ],
    "dart": [
        ("statement", "void __mt() {\n", "\n}"),
        ("statement", "void __mt() {\n", ";\n}"),
        ("expression", "var __mt = ", ";"),
        ("class member", "class __MT {\n", "\n}"),
        ("class member", "class __MT {\n", ";\n}"),
        ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
        ("declaration", "", ""),
    ],
    "go": [
        ("statement", "package __mt\nfunc __mt() {\n", "\n}"),
        ("expression", "package __mt\nvar __mt = ", "\n"),
        ("class member", "package __mt\ntype __MT struct {\n", "\n}"),
        ("type", "package __mt\nvar __mt ", "\n"),
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
        ("type", "class __MT { ", " __mt; }"),
        ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
        ("declaration", "", ""),
    ],
    "rust": [
        ("statement", "fn __mt() {\n", "\n}"),
        ("statement", "fn __mt() {\n", ";\n}"),
        ("expression", "const __MT: () = ", ";"),
        ("class member", "impl __MT {\n", "\n}"),
        ("class member", "struct __MT {\n", "\n}"),
        ("type", "type __MT = ", ";"),
        ("declaration", "", ""),
    ],
}
# TypeScript adds the places only types and interface members are written in (`Promise<$T>`
# read as a statement is an instantiation expression, not the generic type of a signature).
_LADDERS["typescript"] = [
    *_LADDERS["javascript"],
    ("type", "let __mt: ", ";"),
    ("interface member", "interface __MT {\n", "\n}"),
]
_LADDERS["tsx"] = _LADDERS["typescript"]
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
    ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
    ("type", "class __MT { ", " __mt; }"),
    ("declaration", "", ""),
]
_LADDERS["kotlin"] = [
    ("statement", "fun __mt() {\n", "\n}"),
    ("expression", "val __mt = ", "\n"),
    ("class member", "class __MT {\n", "\n}"),
    ("annotation", "class __MT {\n", "\nfun __mt() {}\n}"),
    ("declaration", "", ""),
]

# Sub-constructs: the places a fragment cut from inside a construct is written (an argument, a
# parameter, a case or match arm, a catch or except clause, an import clause, a struct literal's
# field, a comprehension's clause). They come after the rungs above and read a fragment only as
# one node (`$A, $B` is no run of arguments), and, like a class member, such a reading is dropped
# when the fragment reads as an expression (`$A = $B` in Python is no keyword argument:
# docs/architecture.md, "Matcher"). Where a prefix ends a line with an indentation (Python), the
# fragment's later lines are indented by as much.
_C_SWITCH = _C_LIKE_BLOCK + "switch (__mt) {\n"
_SUB: dict[str, list[Rung]] = {
    "python": [
        ("argument", "__mt(", ")"),
        ("parameter", "def __mt(", "): pass"),
        ("clause", "try:\n    pass\n", ""),
        ("clause", "if __mt:\n    pass\n", ""),
        ("clause", "[__mt for __mt in __mt ", "]"),
        ("case", "match __mt:\n    ", ""),
        ("dictionary entry", "{", "}"),
        ("import", "from __mt import ", ""),
    ],
    "javascript": [
        ("argument", "__mt(", ");"),
        ("parameter", "function __mt(", ") {}"),
        ("object entry", "__mt = {", "};"),
        ("case", "switch (__mt) {\n", "\n}"),
        ("clause", "try {} ", ""),
        ("import", "import ", " from '__mt';"),
        ("parameter list", "function __mt", " {}"),
    ],
    "go": [
        ("argument", "package __mt\nvar __mt = __mt(", ")\n"),
        ("parameter", "package __mt\nfunc __mt(", ") {}\n"),
        ("case", "package __mt\nfunc __mt() {\nswitch __mt {\n", "\n}\n}\n"),
        ("clause", "package __mt\nfunc __mt() {\nfor ", " {}\n}\n"),
        ("composite literal entry", "package __mt\nvar __mt = __MT{", "}\n"),
        ("import", "package __mt\nimport ", "\n"),
        ("parameter list", "package __mt\nfunc __mt", " {}\n"),
    ],
    "c": [
        ("argument", "int __mt = __mt(", ");"),
        ("parameter", "void __mt(", ");"),
        ("case", _C_SWITCH, "\n}\n}"),
        ("initializer entry", "int __mt = {", "};"),
        ("preprocessor", "", "\n#endif\n"),
        ("parameter list", "void __mt", ";"),
    ],
    "java": [
        ("argument", "class __MT { Object __mt = __mt(", "); }"),
        ("parameter", "class __MT { void __mt(", ") {} }"),
        ("case", "class __MT { void __mt() {\nswitch (__mt) {\n", "\n}\n}}"),
        ("clause", "class __MT { void __mt() {\ntry {} ", "\n}}"),
        ("parameter", "class __MT { void __mt() {\ntry {} catch (", ") {}\n}}"),
        ("parameter list", "class __MT { void __mt", " {} }"),
        ("modifiers", "class __MT { ", " void __mt() {} }"),
        ("type argument", "class __MT { __MT", " __mt; }"),
        ("constructor statement", "class __MT { __MT() {\n", "\n}}"),
        ("body", "class __MT ", ""),
    ],
    "rust": [
        ("argument", "const __MT: () = __mt(", ");"),
        ("parameter", "fn __mt(", ") {}"),
        ("match arm", "fn __mt() {\nmatch __mt {\n", "\n}\n}"),
        ("struct literal field", "const __MT: () = __MT {", "};"),
        ("clause", "fn __mt() {\nif ", " {}\n}"),
        ("import", "use ", ";"),
        ("parameter list", "fn __mt", " {}"),
        ("modifiers", "", " fn __mt() {}"),
        ("parameter list", "const __MT: () = ", " ();"),
        ("type parameter", "fn __mt", "() {}"),
        ("clause", "fn __mt() {\nif __mt {} ", "\n}"),
        ("clause", "fn __mt() ", " {}"),
        ("body", "struct __MT ", ""),
        ("body", "enum __MT ", ""),
        ("body", "fn __mt() {\nmatch __mt ", "\n}"),
    ],
}
_SUB["typescript"] = [
    *_SUB["javascript"],
    ("type argument", "let __mt: __MT<", ">;"),
    ("type argument", "let __mt: __MT", ";"),
    ("type annotation", "let __mt", ";"),
    ("type parameter", "function __mt", "() {}"),
]
_SUB["tsx"] = _SUB["typescript"]
_SUB["cpp"] = [r for r in _SUB["c"] if r[0] != "initializer entry"]
SUB_CONSTRUCTS = frozenset(name for rungs in _SUB.values() for name, _, _ in rungs) - {
    name for rungs in _LADDERS.values() for name, _, _ in rungs
}
for _language, _rungs in _SUB.items():
    _LADDERS[_language] = [*_LADDERS[_language], *_rungs]

# Any other language: the fragment as a whole file, the way the ast-grep CLI parses it.
_DEFAULT: list[Rung] = [("statement", "", "")]


def ladder_for(language: str) -> list[Rung]:
    """The rungs tried, in order, for `language`."""
    return _LADDERS.get(language, _DEFAULT)
