"""Running rules over parsed files in one pass: each file is parsed once for every rule of its
language, the nodes any rule can match at are found in one tree-sitter query (by the kinds
the rules name), and each node is tried only against the rules of its kind."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

import tree_sitter

from minitools.match import Budget, MetaVarEnv, NodeMatch, has_word, node_match, parse_source, watched
from minitools.rules._atomic import KindRule
from minitools.rules._candidates import candidates
from minitools.rules._config import RuleConfig, glob_matcher
from minitools.rules._hidden import SCOPE, hidden_ids
from minitools.rules._rewriters import Rewriting, constrain, shown_text
from minitools.rules._rule import Rule, Word
from minitools.rules._suppress import MARK, UNUSED_ID, UNUSED_MESSAGE, silencer, suppressions

__all__ = ["Finding", "RuleSet", "scan_tree", "unused_config"]


class Finding(NamedTuple):
    config: RuleConfig
    match: NodeMatch
    # (start byte, end byte, text) that the rule's fix puts in place of the match; None without a fix
    fix: tuple[int, int, str] | None
    # the text of each metavariable the rule's `transform` computes, as ast-grep shows it
    transformed: Mapping[str, str] = MappingProxyType({})
    # (start byte, end byte) of each node the rule's relational parts found, in ast-grep's
    # order: the match's secondary labels
    secondary: tuple[tuple[int, int], ...] = ()

    @property
    def message(self) -> str:
        """The rule's message with `$A` replaced by what A captured or the rule's `transform`
        made of it (nothing when A is unbound), as ast-grep does."""
        metavars, transformed = self.match.metavars, self.transformed

        def value(m: re.Match[str]) -> str:
            name = m.group(2)
            return metavars[name].text if name in metavars else transformed.get(name, "")

        return _METAVAR.sub(value, self.config.message)

    @property
    def labels(self) -> list[tuple[int, int, str, str | None]]:
        """(start byte, end byte, style, message) of each label, as ast-grep shows them: the
        rule's `labels` for the metavariables the match bound (a `$$$` capture from its first
        node to its last; an empty one has none), else the match (primary) and the nodes its
        relational parts found (secondary)."""
        m = self.match
        if not self.config.labels:
            return [(m.start_byte, m.end_byte, "primary", None),
                    *((start, end, "secondary", None) for start, end in self.secondary)]
        out = []
        for name, label in self.config.labels.items():
            capture = m.metavars.get(name)
            if capture is None or (name in m.multi and not m.multi[name]):
                continue
            out.append((capture.start_byte, capture.end_byte, label.style, label.message))
        return out


CHECK_EVERY = 1024  # candidates between two looks at the budget

_METAVAR = re.compile(r"\$(\$\$)?([A-Z_][A-Z0-9_]*)")


class _Globs:
    def __init__(self, globs: Sequence[str]) -> None:
        # linear beyond a few `*`s: a hostile glob cannot hang a scan (match/_regex.py); one
        # expression a glob, each checked when the rule was read (rules/_config.py)
        self.regexes = [glob_matcher(g) for g in globs]

    def hits(self, path: str) -> bool:
        return any(regex.search(path) for regex in self.regexes)



class RuleSet:
    """Rules ready to run: grouped by language, each file's tree searched once for all."""

    def __init__(self, configs: Iterable[RuleConfig]) -> None:
        self.configs = [c for c in configs if c.severity != "off"]
        self._by_language: dict[str, list[RuleConfig]] = {}
        for config in self.configs:
            self._by_language.setdefault(config.language, []).append(config)
        # rules of one project often share their globs: one matcher each, asked once a file
        shared: dict[tuple[str, ...], _Globs] = {}
        self._files = {id(c): (shared.setdefault(tuple(c.files), _Globs(c.files)),
                               shared.setdefault(tuple(c.ignores), _Globs(c.ignores))) for c in self.configs}
        # the words a file must hold for each rule to match in it: all of one set's, each set
        # longest (rarest) word first
        self._tokens = {id(c): [sorted(words, key=lambda w: len(w[0]), reverse=True) for words in c.rule.tokens()]
                        for c in self.configs}
        self._for_file: dict[tuple[str, str | None], list[RuleConfig]] = {}
        # whether a rule names a kind its grammar hides: its files get stand-ins (rules/_hidden.py)
        self._stand_ins = {id(c): names_hidden(c) for c in self.configs}

    @property
    def languages(self) -> list[str]:
        return list(self._by_language)

    def for_file(self, language: str, path: str | None) -> list[RuleConfig]:
        """The rules that apply to a file: its language's, less those whose `files` do not
        name it or whose `ignores` do (globs relative to the project's root)."""
        known = self._for_file.get((language, path))
        if known is not None:
            return known  # (asked once to list a scan's files, again to scan each)
        out = []
        hits: dict[int, bool] = {}
        for config in self._by_language.get(language, []):
            if path is not None:
                files, ignores = self._files[id(config)]
                if config.files:
                    if id(files) not in hits:
                        hits[id(files)] = files.hits(path)
                    if not hits[id(files)]:
                        continue
                if id(ignores) not in hits:
                    hits[id(ignores)] = ignores.hits(path)
                if hits[id(ignores)]:
                    continue
            out.append(config)
        self._for_file[(language, path)] = out
        return out

    def scan_source(self, source: bytes, language: str, path: str | None = None, budget: Budget | None = None,
                    unused: list[Finding] | None = None) -> list[Finding]:
        """The findings in one file; a file lacking the words a rule needs (`Rule.tokens`) is
        not searched for that rule, and not parsed at all when no rule is left (nor, with `unused`,
        an `ast-grep-ignore` comment to report). UnsafeSource, before parsing, for a file its
        parser would crash on (match.parse_source)."""
        present: dict[Word, bool] = {}  # each word looked for once a file (rules share words)

        def has(word: Word) -> bool:
            found = present.get(word)
            if found is None:
                text, whole = word
                found = present[word] = has_word(source, text) if whole else text in source
            return found

        configs = [c for c in self.for_file(language, path)
                   if any(all(has(t) for t in words) for words in self._tokens[id(c)])]
        if not configs and (unused is None or MARK not in source):
            return []
        tree = parse_source(language, source)
        stand_ins = any(self._stand_ins[id(c)] for c in configs)
        return scan_tree(configs, tree.root_node, source, language, path, budget, unused, stand_ins)


