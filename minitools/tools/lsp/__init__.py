"""The "lsp" family: `lsp` (read tier: queries), `lsp_rename` and `lsp_code_action` (write tier), and the
write-time diagnostics service (`RunContext.diagnostics`) that `Run.written` and `Run.wrap` call.

The family is split by what each part holds: `_session` (the steps every action shares
and the options), the queries by kind: `_navigation` (definition, references, hover, ...),
`_hierarchy` (the call and type hierarchies), `_symbols` (a workspace search or a file's
outline), `_code_action` (code actions listed and one applied) and `_servers` (the servers a
query waits for, and status); `_diagnostics` (the `diagnostics` action for a file), `_checker`
(`diagnostics "*"`, the project checker), `_written` (the write-time record), `_dependents` (the
files a write may break besides those it wrote), `_ledger` (what is new to the run), `_format` (pure
formatting), the frame's `_symbol_address` (where a `symbol` points on its line) and `_outline` (a file's outline
under the row cap).
This module registers the tools, dispatches the actions and applies a rename.

Positions are a 1-based `line` plus a `symbol` substring, never a column (docs/tools.md): a
guessed column resolves to another symbol on the same line and looks right.
Options (``Run(root, **options)``): `lsp_timeout` (seconds per request, 30),
`lsp_init_timeout` (30), `lsp_diagnostics_timeout` (seconds to wait for a push, 8),
`lsp_diagnostics_quiet` (quiet period after the last push, 0.6), `lsp_diagnostics_idle` (a write-time wait
ends when the server has sent nothing for this long and is idle, 3), `lsp_ready_timeout` (the wait
for a new server's first publish, its only readiness signal, 10), `lsp_diagnostics_cap`
(per file, 20), `lsp_checker_timeout` (120), `lsp_index_timeout` (the first project-wide
query's wait for a server's index, 30), `lsp_path` (extra directories searched for server
binaries), `lsp_servers` (``{"python": ["pylsp"]}``: candidates to use, in order),
`lsp_dependents` (files that depend on a written one, checked with it, 8; 0: none),
`lsp_dependents_wait` (seconds their diagnostics are waited for, 4), `lsp_dependents_scan`
(seconds the workspace is read to find them, 0.5).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from minitools.edits import EditStore, StagedEdit, StagedFile, StaleEdit, UnsafeEdit, WriteFailed
from minitools.lsp import EditError, FileChange, ServerCatalog, Supervisor, added_server, check_plan
from minitools.schema import parameters_schema
from minitools.text import plural
from minitools.tools._context import RunContext
from minitools.tools._symbol_address import address_properties
from minitools.tools.lsp._actions import ACTIONS, AT_SYMBOL, NAVIGATION, described
from minitools.tools.lsp._checker import ProjectChecker
from minitools.tools.lsp._code_action import CodeActions
from minitools.tools.lsp._diagnostics import LSPDiagnostics
from minitools.tools.lsp._extent import ServerExtents
from minitools.tools.lsp._format import SYMBOL_KINDS
from minitools.tools.lsp._hierarchy import HIERARCHIES, Hierarchies
from minitools.tools.lsp._navigation import Navigation
from minitools.tools.lsp._proposal import plan_edit, propose
from minitools.tools.lsp._servers import Servers
from minitools.tools.lsp._session import LSPSession, SessionPart
from minitools.tools.lsp._symbols import Symbols
from minitools.tools.lsp._written import WriteDiagnostics
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build"]

LSP_SPEC = ToolSpec(
    name="lsp",
    tier=Tier.READ,
    description=(
        "Ask the project's language server. Positions are a 1-based `line` plus a `symbol`: text of that line "
        "(never a column) whose last identifier is the one meant (`self._spec` means `_spec`). Actions: "
        + described() + ". Results are path:line with the line's text; a capped list names the `offset` of its "
        "next page."
    ),
    parameters=parameters_schema({
        "action": {"type": "string", "enum": list(ACTIONS), "description": "What to ask the server."},
        **address_properties("File the question is about, relative to the workspace root; "
                             "\"*\" with diagnostics runs the whole-project checker.",
                             "1-based line number in `file` (with symbols: "
                             "list the entries inside the one at that line).",
                             "Text on `line` naming the symbol: its identifier "
                             "(a whole word found once on the line), or more of the line when it occurs several times; its "
                             "last identifier is the one meant. Required by " + ", ".join(AT_SYMBOL) + "."),
        "query": {"type": "string", "description": "Name (or part of one) to search the workspace for, with symbols."},
        "kind": {"type": "string", "enum": list(SYMBOL_KINDS[1:]),
                 "description": "With symbols and `query`: only symbols of this kind (class, function, method, ...)."},
        "offset": {"type": "integer", "minimum": 0, "description": "With references, symbols and the call and type lists: "
                   "skip this many entries (a capped result names the offset of its next page)."},
        "body": {"type": "boolean", "description": "definition, type_definition and implementation show the source "
                 "of the symbol at each place they lead to (at most 3 places; a long body is cut, saying where the "
                 "rest is); false leaves it out. With symbols, file and line: true shows the body of the entry "
                 "at that line."},
    }, required=["action"]),
)

RENAME_SPEC = ToolSpec(
    name="lsp_rename",
    tier=Tier.WRITE,
    description=(
        "Rename a symbol across the project through the language server, all files or none. Give the file, "
        "the 1-based line and a substring of that line naming the symbol, and the new name. Reports every "
        "file changed and its edit count, plus any new diagnostics. A rename that also creates, renames or "
        "deletes files is staged instead (a diff and an edit_id for resolve), never written at once."
    ),
    parameters=parameters_schema({
        **address_properties("File where the symbol appears, relative to the workspace root.",
                             "1-based line number where the symbol appears.",
                             "Text of that line naming the symbol (as for lsp: "
                             "its last identifier is the one renamed)."),
        "new_name": {"type": "string", "minLength": 1, "description": "The new name."},
    }, required=["file", "line", "symbol", "new_name"]),
    parallel_safe=False,
)

CODE_ACTION_SPEC = ToolSpec(
    name="lsp_code_action",
    tier=Tier.WRITE,
    description=(
        "Apply one of the code actions `lsp code_actions` lists at a line (a quick fix, an import, a refactoring). "
        "Nothing is written here: the action's edit is staged like ast_edit's, shown as a diff with an edit_id; "
        "resolve accepts it (all files or none, with the diagnostics it introduced) or discards it. Actions that "
        "only run a server command are refused."
    ),
    parameters=parameters_schema({
        **address_properties("File the action is for, relative to the workspace root.",
                             "1-based line, as given to code_actions.",
                             "Text on that line, as given to code_actions "
                             "(optional: the whole line otherwise)."),
        "action": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "minLength": 1}],
                   "description": "The action's number in the code_actions list (from 1), or its title."},
    }, required=["file", "line", "action"]),
    parallel_safe=False,
)


def build(ctx: RunContext) -> list[Tool]:
    """The `lsp` and `lsp_rename` tools, over a lazily started supervisor (no process starts here)."""

    def factory() -> Supervisor:
        extra = [Path(p) for p in ctx.option("lsp_path", [])]
        added = tuple(added_server(entry) for entry in ctx.option("lsp_added_servers", ()))
        return Supervisor(ctx.root, tracer=ctx.trace, search_path=extra, prefer=ctx.option("lsp_servers", None),
                          init_timeout=float(ctx.option("lsp_init_timeout", 30.0)), catalog=ServerCatalog(added))

    supervisor = ctx.resource("lsp", factory)
    if supervisor is None:
        return []
    family = LSPFamily(LSPSession(ctx, supervisor))
    ctx.on_close(supervisor.close)
    ctx.diagnostics = family.record
    ctx.symbols = ServerExtents(family.s)
    return [Tool(LSP_SPEC, family.lsp), Tool(RENAME_SPEC, family.rename), Tool(CODE_ACTION_SPEC, family.code_action.apply)]


Action = Callable[[Mapping[str, Any]], Awaitable[ToolResult]]


class LSPFamily(SessionPart):
    """The parts of the family over one session; `lsp` dispatches its actions through `actions`."""

    def __init__(self, session: LSPSession) -> None:
        super().__init__(session)
        self.record = WriteDiagnostics(session)
        self.servers = Servers(session)
        self.navigation = Navigation(session, self.servers)
        self.hierarchies = Hierarchies(session, self.servers)
        self.symbols = Symbols(session, self.servers)
        self.diagnostics = LSPDiagnostics(session, self.record)
        self.checker = ProjectChecker(session)
        self.code_action = CodeActions(session)
        session.ctx.warmups.append(self.warm_up)
        navigate = {a: partial(self.navigation.navigate, a) for a in NAVIGATION}
        calls = {a: partial(self.hierarchies.hierarchy, a) for a in HIERARCHIES}
        self.actions: dict[str, Action] = {
            **navigate, **calls, "diagnostics": self.diagnose, "symbols": self.symbols.symbols,
            "code_actions": self.code_action.listing, "status": self.status, "reload": self.reload,
        }
        assert set(self.actions) == set(ACTIONS), "every action in the spec has a handler"

    async def lsp(self, args: Mapping[str, Any]) -> ToolResult:
        return await self.actions[args["action"]](args)

    async def diagnose(self, args: Mapping[str, Any]) -> ToolResult:
        if args.get("file") == "*":
            return await self.checker.run()
        return await self.diagnostics.check(args)

    async def warm_up(self) -> None:
        """Start the servers the root's projects need, and wait for each to be ready, so the
        first query does not pay for it (`Run.warm_up`; `minitools mcp` does it at start)."""
        for client in await self.servers.start_for_root():
            await self.servers.make_ready(client)

    async def status(self, args: Mapping[str, Any]) -> ToolResult:
        return self.servers.status()

    async def reload(self, args: Mapping[str, Any]) -> ToolResult:
        stopped = await self.s.sup.reload()
        what = ", ".join(stopped) if stopped else "no server was running"
        return ToolResult(ok=True, text=f"reloaded: stopped {what}; servers start again on the next query.",
                          data={"stopped": stopped})

    async def rename(self, args: Mapping[str, Any]) -> ToolResult:
        s = self.s
        t = await s.target(args, "lsp_rename")
        client, doc, line, at, notes = t.client, t.doc, t.line, t.resolved, t.notes
        symbol = at.name
        s.require(client, "renameProvider", "rename")
        params = {"textDocument": {"uri": doc.uri}, "position": t.position, "newName": args["new_name"]}
        edit = await s.request(client, "textDocument/rename", params, "rename", effect="not applied; no file was written")
        where = f"{t.rel}:{line}"
        if not edit or not (edit.get("changes") or edit.get("documentChanges")):
            raise ToolError(f'{client.spec.id} produced no edits renaming "{symbol}" at {where} to "{args["new_name"]}"; '
                            "nothing was changed. Check that the symbol is something renameable (lsp hover shows what it is).",
                            data={"server": client.spec.id, "edit": edit})
        try:
            plan = plan_edit(self.ctx, client, edit)
            if not plan:
                raise EditError("the server's edit changes nothing")
        except EditError as exc:
            raise ToolError(f'rename of "{symbol}" at {where} to "{args["new_name"]}" was not applied: {exc}. '
                            "No file was written; call lsp_rename again.", data={"server": client.spec.id}) from None
        if any(c.operations for c in plan):
            # files made, renamed or removed are shown before anything is written: staged for resolve
            ops = ", ".join(f"{self.ctx.relpath(c.path)} ({', '.join(c.operations)})" for c in plan if c.operations)
            note = (f"{client.spec.id}'s rename also makes, renames or removes files ({ops}), so nothing was written: "
                    "the whole rename is staged, and resolve writes it (every file or none) or discards it.")
            return propose(self.ctx, plan, f'rename of "{symbol}" to "{args["new_name"]}"',
                           f'rename of "{symbol}" at {where} to "{args["new_name"]}"', [*notes, note],
                           {"server": client.spec.id, "staged": True})
        # the files' diagnostics before the rename, so that only what it broke is reported
        await self.record.before_write([str(c.path) for c in plan if c.after is not None])
        try:
            _write_plan(plan, self.ctx.root, self.ctx.relpath)
        except (EditError, StaleEdit, UnsafeEdit) as exc:
            raise ToolError(f'rename of "{symbol}" at {where} to "{args["new_name"]}" was not applied: {exc}. '
                            "No file was written; call lsp_rename again.", data={"server": client.spec.id}) from None
        except WriteFailed as exc:
            kept = f"; could not restore {', '.join(exc.unrestored)}" if exc.unrestored else "; every file was restored"
            raise ToolError(f'rename of "{symbol}" at {where} to "{args["new_name"]}" failed writing {exc.display} '
                            f"({exc.error.strerror or exc.error}){kept}.", data={"server": client.spec.id}) from None
        written = [c.path for c in plan if c.after is not None]
        # `written` syncs and saves each file itself, after taking what the server had
        # published before as the baseline; renamed-away and deleted files are closed here
        diagnostics = await self.record.written([str(p) for p in written], renamed=(symbol, args["new_name"]))
        await s.sync_quietly(client)
        total = sum(c.edits for c in plan)
        lines = [f'renamed "{symbol}" to "{args["new_name"]}": {plural(total, "edit")} in {plural(len(plan), "file")}']
        if at.note(line):
            lines.append(at.note(line))
        files = []
        for c in plan:
            ops = f" ({', '.join(c.operations)})" if c.operations else ""
            lines.append(f"  {self.ctx.relpath(c.path)}: {plural(c.edits, 'edit')}{ops}")
            files.append({"file": self.ctx.relpath(c.path), "edits": c.edits, "operations": c.operations})
        text = "\n".join(notes + lines)
        text += "\n\n" + diagnostics.text  # what was found, or that the files were checked and are clean, or why not
        followed = await self.ctx.after_write([str(c.path) for c in plan])  # breakpoints move with their lines
        text += "".join("\n" + note for note in followed)
        return ToolResult(ok=True, text=text, data={"server": client.spec.id, "files": files, "edits": total,
                                                    "diagnostics": diagnostics.to_json(),
                                                    **({"after_write": followed} if followed else {})})


def _write_plan(plan: list[FileChange], root: Path, relpath: Callable[[Path], str]) -> None:
    """Write a rename's changes, all or none, as `resolve` accepts an edit: each file reached
    from the root through folders opened one by one without following a symlink, written (or
    made, or removed: a server's file operations) by its folder's descriptor; a folder swapped
    for a symlink meanwhile is refused, not followed."""
    check_plan(plan)  # read-only or changed files refused first, with the lsp's own words
    files = [StagedFile.of_text(c.path, relpath(c.path), c.before, c.after, c.edits) for c in plan]
    EditStore.commit(StagedEdit("lsp_rename", files, ""), root)
