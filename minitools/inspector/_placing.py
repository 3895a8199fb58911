"""Where the client's breakpoints are in V8: a file's breakpoints replaced as DAP's
`setBreakpoints` does, each placed by URL (`Debugger.setBreakpointByUrl`, which also binds to a
script node loads later), a `.ts` breakpoint in the JavaScript compiled from it (on disk, or a
loaded script whose source map names it), and V8's breakpoint ids mapped back to them.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from minitools.inspector._breakpoints import SourceBreakpoint, breakpoint_from
from minitools.inspector._outfiles import OutFiles
from minitools.inspector._scripts import Script, Scripts, url_of_path
from minitools.inspector._session import CDPError, InspectorSession

__all__ = ["Placements", "MAPPED_SUFFIXES"]

MAPPED_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")  # files whose breakpoints go through source maps


class Placements:
    """The session's source breakpoints by file and by V8 breakpoint id."""

    def __init__(self, scripts: Scripts, outfiles: OutFiles) -> None:
        self.scripts = scripts
        self.outfiles = outfiles
        self.by_path: dict[str, list[SourceBreakpoint]] = {}
        self.by_cdp: dict[str, SourceBreakpoint] = {}
        self._placed: set[tuple[int, str]] = set()  # (breakpoint, compiled script URL) already placed
        self._ids = 0
        # a breakpoint on the first line of every script whose URL is a TypeScript file (a register
        # hook's output): the program stops there, before its code runs, while its breakpoints are
        # placed (node runs a CommonJS module as soon as it is compiled)
        self.loader_id = ""

    async def replace(self, cdp: InspectorSession, path: str, specs: list[dict[str, Any]]) -> list[dict[str, object]]:
        """Set `path`'s breakpoints to `specs` (DAP SourceBreakpoints); the DAP Breakpoints."""
        for old in self.by_path.pop(path, []):
            for cdp_id in old.cdp_ids:
                self.by_cdp.pop(cdp_id, None)
                with contextlib.suppress(CDPError):
                    await cdp.request("Debugger.removeBreakpoint", {"breakpointId": cdp_id})
        out: list[dict[str, object]] = []
        for spec in specs:
            self._ids += 1
            line = spec.get("line") if isinstance(spec, dict) else None
            if not isinstance(line, int) or isinstance(line, bool) or line < 1:
                out.append({"id": self._ids, "verified": False, "message": f"{spec!r:.80} has no line number (a positive integer)"})
                continue
            try:
                bp = breakpoint_from(spec, self._ids, path)
            except ValueError as exc:
                out.append({"id": self._ids, "verified": False, "line": line, "message": str(exc)})
                continue
            problem = await _syntax_error(cdp, bp)
            if problem:  # V8 would take it and read a bad condition as false: the breakpoint would never stop
                out.append({"id": bp.id, "verified": False, "line": bp.line, "message": problem})
                continue
            self.by_path.setdefault(path, []).append(bp)
            if path.endswith(MAPPED_SUFFIXES):
                if not self.loader_id:
                    answer = await cdp.request("Debugger.setBreakpointByUrl", {
                        "urlRegex": r"\.(ts|tsx|mts|cts)$", "lineNumber": 0, "columnNumber": 0})
                    self.loader_id = answer["breakpointId"]
                await self._through_maps(cdp, bp)
            else:
                answer = await cdp.request("Debugger.setBreakpointByUrl", {
                    "url": url_of_path(path), "lineNumber": bp.line - 1, "condition": bp.condition})
                self._bound(bp, answer["breakpointId"], answer.get("locations") or [])
                if not bp.verified:
                    bp.message = f"not bound yet: it binds when node loads {os.path.basename(path)}"
            out.append(bp.dap())
        return out

    async def _through_maps(self, cdp: InspectorSession, bp: SourceBreakpoint) -> None:
        """A .ts breakpoint: by URL on each compiled file whose map names it (found on disk), and
        in each loaded script whose map names it that was not among those."""
        name = os.path.basename(bp.path)
        for js, smap in self.outfiles.compiled(bp.path):
            where = smap.generated(os.path.realpath(bp.path), bp.line - 1)
            if where is None:
                bp.message = f"line {bp.line} of {name} has no code in the source map of {js}"
                continue
            url = url_of_path(js)
            answer = await cdp.request("Debugger.setBreakpointByUrl", {
                "url": url, "lineNumber": where[0], "columnNumber": where[1], "condition": bp.condition})
            self._placed.add((bp.id, url))
            self._bound(bp, answer["breakpointId"], answer.get("locations") or [])
            if not bp.verified:
                bp.message = f"not bound yet: it binds when node loads {os.path.relpath(js)}, compiled from {name}"
        for script in self.scripts.mapped(bp.path):
            if (bp.id, script.url) not in self._placed:
                self._placed.add((bp.id, script.url))
                await self._in_script(cdp, bp, script)
        if not bp.cdp_ids and not bp.message:
            bp.message = (f"no compiled JavaScript names {name} in its source map (compile with sourceMap, as tsc "
                          "does with \"sourceMap\": true), and node has loaded none; it binds if node loads one")

    async def _in_script(self, cdp: InspectorSession, bp: SourceBreakpoint, script: Script) -> None:
        assert script.map is not None
        where = script.map.generated(os.path.realpath(bp.path), bp.line - 1) or script.map.generated(bp.path, bp.line - 1)
        if where is None:
            bp.message = f"line {bp.line} of {os.path.basename(bp.path)} has no code in its source map"
            return
        with contextlib.suppress(CDPError):  # V8 refuses a location in a script that is gone
            answer = await cdp.request("Debugger.setBreakpoint", {
                "location": {"scriptId": script.id, "lineNumber": where[0], "columnNumber": where[1]}, "condition": bp.condition})
            self._bound(bp, answer["breakpointId"], [answer["actualLocation"]])

    async def on_script(self, cdp: InspectorSession, script: Script) -> list[SourceBreakpoint]:
        """A script with a source map was parsed: the .ts breakpoints it now carries (those no
        compiled file on disk did)."""
        changed = []
        for path, bps in list(self.by_path.items()):
            if not path.endswith(MAPPED_SUFFIXES) or script not in self.scripts.mapped(path):
                continue
            for bp in bps:
                if (bp.id, script.url) not in self._placed:
                    self._placed.add((bp.id, script.url))
                    await self._in_script(cdp, bp, script)
                    changed.append(bp)
        return changed

    def resolved(self, params: dict[str, Any]) -> SourceBreakpoint | None:
        """`Debugger.breakpointResolved`: the breakpoint now bound (in a script just loaded)."""
        bp = self.by_cdp.get(params.get("breakpointId", ""))
        if bp is not None and isinstance(params.get("location"), dict):
            self._bound(bp, params["breakpointId"], [params["location"]])
        return bp

    def is_loader_stop(self, cdp_ids: list[str]) -> bool:
        """Whether a pause is the loader breakpoint's alone (to be resumed at once)."""
        return bool(self.loader_id) and self.loader_id in cdp_ids and not self.hit(cdp_ids)

    def hit(self, cdp_ids: list[str]) -> list[SourceBreakpoint]:
        """The breakpoints behind the V8 ids a pause names (`hitBreakpoints`)."""
        return list({id(bp): bp for bp in (self.by_cdp[h] for h in cdp_ids if h in self.by_cdp)}.values())

    def _bound(self, bp: SourceBreakpoint, cdp_id: str, locations: list[dict[str, Any]]) -> None:
        if cdp_id not in bp.cdp_ids:
            bp.cdp_ids.append(cdp_id)
        self.by_cdp[cdp_id] = bp
        if locations:
            loc = locations[0]
            bp.verified, bp.message = True, ""
            bp.actual_line = self.scripts.location(loc["scriptId"], loc["lineNumber"], loc.get("columnNumber", 0))[1]


async def _syntax_error(cdp: InspectorSession, bp: SourceBreakpoint) -> str:
    """Why `bp`'s condition or log message is not JavaScript ("" when both compile), asked of
    node itself (`Runtime.compileScript`, nothing run)."""
    for what, code, shown in (("condition", bp.condition, bp.condition), ("log message", bp.log, bp.log)):
        if not code:
            continue
        try:
            answer = await cdp.request("Runtime.compileScript", {"expression": f"({code}\n)", "sourceURL": "",
                                                                 "persistScript": False})
        except CDPError:
            return ""  # no context to compile in yet: V8 will judge it
        details = answer.get("exceptionDetails")
        if details:
            error = str((details.get("exception") or {}).get("description") or details.get("text") or "").split("\n", 1)[0]
            return f"the {what} {shown!r} is not JavaScript ({error}); nothing was set on this line"
    return ""
