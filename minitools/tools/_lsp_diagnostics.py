"""The lsp `diagnostics` action: one file's diagnostics from its server, or with ``file "*"``
the project checker (pyright/basedpyright, tsc, …) run over the workspace (docs/tools.md)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from minitools.lsp import CATALOG, Supervisor, find_binary, find_root, path_to_uri, servers_for
from minitools.tools._lsp_format import diagnostic_row, format_diagnostic
from minitools.tools._lsp_session import LSPSession
from minitools.tools._write_diagnostics import WriteDiagnostics
from minitools.toolspec import ToolError, ToolResult

__all__ = ["LSPDiagnostics"]

CAP = 100  # errors and warnings listed for one file


class LSPDiagnostics:
    def __init__(self, session: LSPSession, record: WriteDiagnostics) -> None:
        self.s = session
        self.ctx = session.ctx
        self.sup = session.sup
        self.record = record

    async def file(self, args: Mapping[str, Any]) -> ToolResult:
        s = self.s
        path = s.file(args, "diagnostics")
        client, notes = await s.client(path)
        mark = client.diagnostics_mark(path_to_uri(path))
        doc = await s.sync(client, path)
        found = await s.fresh_diagnostics(client, doc, mark)
        rel = self.ctx.relpath(path)
        if found is None:
            return ToolResult(ok=False, text="\n".join(notes + [
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

    async def project(self) -> ToolResult:
        timeout = float(self.ctx.option("lsp_checker_timeout", 120.0))
        prefer = self.ctx.option("lsp_servers", None) or {}
        outputs = []
        reasons = []
        done: set[str] = set()
        for lang in dict.fromkeys(lang for spec in CATALOG for lang in spec.languages):
            for spec in servers_for(lang, prefer.get(lang)):
                if spec.id in done or spec.checker is None:
                    continue
                root = find_root(self.ctx.root, spec.root_markers, self.ctx.root)
                if root is None:
                    break
                if self.sup.binary(spec) is None and spec.checker[0] != spec.argv[0] and \
                        not _has_binary(self.sup, spec.checker[0]):
                    reasons.append(f"{spec.id}: {spec.checker[0]} not installed")
                    continue
                if not _has_binary(self.sup, spec.checker[0]):
                    reasons.append(f"{spec.id}: checker {spec.checker[0]} not installed")
                    continue
                done.add(spec.id)
                result = await self.sup.run_checker(spec, root, timeout)
                status = "timed out" if result.timed_out else f"exit {result.returncode}"
                output = result.output.strip() or "(no output)"
                if len(output) > 12000:
                    output = output[:12000] + f"\n... ({len(result.output) - 12000} more characters)"
                outputs.append({"language": lang, "checker": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(result.argv)),
                                "returncode": result.returncode, "timed_out": result.timed_out, "output": output})
                outputs[-1]["status"] = status
                break
        if not outputs:
            why = "; ".join(reasons) or "no language's root marker is at the workspace root"
            raise ToolError(f'diagnostics "*" found no project checker to run ({why}); ask diagnostics file by file instead.')
        text = "\n\n".join(f"$ {o['checker']}  ({o['language']}, {o['status']})\n{o['output']}" for o in outputs)
        return ToolResult(ok=True, text=text, data={"checkers": outputs})


def _has_binary(sup: Supervisor, name: str) -> bool:
    return find_binary(name, sup.search_path) is not None
