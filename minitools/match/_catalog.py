"""The language catalog: one row per language, everything the matcher, the rules, the walk and
the CLI ask about it (docs/architecture.md, "Adding a language": a new language is a row here
and its tests).

A row says:

- `id`: the language pack's grammar name; `names`: the other names a caller gives it (ast-grep's
  short forms, editors' ids); `extensions`: the file names that hold it (lower-cased suffixes).
- `metavar_char`: where `$` cannot be part of an identifier, the character a pattern's `$` is
  written as before parsing (docs/reference.md, "Structural matching"); `$` where it can.
- `ladder`: the scaffold rungs, (name, prefix, suffix), tried in order: the fragment is parsed as
  ``prefix + fragment + suffix`` and a rung accepts when that parse has no ERROR or MISSING node
  (but those only a metavariable causes) and the fragment's byte range is one node or a run of
  siblings. Several rungs may share a name (variants of one context). `subconstructs`: rungs for
  a fragment cut from inside a construct (an argument, a parameter, a case arm, an import
  clause); they come after the ladder and read a fragment only as one node (`$A, $B` is no run
  of arguments), and such a reading is dropped when the fragment reads as an expression. Where a
  prefix ends a line with an indentation (Python) the fragment's later lines are indented by
  as much. A language with no ladder parses the fragment as a whole file, as the ast-grep CLI
  does.
- `statement_end`: where a `$$$` before `}` is read as something other than statements unless
  the token that ends a statement follows it, that token; the fragment is also tried with it
  written there (Dart reads `if ($C) { $$$ }` as an `if` whose body is a set literal).
- `type_lookalikes`: expression kinds a type is spelled like (TypeScript `Promise<$T>`, Go
  `unsafe.Pointer`): a fragment that reads as one keeps its type reading too.
- `member_lookalikes`: expression kinds a class member is spelled like (C++ `~$A()`, a
  destructor, is also the bitwise not of a call): a fragment that reads as one keeps its class
  member reading too.
- `specifiers`: type kinds written with a body and the `;` that ends their declaration (C
  `struct $S { $$$F };`): the specifier alone is the pattern, its extent without the `;`.
- `body_runs`: body kinds with no brackets of their own, a hole only where the scaffold wrote
  the body (Python's `block`): the statements they hold.
- `terminator`: the token that ends a statement where a line break ends one as well (Go,
  Python): formatting, never a difference.
- `continuations`: named kinds that continue the node before them as its siblings (Dart writes
  `a.b(c)` as `identifier` `selector` `selector`): one metavariable captures the whole run.
- `keywords`: named leaf kinds that are a keyword (Dart's `const`): skipped like an unnamed token
  where the pattern expects another token (`[]` matches `const []`).
- `slots`: places where the grammar wants a token a metavariable cannot be, each (what comes
  before, what follows: regular expressions; what is written before and after the metavariable
  there): the fragment is also read with the metavariable written so, and the node it makes is the
  metavariable. A string after a keyword (TypeScript `import { $$$ } from $M`), a JSON key or value
  (`$A: $B`, a pair), a Ruby module's or class's name, which must be a constant (`module $A`).
- `heads`: fragments that are only the head of a construct, each (a regular expression for
  the head, the rest of the construct written after it): C++ `template <typename $T>` is also read
  with a `$$$` after it, Ruby `module $A` with a body and `end`.
- `kind_words`: (kind, keyword) for kinds whose every node writes that keyword (Python's
  `finally_clause`, `finally`): a file without the word holds no node of the kind, and a rule
  that needs one is not run on it (tests/rules/test_rule_prefilter.py checks each on real code).
- `whole_words`: whether a token written like an identifier (a name, a keyword) is always a whole
  word of the source: never followed by a letter, digit or `_`, nor preceded by a word other
  than a number (Python's `1if x else 2`; not C++'s `10_km`, nor CSS's `10px`): a rule that
  needs `_meta` is then not run on a file that only has `_metadata`.
- `hidden`: kinds the pack's grammar hides that rules written for ast-grep's grammars name
  (Python's `expression_statement`).
- `comments_after`: kinds the pack's grammar ends after the comments that follow them, where the
  CLI's grammar ends them before (Kotlin's package and import headers): a match of one ends at its
  last child that is no comment, as the CLI's does.
- `unmeant`: kinds a fragment never means, though a rung reads it as one (PHP's `text`: what the
  grammar cannot read as PHP it takes for inline HTML, so a whole-file rung reads any fragment so).
- `tuned`: whether the matcher is tuned and tested for it against ast-grep on real code
  (docs/tools.md, "Languages"); the others are offered as the grammar reads them.
- `deep_blocks_crash`: the grammar's scanner crashes the process on block collections nested past
  what it holds (YAML): a file is measured from its text before any parse, and skipped or refused
  past the limit (match/_yaml_nesting.py).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Rung", "Slot", "Language", "LANGUAGES", "EXTENSIONS", "LANGUAGE_NAMES", "HOLE_KINDS", "SUB_CONSTRUCTS",
           "language_row", "ladder_for", "no_files_note"]

Rung = tuple[str, str, str]
Slot = tuple[str, str, str, str]  # before, after, written before, written after


class Language(NamedTuple):
    """One language's row (the module's docstring says what each field means)."""

    id: str
    names: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    metavar_char: str = "$"
    ladder: tuple[Rung, ...] = ()
    subconstructs: tuple[Rung, ...] = ()
    statement_end: str | None = None
    type_lookalikes: frozenset[str] = frozenset()
    member_lookalikes: frozenset[str] = frozenset()
    specifiers: frozenset[str] = frozenset()
    body_runs: frozenset[str] = frozenset()
    terminator: str | None = None
    continuations: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    slots: tuple[Slot, ...] = ()
    heads: tuple[tuple[str, str], ...] = ()
    hidden: tuple[str, ...] = ()
    kind_words: tuple[tuple[str, str], ...] = ()
    whole_words: bool = False
    unmeant: frozenset[str] = frozenset()
    comments_after: frozenset[str] = frozenset()
    tuned: bool = False
    deep_blocks_crash: bool = False

    @property
    def rungs(self) -> tuple[Rung, ...]:
        """The rungs tried, in order: the ladder, then the sub-constructs; the whole file where
        the row has neither."""
        return (*self.ladder, *self.subconstructs) or _WHOLE_FILE


_WHOLE_FILE: tuple[Rung, ...] = (("statement", "", ""),)

# Rungs that exist for one kind of node accept only a hole that is one node of that kind: a
# decorator scaffold must not turn `Promise<$T>` into a comparison with the method after it.
HOLE_KINDS: dict[str, frozenset[str]] = {
    "decorator": frozenset({"decorator"}),
    "annotation": frozenset({"annotation", "marker_annotation", "attribute_list", "attribute"}),
    "case expression": frozenset({"case"}),
}

_MU = "µ"  # a letter in every grammar that takes it in identifiers
_C_LIKE_BLOCK = "void __mt(void) {\n"
_C_SWITCH = _C_LIKE_BLOCK + "switch (__mt) {\n"
_ENDS_STATEMENT = r"[ \t]*(?:[;)\n]|\Z)"
_IMPORT_FROM: tuple[Slot, ...] = ((r"\b(?:from|import)\s+", _ENDS_STATEMENT, '"', '"'),)

_JAVASCRIPT_LADDER: tuple[Rung, ...] = (
    ("statement", "", ""),
    ("expression", "__mt = ", ";"),
    ("class member", "class __MT {\n", "\n}"),
    ("decorator", "class __MT {\n", "\n__mt() {}\n}"),
    ("decorator", "", "\nclass __MT {}"),
)
_JAVASCRIPT_SUB: tuple[Rung, ...] = (
    ("argument", "__mt(", ");"),
    ("parameter", "function __mt(", ") {}"),
    ("object entry", "__mt = {", "};"),
    ("case", "switch (__mt) {\n", "\n}"),
    ("clause", "try {} ", ""),
    ("import", "import ", " from '__mt';"),
    ("parameter list", "function __mt", " {}"),
)
# TypeScript adds the places only types and interface members are written in (`Promise<$T>`
# read as a statement is an instantiation expression, not the generic type of a signature).
_TYPESCRIPT_LADDER: tuple[Rung, ...] = (
    *_JAVASCRIPT_LADDER,
    ("type", "let __mt: ", ";"),
    ("interface member", "interface __MT {\n", "\n}"),
)
_TYPESCRIPT_SUB: tuple[Rung, ...] = (
    *_JAVASCRIPT_SUB,
    ("type argument", "let __mt: __MT<", ">;"),
    ("type argument", "let __mt: __MT", ";"),
    ("type annotation", "let __mt", ";"),
    ("type parameter", "function __mt", "() {}"),
)
_TYPESCRIPT_LOOKALIKES = frozenset({"instantiation_expression", "binary_expression"})
_C_LADDER: tuple[Rung, ...] = (
    ("statement", _C_LIKE_BLOCK, "\n}"),
    ("statement", _C_LIKE_BLOCK, ";\n}"),
    ("expression", "int __mt = ", ";"),
)
_C_SUB: tuple[Rung, ...] = (
    ("argument", "int __mt = __mt(", ");"),
    ("parameter", "void __mt(", ");"),
    ("case", _C_SWITCH, "\n}\n}"),
    ("initializer entry", "int __mt = {", "};"),
    ("preprocessor", "", "\n#endif\n"),
    ("parameter list", "void __mt", ";"),
)
_C_SPECIFIERS = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})

_ROWS: tuple[Language, ...] = (
    Language(
        "python", names=("py", "python3", "py3"), extensions=(".py", ".pyi", ".py3", ".bzl"), metavar_char=_MU, tuned=True,
        ladder=(
            ("statement", "", ""),
            ("expression", "__mt = ", "\n"),
            ("class member", "class __MT:\n    ", "\n"),
            ("decorator", "", "\ndef __mt(): pass\n"),
        ),
        subconstructs=(
            ("argument", "__mt(", ")"),
            ("parameter", "def __mt(", "): pass"),
            ("clause", "try:\n    pass\n", ""),
            ("clause", "if __mt:\n    pass\n", ""),
            ("clause", "[__mt for __mt in __mt ", "]"),
            ("case", "match __mt:\n    ", ""),
            ("dictionary entry", "{", "}"),
            ("import", "from __mt import ", ""),
        ),
        body_runs=frozenset({"block"}), terminator=";", hidden=("expression_statement",),
        kind_words=(
            ("finally_clause", "finally"), ("except_clause", "except"), ("try_statement", "try"),
            ("return_statement", "return"), ("break_statement", "break"), ("continue_statement", "continue"),
            ("raise_statement", "raise"), ("assert_statement", "assert"), ("while_statement", "while"),
            ("for_statement", "for"), ("with_statement", "with"), ("class_definition", "class"),
            ("function_definition", "def"), ("lambda", "lambda"), ("import_from_statement", "from"),
            ("global_statement", "global"), ("nonlocal_statement", "nonlocal"), ("delete_statement", "del"),
        ),
        whole_words=True,
    ),
    Language(
        "javascript", names=("js", "jsx", "node", "nodejs", "ecmascript", "javascriptreact"),
        extensions=(".js", ".mjs", ".cjs", ".jsx"), tuned=True,
        ladder=_JAVASCRIPT_LADDER, subconstructs=_JAVASCRIPT_SUB, slots=_IMPORT_FROM,
    ),
    Language(
        "typescript", names=("ts",), extensions=(".ts", ".mts", ".cts"), tuned=True,
        ladder=_TYPESCRIPT_LADDER, subconstructs=_TYPESCRIPT_SUB, type_lookalikes=_TYPESCRIPT_LOOKALIKES,
        slots=_IMPORT_FROM,
    ),
    Language(
        "tsx", tuned=True, names=("typescriptreact",), extensions=(".tsx",),
        ladder=_TYPESCRIPT_LADDER, subconstructs=_TYPESCRIPT_SUB, type_lookalikes=_TYPESCRIPT_LOOKALIKES,
        slots=_IMPORT_FROM,
    ),
    Language(
        "dart", extensions=(".dart",), tuned=True,
        ladder=(
            ("statement", "void __mt() {\n", "\n}"),
            ("statement", "void __mt() {\n", ";\n}"),
            ("expression", "var __mt = ", ";"),
            ("class member", "class __MT {\n", "\n}"),
            ("class member", "class __MT {\n", ";\n}"),
            ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
            ("declaration", "", ""),
        ),
        statement_end=";", continuations=("selector", "type_arguments", "nullable_type"),
        keywords=("const_builtin", "final_builtin"), slots=((r"\b(?:import|export|part)\s+", _ENDS_STATEMENT, '"', '"'),),
    ),
    Language(
        "go", names=("golang",), extensions=(".go",), metavar_char=_MU, tuned=True,
        ladder=(
            ("statement", "package __mt\nfunc __mt() {\n", "\n}"),
            ("expression", "package __mt\nvar __mt = ", "\n"),
            ("class member", "package __mt\ntype __MT struct {\n", "\n}"),
            ("type", "package __mt\nvar __mt ", "\n"),
            ("declaration", "package __mt\n", "\n"),
            ("declaration", "", ""),
        ),
        subconstructs=(
            ("argument", "package __mt\nvar __mt = __mt(", ")\n"),
            ("parameter", "package __mt\nfunc __mt(", ") {}\n"),
            ("case", "package __mt\nfunc __mt() {\nswitch __mt {\n", "\n}\n}\n"),
            ("clause", "package __mt\nfunc __mt() {\nfor ", " {}\n}\n"),
            ("composite literal entry", "package __mt\nvar __mt = __MT{", "}\n"),
            ("import", "package __mt\nimport ", "\n"),
            ("parameter list", "package __mt\nfunc __mt", " {}\n"),
        ),
        # a qualified name (`unsafe.Pointer`) is a type too
        type_lookalikes=frozenset({"selector_expression"}), terminator=";",
        slots=((r"\bimport\s+(?:\(\s*)?(?:[A-Za-z_.][A-Za-z0-9_]*\s+)?", _ENDS_STATEMENT, '"', '"'),),
    ),
    Language(
        "c", names=("h",), extensions=(".c", ".h"), metavar_char="\U00010000", tuned=True,
        ladder=(
            *_C_LADDER,
            ("class member", "struct __MT {\n", "\n};"),
            ("declaration", "", ""),
        ),
        subconstructs=_C_SUB, specifiers=_C_SPECIFIERS,
    ),
    Language(
        "cpp", tuned=True, names=("c++", "cc", "cxx", "hpp"), extensions=(".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".cu", ".ino"),
        metavar_char="\U00010000",
        ladder=(
            *_C_LADDER,
            ("class member", "class __MT {\n", "\n};"),
            ("class member", "class __MT {\n", ";\n};"),
            ("declaration", "", ""),
            ("type", "", " __mt;"),
        ),
        subconstructs=tuple(r for r in _C_SUB if r[0] != "initializer entry"),
        specifiers=_C_SPECIFIERS | {"class_specifier"}, member_lookalikes=frozenset({"unary_expression"}),
        type_lookalikes=frozenset({"qualified_identifier"}),  # `io_context::executor_type`
        heads=((r"template\s*<[^{};]*>", " $$$"),),
    ),
    Language(
        "java", extensions=(".java",), tuned=True,
        ladder=(
            ("statement", "class __MT { void __mt() {\n", "\n}}"),
            ("statement", "class __MT { void __mt() {\n", ";\n}}"),
            ("expression", "class __MT { Object __mt = ", ";}"),
            ("class member", "class __MT {\n", "\n}"),
            ("type", "class __MT { ", " __mt; }"),
            ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
            ("declaration", "", ""),
        ),
        subconstructs=(
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
        ),
        type_lookalikes=frozenset({"field_access"}),  # `Map.Entry`
    ),
    Language(
        "rust", names=("rs",), extensions=(".rs",), metavar_char=_MU, tuned=True,
        ladder=(
            ("statement", "fn __mt() {\n", "\n}"),
            ("statement", "fn __mt() {\n", ";\n}"),
            ("expression", "const __MT: () = ", ";"),
            ("class member", "impl __MT {\n", "\n}"),
            ("class member", "struct __MT {\n", "\n}"),
            ("type", "type __MT = ", ";"),
            ("declaration", "", ""),
        ),
        subconstructs=(
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
        ),
        type_lookalikes=frozenset({"scoped_identifier"}),  # `io::Result`
    ),
    Language(
        "csharp", tuned=True, names=("cs", "c#", "c-sharp"), extensions=(".cs",), metavar_char=_MU,
        ladder=(
            ("statement", "class __MT { void __mt() {\n", "\n}}"),
            ("statement", "class __MT { void __mt() {\n", ";\n}}"),
            ("expression", "class __MT { object __mt = ", ";}"),
            ("class member", "class __MT {\n", "\n}"),
            ("annotation", "class __MT {\n", "\nvoid __mt() {}\n}"),
            ("type", "class __MT { ", " __mt; }"),
            ("declaration", "", ""),
        ),
        subconstructs=(
            ("arrow body", "class __MT { int __mt ", "; }"),
            ("modifiers", "class __MT {\n", " void __mt() {}\n}"),
        ),
        statement_end=";",
    ),
    Language(
        "kotlin", tuned=True, names=("kt", "kts"), extensions=(".kt", ".kts", ".ktm"), metavar_char=_MU,
        ladder=(
            ("statement", "fun __mt() {\n", "\n}"),
            ("expression", "val __mt = ", "\n"),
            ("class member", "class __MT {\n", "\n}"),
            ("annotation", "class __MT {\n", "\nfun __mt() {}\n}"),
            ("declaration", "", ""),
        ),
        subconstructs=(("modifiers", "class __MT {\n", " fun __mt() {}\n}"),),
        comments_after=frozenset({"package_header", "import_header"}),
    ),
    # a module's or class's name is a constant: a capital written before the metavariable makes one
    Language(
        "ruby", tuned=True, names=("rb",), extensions=(".rb", ".rbw", ".gemspec"), metavar_char=_MU,
        slots=((r"\b(?:module|class)[ \t]+", r"(?:\s|<|;|\Z)", "M", ""),),
        heads=((r"(?:module|class)[ \t]+[^\n;]+", "\n$$$\nend"),),
    ),
    # the pack's grammar reads text before `<?php` as inline HTML: every rung opens PHP first
    Language(
        "php", tuned=True, extensions=(".php",), metavar_char=_MU,
        ladder=(
            ("statement", "<?php\n", ""),
            ("statement", "<?php\n", ";"),
            ("expression", "<?php\n$__mt = ", ";"),
            ("class member", "<?php\nclass __MT {\n", "\n}"),
            ("file", "", ""),
        ),
        subconstructs=(
            ("argument", "<?php\n__mt(", ");"),
            ("parameter", "<?php\nfunction __mt(", ") {}"),
            ("array entry", "<?php\n$__mt = [", "];"),
            ("case", "<?php\nswitch ($__mt) {\n", "\n}"),
            ("clause", "<?php\ntry {} ", ""),
            ("modifiers", "<?php\nclass __MT {\n", " function __mt() {}\n}"),
        ),
        unmeant=frozenset({"text"}),
    ),
    Language(
        "swift", tuned=True, extensions=(".swift",), metavar_char=_MU,
        ladder=(
            ("statement", "", ""),
            ("annotation", "", " func __mt() {}"),
        ),
        subconstructs=(("modifiers", "class __MT {\n", " func __mt() {}\n}"),),
        # a switch's cases as a `$$$`: written as one case, which is then the metavariable
        slots=((r"\bswitch\b[^{]*\{\s*", r"\s*\}", "case ", ": break"),),
    ),
    # a keyword pair (`endpoint: $E`) and a case's clause (`{:ok, $V} -> $B`) are read where
    # they stand: a call's keywords (after another pair, so that the pair alone is the hole), a
    # case's do block
    Language(
        "elixir", tuned=True, names=("ex", "exs"), extensions=(".ex", ".exs"), metavar_char=_MU,
        ladder=(("statement", "", ""),),
        subconstructs=(("keyword pair", "__mt(__mt: 1, ", ")"), ("clause", "case __mt do\n", "\nend")),
    ),
    # a case expression is no declaration: it is read as a value bound to a name (only that: `_`
    # so read would be a typed hole, where the CLI finds wildcard patterns); its alternatives as a
    # `$$$` are written as one alternative, which is then the metavariable; a declared type's name
    # and a data type's constructors must be capitalised: written so (`data $T = $$$C`)
    Language(
        "haskell", tuned=True, names=("hs",), extensions=(".hs",), metavar_char=_MU,
        ladder=(("statement", "", ""),),
        # an alternative (`Nothing -> $A`) and a do block's statement (`$X <- $E`) are read where
        # they stand, after another of their kind, so that the fragment alone is the hole
        subconstructs=(
            ("case expression", "__mt = ", "\n"),
            ("alternative", "__mt = case __mt of\n  __mt -> __mt\n  ", "\n"),
            ("do statement", "__mt = do\n  __mt\n  ", "\n"),
        ),
        slots=(
            (r"\bof[ \t]+", r"\s*\Z", "", " -> __mt"),
            (r"^(?:data|newtype|type)[ \t]+", r"(?:\s|=|\Z)", "M", ""),
            (r"(?:^data\b[^=\n]*=|[^|]\|)[ \t]*", r"\s*(?:\||\Z)", "M", ""),
        ),
    ),
    Language(
        "css", tuned=True, extensions=(".css", ".scss"), metavar_char="_",
        ladder=(
            ("statement", "", ""),
            ("declaration", ".__mt {\n", "\n}"),
            ("declaration", ".__mt {\n", ";\n}"),
            ("selector", "", " {}"),
            # a bare word is also a class or pseudo-class name, as ast-grep reads it (an identifier)
            ("name", ".", " {}"),
        ),
    ),
    Language(
        "nix", tuned=True, extensions=(".nix",), metavar_char="_",
        ladder=(
            ("expression", "", ""),
            ("binding", "{\n", "\n}"),
            ("binding", "{\n", ";\n}"),
            ("parameters", "", ": __mt"),
        ),
    ),
    # the grammar reads `((i++))` as a test command and `((a == 1))` as an arithmetic expansion
    # (the lexer decides by what follows); `(($A))` is read as both, a function's body being a
    # place where it is a test command
    Language(
        "bash", tuned=True, names=("sh", "shell", "zsh"), terminator=";", extensions=(
            ".sh", ".bash", ".bats", ".cgi", ".command", ".env", ".fcgi", ".ksh", ".tmux", ".tool", ".zsh",
        ),
        ladder=(("statement", "", ""),), subconstructs=(("function body", "__mt() ", ""),),
    ),
    Language(
        "lua", tuned=True, extensions=(".lua",),
        ladder=(
            ("statement", "", ""),
            ("expression", "__mt = ", "\n"),
            ("table field", "__mt = {", "}\n"),
        ),
        # `self:$A` is a method's name as a call writes it: the grammar has it only before arguments
        subconstructs=(("method", "", "()\n"),),
    ),
    # `new $T { $$$ }` is a call with a block at a script's top level and an instance with a
    # template body inside a class or object: both readings
    Language(
        "scala", tuned=True, extensions=(".scala", ".sc", ".sbt"),
        ladder=(
            ("statement", "", ""),
            ("expression", "object __MT {\n  val __mt = ", "\n}"),
            ("class member", "object __MT {\n", "\n}"),
        ),
        subconstructs=(("modifiers", "object __MT {\n", " def __mt = 1\n}"),),
    ),
    # `$` is no tag name character, `µ` is: `<$A class="$B">$$$</$A>` reads as an element
    Language("html", tuned=True, extensions=(".html", ".htm", ".xhtml"), metavar_char=_MU),
    # JSON has no name a metavariable could be: as a key or a value it is written as a string
    # (`$A: $B` is a pair, as the CLI reads it)
    Language(
        "json", tuned=True, extensions=(".json",), ladder=(("value", "", ""), ("object entry", "{", "}")),
        slots=((r"(?:^|[{\[,:])\s*", r"\s*(?:[,:}\]]|\Z)", '"', '"'),),
    ),
    Language("yaml", names=("yml",), extensions=(".yaml", ".yml"), tuned=True, deep_blocks_crash=True),
    Language("toml", extensions=(".toml",)),
    Language("zig", extensions=(".zig",)),
    Language("sql", extensions=(".sql",)),
    Language(
        "solidity", tuned=True, names=("sol",), extensions=(".sol",),
        ladder=(
            ("declaration", "", ""),
            ("statement", "contract __MT { function __mt() public {\n", "\n} }"),
            ("statement", "contract __MT { function __mt() public {\n", ";\n} }"),
            ("expression", "contract __MT { function __mt() public {\n__mt = ", ";\n} }"),
            ("class member", "contract __MT {\n", "\n}"),
            ("type", "contract __MT { ", " __mt; }"),
        ),
        subconstructs=(("parameter", "contract __MT { function __mt(", ") public {} }"),),
        type_lookalikes=frozenset({"member_expression"}),  # `Checkpoints.Trace208`
    ),
    Language(
        "hcl", tuned=True, names=("terraform", "tf"), extensions=(".hcl", ".tf", ".tfvars"), metavar_char=_MU,
        ladder=(("declaration", "", ""), ("expression", "__mt = ", "\n")),
    ),
    Language("markdown", names=("md",), extensions=(".md", ".markdown")),
)

LANGUAGES: dict[str, Language] = {row.id: row for row in _ROWS}
# derived from the rows, for the walk and for callers that name a language their own way
EXTENSIONS: dict[str, str] = {ext: row.id for row in _ROWS for ext in row.extensions}
LANGUAGE_NAMES: dict[str, str] = {name: row.id for row in _ROWS for name in row.names}
# the rung names only sub-constructs use (read as one node, dropped for an expression reading)
SUB_CONSTRUCTS = frozenset(name for row in _ROWS for name, _, _ in row.subconstructs) - {
    name for row in _ROWS for name, _, _ in row.ladder
}


def language_row(language: str) -> Language:
    """The row for the pack's grammar `language`; a bare row (the grammar as it reads a whole
    file, `$` kept) for a grammar the catalog does not list."""
    row = LANGUAGES.get(language)
    if row is None:
        row = _BARE.setdefault(language, Language(language))
    return row


_BARE: dict[str, Language] = {}


def no_files_note(language: str, where: str) -> str:
    """What to say when a search in `language` met no file of it under `where` (no silent zero)."""
    extensions = language_row(language).extensions
    named = f"{language} file ({', '.join(extensions)})" if extensions else f"file the walk reads as {language}"
    return (f"no {named} is under {where}: check the language, or give a path that holds {language} files "
            f"(or name the files themselves)")


def ladder_for(language: str) -> list[Rung]:
    """The rungs tried, in order, for `language`."""
    return list(language_row(language).rungs)