def scan_tree(
    configs: Sequence[RuleConfig], root: tree_sitter.Node, source: bytes, language: str, path: str | None,
    budget: Budget | None = None, unused: list[Finding] | None = None, stand_ins: bool = False,
) -> list[Finding]:
    """Every finding of `configs` (one language's) in one parsed file, in source order; with
    a `budget`, those found before its time or memory ran out (`budget.stopped` says so),
    also in the middle of one node's match. Findings an `ast-grep-ignore` comment silences
    are left out (rules/_suppress.py); `unused` takes a finding for each such comment that
    silenced none."""
    found: list[tuple[int, int, int, Finding]] = []
    # watched without a budget too: a transformation's text has a bound of its own (match.charge)
    watched(budget or Budget(seconds=None, memory_bytes=None),
            lambda: _scan_tree(configs, root, source, language, path, budget, found, stand_ins))
    found.sort(key=lambda f: f[:3])
    silencing = suppressions(root, source) if found or unused is not None else None
    if silencing is None:
        return [f[3] for f in found]
    kept, used = [], set()
    for start, negative_end, _, finding in found:
        k = silencer(silencing, finding.config.id, start, -negative_end)
        if k is None:
            kept.append(finding)
        else:
            used.add(k)
    if unused is not None:
        config = unused_config(language)
        for k, row in enumerate(silencing.rows):
            if k not in used:
                node = row.comment
                m = node_match(language, source, path, node, node, {})
                unused.append(Finding(config, m, (node.start_byte, node.end_byte, "")))
    return kept


