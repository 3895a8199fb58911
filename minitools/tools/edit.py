"""ast_edit and resolve — structural rewrites, staged, accepted all or nothing
(docs/tools.md, "ast_edit, resolve"). Both write tier.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from minitools.edits import (
    EditStore,
    RewriteStopped,
    StagedEdit,
    StagedFile,
    StaleEdit,
    UnknownEdit,
    UnsafeEdit,
    WriteFailed,
    file_operation,
    propose_rewrite,
    scan_rule,
)
from minitools.match import PathError, Searcher, Template, TemplateError, bound_plan
from minitools.schema import parameters_schema
from minitools.text import plural
from minitools.tools._context import RunContext
from minitools.tools._search_args import (
    RULE_PARAMETER,
    compile_for,
    languages_note,
    one_of_pattern_or_rule,
    read_rule_arg,
    shared_searcher,
    target_parameters,
    targets_for,
)
from minitools.tools._search_thread import search_in_thread
from minitools.tools._staged import stage_proposal
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build"]

AST_EDIT_DESCRIPTION = (
    "Rewrite code by shape: the same matching as ast_grep, plus a rewrite template into which the "
    "captured $NAME / $$$NAME text is put back (multi-line captures are re-indented). Nothing is "
    "written: the edit is staged and the result shows a diff and an edit_id; call resolve with that "
    "edit_id to accept (all files or none) or discard it. Instead of pattern and rewrite, a rule "
    "(an ast-grep rule object) with its fix may be given."
)
AST_EDIT_PARAMETERS = parameters_schema({
    "pattern": {"type": "string", "description": "What to match: a code fragment with metavariables, e.g. \"dispose($X)\"."},
    "rewrite": {"type": "string", "description": "What to put in its place, with the pattern's metavariables, e.g. \"$X.dispose()\" "
                "(with rule: the fix, when the rule has none)."},
    "rule": RULE_PARAMETER,
    **target_parameters("to rewrite in", "rewritten"),
})
RESOLVE_DESCRIPTION = (
    "Accept or discard an edit staged by ast_edit, symbol_edit or lsp_code_action. accept re-reads every file and writes them all "
    "only if none changed since the edit was staged (otherwise nothing is written); discard drops it. "
    "Each edit resolves once. A file made read-only is not written unless force is true."
)
RESOLVE_PARAMETERS = parameters_schema({
    "edit_id": {"type": "string", "description": 'The id from the (proposed) result, e.g. "edit_1".'},
    "action": {"type": "string", "enum": ["accept", "discard"], "description": "accept writes the edit; discard drops it."},
    "force": {"type": "boolean", "default": False,
              "description": "accept: also write files that are read-only (as an editor's force-save)."},
}, required=["edit_id", "action"])

AST_EDIT_SPEC = ToolSpec("ast_edit", Tier.WRITE, AST_EDIT_DESCRIPTION, AST_EDIT_PARAMETERS)
RESOLVE_SPEC = ToolSpec("resolve", Tier.WRITE, RESOLVE_DESCRIPTION, RESOLVE_PARAMETERS)


def _done(f: StagedFile) -> str:
    what = file_operation(f)
    return {"create": "created", "delete": "deleted"}[what] if what else plural(f.replacements, "replacement")


def _plain_fix(template: str) -> Any:
    from minitools.rules import Fix

    return Fix(template, None, None)


def _vanished_note(vanished: list[str]) -> str:
    if not vanished:
        return ""
    return (f"{plural(len(vanished), 'matching file')} vanished before it could be staged (deleted or replaced): "
            + ", ".join(vanished[:10]) + (" ..." if len(vanished) > 10 else ""))


def build(ctx: RunContext) -> list[Tool]:
    searcher = shared_searcher(ctx)
    if searcher is None:
        return []
    family = EditFamily(ctx, searcher, ctx.edits)
    return [Tool(AST_EDIT_SPEC, family.ast_edit), Tool(RESOLVE_SPEC, family.resolve)]


class EditFamily:
    """`ast_edit` stages a rewrite in the Run's edit store; `resolve` writes it (all files or none) or drops it."""

    def __init__(self, ctx: RunContext, searcher: Searcher, store: EditStore) -> None:
        self.ctx = ctx
        self.searcher = searcher
        self.store = store

    async def ast_edit(self, args: Mapping[str, Any]) -> ToolResult:
        if one_of_pattern_or_rule(args) == "rule":
            return await self._by_rule(args)
        if args.get("rewrite") is None:
            raise ToolError('give rewrite: the text to put in place of each match, e.g. "$X.dispose()"')
        plan, targets, where = compile_for(self.ctx, args)
        try:
            template = Template.parse(args["rewrite"])
            plan = bound_plan(plan, template)
        except TemplateError as exc:
            raise ToolError(str(exc)) from exc
        try:
            budget = self.searcher.budget()
            staged, inner, files_data, broken, vanished = await search_in_thread(
                budget, lambda: propose_rewrite(self.searcher, plan, template, targets, budget))
        except (PathError, RewriteStopped) as exc:
            raise ToolError(str(exc)) from exc
        note = "\n".join(filter(None, [languages_note(plan), _vanished_note(vanished)]))
        if not staged:
            return ToolResult(
                ok=True,
                text=f'no match of "{args["pattern"]}" ({", ".join(plan.languages) or "no file of a known language"}) '
                f"under {where}, so nothing was staged. Check the pattern with ast_grep first." + (f"\n{note}" if note else ""),
                data={"edit_id": None, "replacements": 0, "files": []},
            )
        notes = [note] if note else []
        if inner:
            notes.append(f"{inner} overlapping inner match{'es were' if inner != 1 else ' was'} left as they are (the outer edit wins); "
                         "run ast_edit again after accepting to reach them.")
        for b in broken:
            notes.append(f"warning: {b.file}:{b.line} no longer parses after this rewrite (it parsed before); check the template.")
        return stage_proposal(self.store, staged, notes, {"files": [f.to_json() for f in files_data], "overlapping_left": inner,
                                                          "no_longer_parses": [b.to_json() for b in broken], "vanished": vanished})

    async def _by_rule(self, args: Mapping[str, Any]) -> ToolResult:
        targets, where = targets_for(self.ctx, self.searcher, args.get("path"))
        config = read_rule_arg(self.ctx, args, targets)
        if config.fix is None:
            if args.get("rewrite") is None:
                raise ToolError(f'rule {config.id} has no fix; give one in the rule ("fix": "...") or as rewrite')
            config = config._replace(fix=_plain_fix(args["rewrite"]))
        try:
            budget = self.searcher.budget()
            scan = await search_in_thread(budget, lambda: scan_rule(self.searcher, config, targets, budget))
        except PathError as exc:
            raise ToolError(str(exc)) from exc
        if scan.stopped:
            raise ToolError(f"the search for rule {config.id} {scan.stopped}, before every file was searched, so "
                            "nothing was staged (a partial rewrite would be wrong); narrow the path or the rule.")
        staged, inner, broken = scan.fixes(self.searcher.root)
        if not staged:
            return ToolResult(
                ok=True,
                text=f"no match of rule {config.id} ({config.language}) under {where}, so nothing was staged. "
                "Check the rule with ast_grep first.",
                data={"edit_id": None, "replacements": 0, "files": []},
            )
        notes = []
        if inner:
            notes.append(f"{inner} fix{'es' if inner != 1 else ''} inside another were left out (the outer one wins); "
                         "run ast_edit again after accepting to reach them.")
        for b in broken:
            notes.append(f"warning: {b.file} no longer parses after this fix (it parsed before); check the fix.")
        files = [{"file": f.display, "replacements": f.replacements} for f in staged]
        return stage_proposal(self.store, staged, notes, {"rule_id": config.id, "files": files, "overlapping_left": inner,
                                                          "no_longer_parses": [b.to_json() for b in broken]})

    def _settled(self, edit: StagedEdit, commit: asyncio.Future[None]) -> None:
        """Record how an accept's commit ended, whether or not its call is still waiting: an
        unsafe edit is open again (nothing was written), any other is resolved."""
        error = None if commit.cancelled() else commit.exception()
        if isinstance(error, UnsafeEdit):
            self.store.reopen(edit)
        elif isinstance(error, StaleEdit):
            self.store.settle(edit.id, "rejected: its files changed since it was staged")
        elif error is not None:
            self.store.settle(edit.id, "rejected: a write failed")
        else:
            self.store.settle(edit.id, "accepted")

    async def resolve(self, args: Mapping[str, Any]) -> ToolResult:
        edit_id, action = args["edit_id"], args["action"]
        try:
            edit: StagedEdit = self.store.take(edit_id, "being accepted by another resolve call" if action == "accept"
                                               else "discarded")
        except UnknownEdit as exc:
            raise ToolError(str(exc)) from exc
        if action == "discard":
            return ToolResult(ok=True, text=f"discarded {edit.id} ({edit.summary}); nothing was written.",
                              data={"edit_id": edit.id, "action": "discard", "written": []})
        try:
            # the baseline: only what the edit breaks is reported after it
            await self.ctx.diagnostics.before_write([str(f.path) for f in edit.files])
        except BaseException:
            self.store.reopen(edit)  # cancelled before anything was written: still open
            raise
        commit = asyncio.ensure_future(asyncio.to_thread(EditStore.commit, edit, self.ctx.root,
                                                         force=bool(args.get("force"))))
        commit.add_done_callback(lambda done: self._settled(edit, done))
        try:
            await asyncio.shield(commit)  # a cancelled call's files are still written all or none
        except UnsafeEdit as exc:
            raise ToolError(
                f"{edit.id} not written: {'; '.join(exc.problems)}. Nothing was written and the edit stays open: fix "
                f'the cause and call resolve with edit_id "{edit.id}" again (force: true writes read-only files), or discard it.',
                data={"edit_id": edit.id, "action": "accept", "written": [], "refused": exc.problems},
            ) from exc
        except StaleEdit as exc:
            raise ToolError(
                f"{edit.id} rejected: {', '.join(exc.changed)} changed since the edit was staged, so nothing was written "
                "(a rewrite applied in part leaves code that is neither old nor new). Stage it again from the files as they are now.",
                data={"edit_id": edit.id, "action": "accept", "written": [], "changed": exc.changed},
            ) from exc
        except WriteFailed as exc:
            restored = f" Restored: {', '.join(exc.restored)}." if exc.restored else ""
            lost = f" COULD NOT RESTORE: {', '.join(exc.unrestored)}." if exc.unrestored else ""
            raise ToolError(
                f"{edit.id} failed while writing {exc.display} ({exc.error.strerror or exc.error}); "
                f"the files written before it were put back, so nothing changed.{restored}{lost} "
                "Fix the cause (permissions, disk space) and stage the edit again.",
                data={"edit_id": edit.id, "action": "accept", "written": [], "failed": exc.display,
                      "restored": exc.restored, "unrestored": exc.unrestored},
            ) from exc
        written = [f.display for f in edit.files]
        lines = [f"accepted {edit.id}: wrote {edit.summary}."]
        lines += [f"  {f.display}: {_done(f)}" for f in edit.files]
        data: dict[str, Any] = {"edit_id": edit.id, "action": "accept", "written": written,
                                "files": [{"file": f.display, "replacements": f.replacements,
                                           **({"operation": file_operation(f)} if file_operation(f) else {})}
                                          for f in edit.files]}
        diagnostics = await self.ctx.diagnostics.written([str(f.path) for f in edit.files if f.new is not None])
        data["diagnostics"] = diagnostics.to_json()
        lines += ["", diagnostics.text]  # what was found, or that the files were checked and are clean, or why not
        followed = await self.ctx.after_write([str(f.path) for f in edit.files])  # breakpoints move with their lines
        if followed:
            data["after_write"] = followed
            lines += ["", *followed]
        return ToolResult(ok=True, text="\n".join(lines), data=data)
