"""One-node fragments people write that were refused (`is unparseable`) or found nothing, each now
read through a rung or slot of its language's catalog row (docs/tools.md, "Languages"), checked on
the corpora against the `ast-grep` CLI 0.51.1 match by match (file, bytes, text, captures).

Where the CLI finds the fragment, the two agree on every file the pack's grammar reads without an
error (the grammar versions recover differently elsewhere). Where the CLI finds nothing (its reading
is an ERROR node), minitools finds what the fragment plainly means, and the test takes the CLI's own
`kind:` rule for that construct as the reference: every such node, nothing else.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import corpora
from minitools.match._grammars import parser_for
from reference_tools import Found, ast_grep_cli, ast_grep_run, minitools_matches

# (language, corpus folder, pattern, the CLI's matches when this was written). Before, minitools
# refused each of these or found none of the CLI's matches.
CLI_FINDS = [
    ("ruby", "ruby", "module $A\n  $$$\nend", 1380),  # `$A` must be a constant: the row's slot writes one
    ("ruby", "ruby", "module $A", 1380),  # a head alone: the row's `heads` write the body and `end`
    ("ruby", "ruby", "class $A", 2454),
    ("lua", "lua", "self:$A", 28),  # a method's name, the grammar has it only before arguments
    ("lua", "lua", "$A:$B", 614),
    ("json", "ansible", "$A: $B", 64),  # a pair: a key or value metavariable is written as a string
    ("cpp", "cpp", "~$A()", 206),  # a destructor's declarator, beside the bitwise not of a call
    ("cpp", "cpp", "template <typename $T>", 2018),  # the head of a template declaration, any body
    ("cpp", "cpp", "io_context::executor_type", 7),  # a qualified type: the type rung, beside the expression
    ("solidity", "solidity", "Checkpoints.Trace208", 15),  # a library's type: the row's type rung
    ("solidity", "solidity", "$A[] memory values", 57),  # a parameter: the row's parameter rung
    ("bash", "bash", "(($A))", 229),  # `((i++))` is a test command, `((a == 1))` an arithmetic expansion
    ("haskell", "haskell", "case $X of $$$", 254),  # a case expression, any alternatives
    ("haskell", "haskell", "type $T = $A", 45),  # a type synonym: its name must be capitalised (a slot)
]

# (language, corpus folder, pattern, the CLI's rule for the construct it means): the CLI reads the
# fragment as an ERROR and finds nothing
CLI_FINDS_NOTHING = [
    ("swift", "expo", "switch $X { $$$ }", {"kind": "switch_statement"}),
    ("ruby", "ruby", "class $C < $P\n  $$$B\nend", {"kind": "class", "has": {"field": "superclass", "kind": "superclass"}}),
    ("ruby", "ruby", "class $C < $P", {"kind": "class", "has": {"field": "superclass", "kind": "superclass"}}),
    # a declared type's name and a constructor must be capitalised: the row's slots write them so
    ("haskell", "haskell", "data $T = $$$C",
     {"kind": "data_type", "has": {"kind": "data_constructors"}, "not": {"has": {"kind": "type_params"}}}),
    # an alternative alone, read in a case expression after another; a do block's statement alone
    ("haskell", "haskell", "Nothing -> $A",
     {"kind": "alternative", "has": {"kind": "constructor", "regex": "^Nothing$"},
      "not": {"has": {"kind": "guards", "stopBy": "end"}}}),
    ("haskell", "haskell", "($A, $B) <- $E", {"kind": "bind", "inside": {"kind": "do"}, "has": {
        "kind": "tuple", "has": {"nthChild": 2}, "not": {"has": {"nthChild": 3}}}}),
    # a keyword pair alone, read as a call's last argument; a clause alone, read in a case's block
    ("elixir", "elixir", "endpoint: $E", {"kind": "pair", "has": {"kind": "keyword", "regex": "^endpoint:"}}),
    ("elixir", "elixir", "{:error, $R} -> $B",
     {"kind": "stab_clause", "has": {"kind": "arguments", "has": {"kind": "tuple", "regex": "^\\{:error,",
                                                                   "not": {"has": {"nthChild": 3}}}}}),
]


def _corpus(folder: str) -> Path:
    return corpora.wide(folder)


def _clean(root: Path, language: str) -> Callable[[str], bool]:
    """Whether a file (relative to root) is read by the pack's grammar without an error."""
    parser = parser_for(language)
    seen: dict[str, bool] = {}

    def clean(name: str) -> bool:
        if name not in seen:
            seen[name] = not parser.parse((root / name).read_bytes()).root_node.has_error
        return seen[name]

    return clean


