"""The V8 inspector: node started paused under it, and a Chrome DevTools Protocol session over
its WebSocket (docs/architecture.md, "The V8 inspector"). No debug adapter is built on it yet.

    child, url = await start_node("prog.js", cwd=root)
    session = await InspectorSession.connect(url, child=child)
    await session.request("Debugger.enable")
    paused = await session.wait_event("Debugger.paused")
"""

from __future__ import annotations

from minitools.inspector._launch import LISTENING, start_node
from minitools.inspector._session import CDPError, CDPEvent, InspectorSession

__all__ = ["start_node", "LISTENING", "InspectorSession", "CDPError", "CDPEvent"]
