"""How a fragment is read on each rung of the scaffold ladder: each spelling of it
(`_spellings`) parsed in each rung's scaffold, the parse checked for errors (`_recovery`: those a
metavariable alone causes are let through), the hole found (`_hole`), the pattern tree built
(`_pattern_tree`); and which of the distinct readings the pattern keeps (`meant`;
docs/tools.md, "How a pattern is read").
"""

from __future__ import annotations

from minitools.match._catalog import HOLE_KINDS, SUB_CONSTRUCTS, language_row
from minitools.match._grammars import UnsafeSource, check_safe, load_language, parser_for
from minitools.match._hole import find_hole, is_body_run, statement_run
from minitools.match._meant import Reading, meant, names_a_keyword, shape
from minitools.match._metavars import metavar_regexes, restorer
from minitools.match._pattern_tree import build_tree
from minitools.match._pnode import PatternError, check_depth
from minitools.match._recovery import UNENDED, recovery_needed
from minitools.match._spellings import spellings
from minitools.match._unparseable import not_code_hint

__all__ = ["read"]

# the rungs whose hole sits in a class or interface body
_MEMBER_RUNGS = frozenset({"class member", "interface member"})


def read(fragment: str, language: str, char: str, source: str) -> list[Reading]:
    """The readings of `fragment` (metavariables spelled with `char`) the pattern matches,
    in ladder order. Raises PatternError, quoting `source`, when no rung reads it."""
    parser = parser_for(language)
    regexes = metavar_regexes(char)
    restore = restorer(char, source)
    tried: list[str] = []
    # each distinct tree, with the rungs that read the fragment so, in ladder order
    found: dict[tuple[object, ...], Reading] = {}
    row = language_row(language)
    for body, added, quotes in spellings(fragment, language, char):
        for name, prefix, suffix in row.rungs:
            if name not in tried:
                tried.append(name)
            pre = prefix.encode("utf-8")
            written = body.decode("utf-8")
            indent = prefix[prefix.rfind("\n") + 1 :] if "\n" in prefix else ""
            if indent and not indent.strip() and "\n" in written:
                if added:
                    continue  # (no language both indents and writes tokens into the fragment)
                written = written.replace("\n", "\n" + indent)  # an indented body's later lines
            text = prefix + written + suffix
            span = len(written.encode("utf-8"))
            try:
                check_safe(language, text.encode("utf-8"))
            except UnsafeSource as e:
                raise PatternError(f'pattern "{source}" is {e}; write a shallower pattern') from None
            tree = parser.parse(text.encode("utf-8"))
            check_depth(tree.root_node, source)
            recovery = recovery_needed(tree.root_node, text, char, len(pre) + span)
            if recovery is None:
                continue
            absorb = 1 if suffix.startswith(";") else 0
            hole = find_hole(tree.root_node, len(pre), len(pre) + span, absorb)
            if not hole:
                continue
            hole = statement_run(hole, row.body_runs)
            if len(hole) == 2 and hole[-1].type == ";" and not hole[-1].is_named and (
                name in _MEMBER_RUNGS or hole[0].type in row.specifiers
            ):
                # a member and the `;` after it, siblings in a class or interface body: the
                # member (the `;` a separator it may go without, as a match's extent does);
                # a type declared with its body and the `;` after it: the type (`specifiers`)
                hole = hole[:-1]
            if len(hole) > 1 and (name in SUB_CONSTRUCTS or not is_body_run(hole, len(pre), len(pre) + span, language)):
                continue
            if any(n.type in row.unmeant for n in hole):
                continue
            only = HOLE_KINDS.get(name)
            if only is not None and (len(hole) != 1 or hole[0].type not in only):
                continue
            at = frozenset(len(pre) + a for a in added)
            opened = {len(pre) + q: lengths for q, lengths in quotes.items()}
            built = tuple(b for b in (build_tree(n, restore, regexes, False, at, opened) for n in hole) if b is not None)
            if recovery == UNENDED and any(names_a_keyword(b, load_language(language)) for b in built):
                continue  # no declaration: Java `return $A, nil` as a field of type `return`
            if built:
                reading = found.setdefault(tuple([shape(b) for b in built]), Reading(built, recovery))
                reading.rungs.append(name)
                reading.recovery = min(reading.recovery, recovery)
    if not found:
        raise PatternError(f'pattern "{source}" is unparseable as {language}: tried {", ".join(tried)}'
                           + not_code_hint(source, language))
    return meant(list(found.values()), language)