def _key(found: Found) -> str:
    return json.dumps(found, sort_keys=True)


@pytest.mark.parametrize(("language", "folder", "pattern", "theirs_then"), CLI_FINDS)
def test_fragment_finds_what_ast_grep_finds(language: str, folder: str, pattern: str, theirs_then: int) -> None:
    root = _corpus(folder)
    theirs = ast_grep_run(root, pattern, language)
    ours = minitools_matches(root, pattern, language)
    assert theirs, f"the CLI found no {pattern!r} in {root} (it found {theirs_then} when this was written)"
    clean = _clean(root, language)
    theirs_clean = sorted(_key(f) for f in theirs if clean(f[0]))
    ours_clean = sorted(_key(f) for f in ours if clean(f[0]))
    assert theirs_clean, "every file with a match parses with an error: the comparison says nothing"
    assert ours_clean == theirs_clean, (
        f"{language} {pattern!r}: only ours {sorted(set(ours_clean) - set(theirs_clean))[:3]}, "
        f"only the CLI's {sorted(set(theirs_clean) - set(ours_clean))[:3]}"
    )


@pytest.mark.parametrize(("pattern", "theirs_then"), [("std::vector<$T>", 195), ("std::size_t", 1763)])
def test_a_cpp_qualified_type_finds_every_type_the_cli_finds(pattern: str, theirs_then: int) -> None:
    # the CLI reads these as types only; here the expression reading stays beside the type one
    # (before the type rung: 8 of the CLI's 195 vectors, 96 of its 1763 sizes, all expressions)
    root = _corpus("cpp")
    theirs = ast_grep_run(root, pattern, "cpp")
    assert theirs, f"the CLI found no {pattern!r} in {root} (it found {theirs_then} when this was written)"
    clean = _clean(root, "cpp")
    ours = {_key(f) for f in minitools_matches(root, pattern, "cpp") if clean(f[0])}
    missing = sorted(_key(f) for f in theirs if clean(f[0]) and _key(f) not in ours)
    assert not missing, f"{len(missing)} of the CLI's {pattern!r} not found here, e.g. {missing[:2]}"


def _ast_grep_rule(root: Path, language: str, rule: dict[str, object]) -> list[tuple[str, int, int]]:
    inline = json.dumps({"id": "k", "language": language, "rule": rule})
    proc = subprocess.run([ast_grep_cli(), "scan", "--inline-rules", inline, "--json=stream", "."], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr[-800:]
    found = [json.loads(line) for line in proc.stdout.splitlines()]
    return sorted((m["file"], m["range"]["byteOffset"]["start"], m["range"]["byteOffset"]["end"]) for m in found)


@pytest.mark.parametrize(("language", "folder", "pattern", "rule"), CLI_FINDS_NOTHING)
def test_fragment_the_cli_reads_as_an_error_finds_its_construct(language: str, folder: str, pattern: str,
                                                                 rule: dict[str, object]) -> None:
    root = _corpus(folder)
    assert ast_grep_run(root, pattern, language) == [], "the CLI finds it now: compare the matches instead"
    clean = _clean(root, language)
    ours = sorted((f[0], f[1], f[2]) for f in minitools_matches(root, pattern, language) if clean(f[0]))
    nodes = [n for n in _ast_grep_rule(root, language, rule) if clean(n[0])]
    assert ours and ours == nodes, (
        f"{language} {pattern!r}: {len(ours)} found, {len(nodes)} nodes of {rule}; "
        f"only ours {sorted(set(ours) - set(nodes))[:3]}, only the nodes {sorted(set(nodes) - set(ours))[:3]}"
    )
