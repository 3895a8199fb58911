"""What a rule computes once a node matches: its constraints, its transformations and its
fix's edit; and the rule's `rewriters`, which the `rewrite` transformation applies to the
nodes under a captured metavariable (docs/tools.md, "Rules").

A rewrite visits the captured nodes and everything under them in pre-order, tokens included;
at each node the first listed rewriter that matches wins, and an edit that starts inside one
already made is left out (so the outermost wins). The result is the captured source with
the edits made, or, with `joinBy`, the edits' texts joined by it. Every rewriter starts from
the metavariables of the match being fixed (it must agree with them and may use them), never
from another rewriter's: a rewriter that rewrites its own captures recurses on fresh ground.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import tree_sitter

from minitools.match import Capture, MetaVarEnv, NodeMatch, node_match
from minitools.rules._hidden import SCOPE
from minitools.rules._rule import Rule
from minitools.rules._transform import Fix, Transform, apply_text_transform

__all__ = ["Rewriter", "Rewriting", "constrain", "shown_text", "MAX_NESTING"]

MAX_NESTING = 40  # rewrites inside a rewriter's own transformations, one in another


class Rewriter(NamedTuple):
    """One entry of a rule's `rewriters`: a rule with its own constraints, transformations
    and (required) fix."""

    id: str
    rule: Rule
    constraints: dict[str, Rule]
    transforms: list[Transform]
    fix: Fix


def constrain(constraints: Mapping[str, Rule], env: MetaVarEnv) -> tuple[MetaVarEnv, list[tree_sitter.Node]] | None:
    """`env` once every constrained metavariable's node matches its rule, in the order they
    are written: each rule starts from the metavariables bound so far and may bind more, as
    ast-grep's do; with the labels the constraints' relational parts found. None when one
    fails. An unbound metavariable, or a `$$$` capture, is not checked, as ast-grep does."""
    labels: list[tree_sitter.Node] = []
    for name, rule in constraints.items():
        value = env.get(name)
        if value is None or isinstance(value, list):
            continue
        got = rule.trace(value, env)
        if got is None:
            return None
        env = got[0]
        labels += got[1]
    return env, labels


def shown_text(capture: Capture, source: bytes) -> str:
    """A transformed metavariable's text as ast-grep reports it: its lines after the first
    without the indentation of the line its source was captured on."""
    text = capture.text
    if "\n" not in text:
        return text
    line_start = source.rfind(b"\n", 0, capture.start_byte) + 1
    head = source[line_start:capture.start_byte]
    indent = head[: len(head) - len(head.lstrip(b" \t"))].decode("utf-8", "replace")
    lines = text.split("\n")
    return "\n".join([lines[0], *(ln[len(indent):] if ln.startswith(indent) else ln.lstrip(" \t") for ln in lines[1:])])


class Rewriting:
    """One match's transformations and fix: the file, the rule's rewriters by id, and the
    match's metavariables (`enclosing`), where every rewriter starts."""

    def __init__(self, source: bytes, language: str, rewriters: Mapping[str, Rewriter], enclosing: MetaVarEnv) -> None:
        self.source = source
        self.language = language
        self.rewriters = rewriters
        self.enclosing = enclosing
        # (rewriter id, node id) pairs whose fix is being made: a rewrite that comes back to
        # one would never end, so there the rewriter does not match
        self._active: set[tuple[str, int]] = set()

    def captures(self, transforms: list[Transform], env: MetaVarEnv, m: NodeMatch) -> dict[str, Capture]:
        """`m`'s captures with each transformation's result added (placed where its source
        was captured, for the fix's indentation). A text transformation of an unbound source
        gives nothing; a rewrite of one gives the empty text, as ast-grep does."""
        metavars = dict(m.metavars)
        for t in transforms:
            base = metavars.get(t.source)
            if t.op == "rewrite":
                text = self._rewrite(t, env)
            elif base is None:
                continue
            else:
                text = apply_text_transform(t, base.text)
            if base is None:
                metavars[t.name] = Capture(text, m.start_byte, m.start_byte, m.start, m.start)
            else:
                metavars[t.name] = Capture(text, base.start_byte, base.end_byte, base.start, base.end)
        return metavars

    def fix_edit(self, fix: Fix, node: tree_sitter.Node, env: MetaVarEnv, m: NodeMatch,
                 metavars: dict[str, Capture]) -> tuple[int, int, str]:
        """(start byte, end byte, text) that `fix` puts in place of the match at `node`: the
        range reaches over the siblings `expandStart`/`expandEnd` match; a metavariable the
        match did not bind is replaced by nothing, as ast-grep does."""
        from minitools.match import Template, render

        start, end = node.start_byte, node.end_byte
        if fix.expand_start is not None:
            n = SCOPE.prev_sibling(node)
            while n is not None and fix.expand_start.match(n, env) is not None:
                start = n.start_byte
                n = SCOPE.prev_sibling(n)
        if fix.expand_end is not None:
            n = SCOPE.next_sibling(node)
            while n is not None and fix.expand_end.match(n, env) is not None:
                end = n.end_byte
                n = SCOPE.next_sibling(n)
        template = Template.parse(fix.template)
        for name in template.names - set(metavars):
            metavars[name] = Capture("", m.start_byte, m.start_byte, m.start, m.start)
        return start, end, render(template, m._replace(metavars=metavars), self.source)

    def _rewrite(self, t: Transform, env: MetaVarEnv) -> str:
        value = env.get(t.source)
        nodes = [] if value is None else list(value) if isinstance(value, list) else [value]
        if not nodes:
            return ""
        rewriters = [self.rewriters[i] for i in t.args["rewriters"]]  # ids checked when read
        edits: list[tuple[int, int, str]] = []
        for top in nodes:
            self._edits_under(top, rewriters, edits)
        join_by = t.args.get("joinBy")
        if join_by is not None:
            return join_by.join(text for _, _, text in edits)
        start, end = nodes[0].start_byte, nodes[-1].end_byte
        out: list[str] = []
        pos = start
        for e_start, e_end, text in edits:
            out.append(self.source[pos:max(pos, e_start)].decode("utf-8", "replace"))
            out.append(text)
            pos = e_end
        out.append(self.source[pos:end].decode("utf-8", "replace"))
        return "".join(out)

    def _edits_under(self, top: tree_sitter.Node, rewriters: list[Rewriter], edits: list[tuple[int, int, str]]) -> None:
        """Add to `edits` those the rewriters make at `top` and the nodes under it, pre-order;
        an edit starting before the end of the last one is left out."""
        stack = [top]
        while stack:
            n = stack.pop()
            covered = edits[-1][1] if edits else -1
            if n.end_byte <= covered and n.start_byte < covered:
                continue  # inside an edit made: nothing here can be kept
            if n.start_byte >= covered:
                for rewriter in rewriters:
                    got = self._match(rewriter, n)
                    if got is None:
                        continue
                    edit = self._rewriter_edit(rewriter, n, got)
                    if edit[0] >= covered:
                        edits.append(edit)
                    break  # the first rewriter that matches wins
            stack.extend(reversed(SCOPE.kids(n)))

    def _match(self, rewriter: Rewriter, node: tree_sitter.Node) -> MetaVarEnv | None:
        if (rewriter.id, node.id) in self._active or len(self._active) >= MAX_NESTING:
            return None
        got = rewriter.rule.match(node, self.enclosing)
        constrained = None if got is None else constrain(rewriter.constraints, got)
        return None if constrained is None else constrained[0]

    def _rewriter_edit(self, rewriter: Rewriter, node: tree_sitter.Node, env: MetaVarEnv) -> tuple[int, int, str]:
        key = (rewriter.id, node.id)
        self._active.add(key)
        try:
            m = node_match(self.language, self.source, None, node, node, env)
            metavars = self.captures(rewriter.transforms, env, m)
            return self.fix_edit(rewriter.fix, node, env, m, metavars)
        finally:
            self._active.discard(key)
