"""The V8 inspector: node started paused under it, a Chrome DevTools Protocol session over its
WebSocket (docs/architecture.md, "The V8 inspector"), and the node debug adapter built on them,
a DAP server run as `python -m minitools.inspector --runtime NODE` (docs/architecture.md,
"The node adapter"; the catalog row `node` in dap/_catalog.py starts it).

    child, url = await start_node("prog.js", cwd=root)
    session = await InspectorSession.connect(url, child=child)
    await session.request("Debugger.enable")
    paused = await session.wait_event("Debugger.paused")
"""

from __future__ import annotations

from minitools.inspector._launch import LISTENING, start_node
from minitools.inspector._session import CDPError, CDPEvent, InspectorSession

__all__ = ["start_node", "LISTENING", "InspectorSession", "CDPError", "CDPEvent"]
