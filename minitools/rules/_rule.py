"""The rule tree: each rule says whether a node matches, extending the metavariables bound so
far (docs/tools.md, "Rules"; semantics as ast-grep documents them, checked against its CLI).

Atomic rules (`_atomic`) look at the node itself (`pattern`, `kind`, `regex`, `nthChild`,
`range`); relational rules (`_relational`) at the nodes around it (`inside` its ancestors, `has` its descendants,
`precedes` the siblings after it, `follows` those before it), as far as `stopBy` says:
`neighbor` (the parent, the children, the next or previous sibling), `end`, or a rule whose
node ends the search once checked; composite rules (`_composite`) combine (`all` in order, `any` the first
that matches, `not`, `matches` a utility rule). Environments are never changed in place: a
binding makes a new one, so a failed branch leaves nothing behind.

`trace` matches as `match` does and also returns the match's secondary labels, as ast-grep
reports them: each relational rule adds the node its inner rule gave back where it matched
(a relational rule gives back what its inner rule gave back there, `matches` what its
utility gave back, every other rule the node itself), after the inner rule's own labels; a
rule object's own and composite keys add theirs before its relational keys; an `nthChild`'s
`ofRule` adds those it finds at the node; `not` and `stopBy` add none. It runs once per
finding, so it keeps no per-file answers and `match` stays as fast as before.
"""

from __future__ import annotations

import tree_sitter

from minitools.match import MetaVarEnv

__all__ = ["ANYTHING", "Kinds", "Needs", "Rule", "Traced", "Word", "all_of", "any_of"]

# kind ids a rule can match at; None: any kind
Kinds = frozenset[int] | None
# a word a file must contain, and whether as a whole word (not inside a longer identifier):
# a token written like an identifier, where the language's catalog row says its tokens are
Word = tuple[bytes, bool]
# the words a file must contain for a rule to match in it: all the words of one of the sets
Needs = tuple[frozenset[Word], ...]
ANYTHING: Needs = (frozenset(),)
# at most this many sets are kept: past it, the words every set shares (less sure, as sound)
MAX_NEEDS = 16


def any_of(parts: list[Needs]) -> Needs:
    """What a file needs for one of the parts to match: one set of any part's."""
    sets = list(dict.fromkeys(words for part in parts for words in part))
    if not sets or any(not words for words in sets):
        return ANYTHING
    sets = [w for w in sets if not any(other < w for other in sets)]  # a set within another suffices
    if len(sets) > MAX_NEEDS:
        return (frozenset.intersection(*sets),)
    return tuple(sets)


def all_of(parts: list[Needs]) -> Needs:
    """What a file needs for every part to match: a set of each part's, together."""
    out: list[frozenset[Word]] = [frozenset()]
    for part in parts:
        out = list(dict.fromkeys(have | words for have in out for words in part))
        if len(out) > MAX_NEEDS:
            return (frozenset().union(*(frozenset.intersection(*p) for p in parts)),)
    return any_of([tuple(out)])


# a match with its secondary labels (in ast-grep's order) and the node the rule gives back
Traced = tuple[MetaVarEnv, list[tree_sitter.Node], tree_sitter.Node]


class Rule:
    """One node of a rule tree."""

    __slots__ = ()

    # a token the text of every node the rule matches holds (the longest a pattern writes), for
    # an `any` to rule the rule out at a node before matching it; None: none known
    probe: bytes | None = None

    def match(self, node: tree_sitter.Node, env: MetaVarEnv) -> MetaVarEnv | None:
        raise NotImplementedError

    def trace(self, node: tree_sitter.Node, env: MetaVarEnv) -> Traced | None:
        """`match`, with the nodes the relational rules inside this one found."""
        got = self.match(node, env)
        return None if got is None else (got, [], node)

    def kinds(self) -> Kinds:
        """The kind ids of the nodes this rule can match; None when it may match any."""
        return None

    def cost(self) -> int:
        """A rough cost of trying the rule at a node: 0 for the node itself, more for a rule that
        looks around it, most for one that searches to the end (a rule object tries its cheap
        parts first)."""
        return 0

    def inner(self) -> list[Rule]:
        """The rules written inside this one (a utility's body is not one of them)."""
        return []

    def pure(self) -> bool:
        """Whether the rule neither binds nor reads metavariables: its answer at a node is
        the same whatever the environment."""
        return True

    def necessary(self) -> Rule | None:
        """A pure rule every node this rule matches also matches (None: none known): a cheap,
        memoised test that rules nodes out before the full one runs."""
        return self if self.pure() else None

    def tokens(self) -> Needs:
        """Words a file must contain for this rule to match anywhere in it (the patterns' own
        words, the keyword a kind always writes): a file holding none of the sets whole is not
        parsed for the rule."""
        return ANYTHING

    def parent_kinds(self) -> Kinds:
        """The kinds the parent of every node this rule matches has (None: any): a scan
        passes over a candidate whose parent is of another kind before trying the rule."""
        return None
