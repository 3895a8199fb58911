"""The lsp `diagnostics` action for one file: its diagnostics from its server, the current
text's (docs/tools.md); ``file "*"`` is the project checker (`_checker`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minitools.tools.lsp._format import diagnostic_row, format_diagnostic
from minitools.tools.lsp._session import LSPSession, SessionPart
from minitools.tools.lsp._written import WriteDiagnostics
from minitools.toolspec import ToolError, ToolResult

__all__ = ["LSPDiagnostics"]

CAP = 100  # errors and warnings listed for one file


class LSPDiagnostics(SessionPart):
    def __init__(self, session: LSPSession, record: WriteDiagnostics) -> None:
        super().__init__(session)
        self.record = record

    async def check(self, args: Mapping[str, Any]) -> ToolResult:
        s = self.s
        t = await s.target(args, "diagnostics", position="none")
        client, doc, notes, rel = t.client, t.doc, t.notes, t.rel
        found = await s.fresh_diagnostics(client, doc, t.mark, t.resent)
        if found is None:
            raise ToolError("\n".join(notes + [
                f"diagnostics unavailable: {client.spec.id} published nothing for {rel} within {s.diag_timeout:g} s. "
                "This is not a clean result; try again, or lsp reload."]), data={"server": client.spec.id, "checked": False})
        items = [diagnostic_row(client, rel, doc.text, d) for d in found]
        self.record.shown(rel, items)  # shown to the model: no longer new
        listed = [d for d in items if d["severity"] in ("error", "warning")]
        others = len(items) - len(listed)
        lines = [format_diagnostic(d) for d in listed[:CAP]]
        if len(listed) > CAP:
            lines.append(f"... and {len(listed) - CAP} more")
        summary = f"{rel}: {sum(d['severity'] == 'error' for d in items)} errors, {sum(d['severity'] == 'warning' for d in items)} warnings"
        if others:
            summary += f", {others} hints/information not listed"
        summary += f" ({client.spec.id})"
        return ToolResult(ok=True, text="\n".join(notes + [summary] + lines),
                          data={"server": client.spec.id, "checked": True, "diagnostics": items})