def _scan_tree(
    configs: Sequence[RuleConfig], root: tree_sitter.Node, source: bytes, language: str, path: str | None,
    budget: Budget | None, found: list[tuple[int, int, int, Finding]], stand_ins: bool,
) -> None:
    SCOPE.begin(root, language, stand_ins)
    by_kind: dict[int, list[RuleConfig]] = {}
    for config in configs:
        for kid in config.kinds:
            by_kind.setdefault(kid, []).append(config)
    order = {id(c): k for k, c in enumerate(configs)}
    parents = {id(c): c.rule.parent_kinds() for c in configs}  # what a candidate's parent must be
    for k, node in enumerate(candidates(root, language, frozenset(by_kind))):
        if budget is not None and k % CHECK_EVERY == CHECK_EVERY - 1 and budget.spent():
            break
        for config in by_kind.get(node.kind_id, ()):
            above = parents[id(config)]
            if above is not None:
                parent = SCOPE.up(node)
                if parent is None or parent.kind_id not in above:
                    continue
            env = config.rule.match(node, {})
            if env is not None and config.constraints:
                constrained = constrain(config.constraints, env)
                env = None if constrained is None else constrained[0]
            if env is None:
                continue
            m = node_match(language, source, path, node, node, env)
            found.append((node.start_byte, -node.end_byte, order[id(config)], _finding(config, m, node, env, source)))


@lru_cache(maxsize=64)
def unused_config(language: str) -> RuleConfig:
    """The rule an unused suppression comment is reported under, as ast-grep names it (a hint;
    it is never run)."""
    return RuleConfig(UNUSED_ID, language, KindRule("comment", frozenset()), "hint", UNUSED_MESSAGE, "", {}, [], None,
                      [], [], "")


def _finding(config: RuleConfig, m: NodeMatch, node: tree_sitter.Node, env: MetaVarEnv, source: bytes) -> Finding:
    """The finding of a match: its secondary labels, its transformations worked out, and its
    fix's edit."""
    traced = config.rule.trace(node, {})
    labels = list(traced[1]) if traced is not None else []
    if traced is not None and config.constraints:
        constrained = constrain(config.constraints, traced[0])
        labels += constrained[1] if constrained is not None else []
    secondary = tuple((n.start_byte, n.end_byte) for n in labels)
    if not config.transforms and config.fix is None:
        return Finding(config, m, None, secondary=secondary)
    run = Rewriting(source, m.language, config.rewriters, env)
    metavars = run.captures(config.transforms, env, m)
    transformed = {t.name: shown_text(metavars[t.name], source) for t in config.transforms if t.name in metavars}
    fix = run.fix_edit(config.fix, node, env, m, metavars) if config.fix is not None else None
    return Finding(config, m, fix, transformed, secondary)


def names_hidden(config: RuleConfig) -> bool:
    """Whether `config`'s rule (its utilities, constraints and rewriters too) names a node kind its
    language's grammar hides (rules/_hidden.py)."""
    hidden = hidden_ids(config.language)
    if not hidden:
        return False
    stack: list[Rule] = [config.rule, *config.constraints.values()]
    for rewriter in config.rewriters.values():
        stack += [rewriter.rule, *rewriter.constraints.values()]
    seen: set[int] = set()
    while stack:
        rule = stack.pop()
        if id(rule) in seen:
            continue
        seen.add(id(rule))
        if isinstance(rule, KindRule) and rule.ids & hidden:
            return True
        stack.extend(rule.inner())
        # a utility's body, a global utility read late, a selector's rule: rules too
        stack.extend(r for r in (getattr(rule, name, None) for name in ("target", "body", "rule")) if isinstance(r, Rule))
    return False
