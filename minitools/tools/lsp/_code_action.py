"""The code actions a server offers at a line: `lsp code_actions` lists them, and
`lsp_code_action` (write tier) applies one of them. The action's workspace edit (its text edits,
and the files it creates, renames or deletes) is staged exactly as `ast_edit` stages a rewrite (a
diff and an `edit_id`; `resolve` writes every file or none and reports the diagnostics it
introduced), never written here. An action that only runs a server command is refused: its
changes would happen on the server's side, where they could not be shown first or undone."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.lsp import EditError, PeerPayloadError, ServerGone, split_lines, to_lsp_column, uri_to_path
from minitools.protocol import METHOD_NOT_FOUND
from minitools.tools.lsp._actions import CAPS
from minitools.tools.lsp._proposal import plan_edit, propose
from minitools.tools.lsp._session import LSPSession, SessionPart, Target
from minitools.toolspec import ToolError, ToolResult
from minitools.transport import RPCError

__all__ = ["CodeActions"]

class CodeActions(SessionPart):
    async def offered(self, args: Mapping[str, Any], action: str) -> tuple[Target, list[dict[str, Any]], list[dict[str, Any]]]:
        """The code actions the server offers at `line` (narrowed to `symbol`'s text when given),
        for the diagnostics current on that line: (target, actions as the server sent them, diagnostics)."""
        s = self.s
        t = await s.target(args, action, position="line")
        client, doc, line, at = t.client, t.doc, t.line, t.at
        s.require(client, "codeActionProvider", "code actions")
        # quick fixes are offered for the diagnostics we pass: make sure they are current
        await s.fresh_diagnostics(client, doc, t.mark, t.resent)
        body = split_lines(doc.text)[line - 1]
        end_col = len(body)
        if at is not None:  # the text the symbol covers on the line
            start = {"line": line - 1, "character": to_lsp_column(body, at.start, client.encoding)}
            end_col = at.end
        else:
            start = {"line": line - 1, "character": 0}
        end = {"line": line - 1, "character": to_lsp_column(body, end_col, client.encoding)}
        on_line = [d for d in client.diagnostics.get(doc.uri, [])
                   if d.get("range", {}).get("start", {}).get("line", -1) <= line - 1 <= d.get("range", {}).get("end", {}).get("line", -1)]
        params = {"textDocument": {"uri": doc.uri}, "range": {"start": start, "end": end},
                  "context": {"diagnostics": on_line, "triggerKind": 1}}
        effect = "not applied; nothing was staged" if action == "lsp_code_action" else "not used"
        result = await s.request(client, "textDocument/codeAction", params, action, effect=effect) or []
        return t, [item for item in result if isinstance(item, dict)], on_line

    async def listing(self, args: Mapping[str, Any]) -> ToolResult:
        """The `lsp code_actions` action: the actions offered at `line`, numbered for `apply`."""
        t, result, on_line = await self.offered(args, "code_actions")
        client, line = t.client, t.line
        symbol = args.get("symbol") or ""
        actions = []
        for item in result[: CAPS["code_actions"]]:
            is_command = isinstance(item.get("command"), str)
            actions.append({"title": item.get("title"), "kind": None if is_command else item.get("kind"),
                            "preferred": bool(item.get("isPreferred")), "has_edit": "edit" in item,
                            "command_only": is_command or ("edit" not in item and "command" in item and "data" not in item),
                            "fixes": [d.get("message") for d in item.get("diagnostics", [])]})
        where = f"{t.rel}:{line}" + (f' ("{symbol}")' if symbol else "")
        if not actions:
            text = f"{client.spec.id} offers no code actions at {where}."
        else:
            text = "\n".join([f"code actions at {where} ({len(result)}; lsp_code_action applies one by number or title)"] +
                             [f"{i}. {a['title']}" + (f" [{a['kind']}]" if a["kind"] else "") + (" (preferred)" if a["preferred"] else "")
                              + (" (a server command)" if a["command_only"] else "")
                              for i, a in enumerate(actions, 1)])
        return ToolResult(ok=True, text="\n".join(t.notes + [text]),
                          data={"server": client.spec.id, "actions": actions, "diagnostics": on_line, "total": len(result)})

    async def apply(self, args: Mapping[str, Any]) -> ToolResult:
        t, offered, _diagnostics = await self.offered(args, "lsp_code_action")
        client = t.client
        where = f"{t.rel}:{t.line}"
        item = _choose(offered, args["action"], where, client.spec.id)
        title = item.get("title", "")
        edit = item.get("edit")
        if edit is None and "data" in item and _resolves(client.capabilities):
            try:
                item = await self.s.request(client, "codeAction/resolve", item, "lsp_code_action",
                                            effect="not applied; nothing was staged") or item
            except ToolError as exc:
                if not (isinstance(exc.data, dict) and exc.data.get("code") == METHOD_NOT_FOUND):
                    raise
            edit = item.get("edit")
        command = item.get("command") if isinstance(item.get("command"), dict) else (
            item if isinstance(item.get("command"), str) else None)
        if not edit and command is not None and _executes(client.capabilities, command.get("command")):
            # the command's edits come back as workspace/applyEdit requests: kept, not applied
            started = _file_clock(self.ctx.root)
            edits = await _captured(self.s, client, command)
            edit = None if not edits else _merged(edits) if started is None else _taken_back(_merged(edits), started, self.ctx.root)
        if not edit:
            raise ToolError(f'"{title}" at {where} runs a server command that returns no workspace edit; minitools '
                            "does not let a server change files it cannot show first. Nothing was changed; pick an "
                            "action that edits, or make the change with ast_edit.",
                            data={"server": client.spec.id, "title": title})
        try:
            plan = plan_edit(self.ctx, client, edit)
        except EditError as exc:
            raise ToolError(f'"{title}" at {where} cannot be staged: {exc}. Nothing was changed.') from None
        return propose(self.ctx, plan, title, f'"{title}" at {where}', t.notes, {"title": title, "server": client.spec.id})


def _choose(offered: list[dict[str, Any]], choice: Any, where: str, server: str) -> dict[str, Any]:
    """The action `choice` names: its number in the code_actions list (from 1) or its title."""
    titles = [str(item.get("title", "")) for item in offered]
    listing = "; ".join(f"{i}. {t}" for i, t in enumerate(titles, 1)) or "none"
    if isinstance(choice, int) and not isinstance(choice, bool):
        if 1 <= choice <= len(offered):
            return offered[choice - 1]
        raise ToolError(f"{server} offers {len(offered)} code actions at {where}, so there is no action {choice}: "
                        f"{listing}. Nothing was changed.")
    exact = [item for item, title in zip(offered, titles) if title == choice]
    if len(exact) == 1:
        return exact[0]
    partial = [item for item, title in zip(offered, titles) if str(choice).lower() in title.lower()]
    if len(partial) == 1 and not exact:
        return partial[0]
    why = "several actions have that title" if len(exact) > 1 or len(partial) > 1 else "no action has that title"
    raise ToolError(f'{why} at {where} ("{choice}"); the actions are: {listing}. Give the number. Nothing was changed.')


def _executes(capabilities: Mapping[str, Any], command: Any) -> bool:
    provider = capabilities.get("executeCommandProvider")
    return isinstance(provider, dict) and command in (provider.get("commands") or [])


async def _captured(session: LSPSession, client: Any, command: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        return list(await client.capture_edits(command, session.timeout))
    except ServerGone as exc:
        session.sup.acknowledge_crash(client)
        raise ToolError(f"{client.spec.id} crashed running the action's command: {exc}. Nothing was changed.") from None
    except RPCError as exc:
        raise ToolError(f"{client.spec.id} refused the action's command: {exc.message}. Nothing was changed.") from None
    except TimeoutError:
        raise ToolError(f"{client.spec.id} did not finish the action's command within {session.timeout:g} s. "
                        "Nothing was changed.") from None
    except PeerPayloadError as exc:
        raise ToolError(f"{client.spec.id} sent {exc.what} that does not fit the protocol ({exc.reason}): not applied; "
                        "nothing was staged.", data={"server": client.spec.id, "invalid": exc.reason}) from None


def _merged(edits: list[dict[str, Any]]) -> dict[str, Any]:
    """One workspace edit of several (a command may send its edits in parts)."""
    if len(edits) == 1:
        return edits[0]
    return {"documentChanges": [op for edit in edits for op in _document_changes(edit)]}


def _document_changes(edit: dict[str, Any]) -> list[Any]:
    """A workspace edit's changes as `documentChanges` (a `changes` map in that form)."""
    return edit.get("documentChanges") or [{"textDocument": {"uri": uri, "version": None}, "edits": text_edits}
                                          for uri, text_edits in (edit.get("changes") or {}).items()]


def _file_clock(root: Path) -> int | None:
    """The file system's own clock now: the change time of a nameless file made in the root (None
    when none can be made there: nothing is taken back). File times are compared with it, not with
    the wall clock, which runs ahead of a file system's coarse clock (a margin for that took back a
    file made by someone else up to 50 ms before the command)."""
    try:
        with tempfile.TemporaryFile(dir=root) as marker:
            return os.fstat(marker.fileno()).st_ctime_ns
    except OSError:
        return None


def _taken_back(edit: dict[str, Any], started: int, root: Path) -> dict[str, Any]:
    """`edit` with the files the server's command made on disk while it ran taken back off the
    disk and made by the edit instead (a create, then the text): typescript-language-server
    writes a refactor's new file, empty, before it sends the edit that fills it, so a
    discarded "Move to a new file" would leave that file behind. Such a file is one the edit
    names, empty, a regular file inside the root made after the command started: its change time
    later than `started`, the file system's clock then (`_file_clock`); one made in the same tick
    is left alone, never taken for the command's."""
    changes = _document_changes(edit)
    made = []
    for uri in dict.fromkeys(op["textDocument"]["uri"] for op in changes if "textDocument" in op):
        path = os.path.realpath(uri_to_path(uri))
        if not path.startswith(str(root).rstrip(os.sep) + os.sep):
            continue
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_size == 0 and info.st_ctime_ns > started:
            os.unlink(path)
            made.append({"kind": "create", "uri": uri})
    return {"documentChanges": made + changes} if made else edit


def _resolves(capabilities: Mapping[str, Any]) -> bool:
    provider = capabilities.get("codeActionProvider")
    return isinstance(provider, dict) and bool(provider.get("resolveProvider"))
