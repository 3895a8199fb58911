"""`minitools mcp`: the tools of one Run served to a Model Context Protocol client over stdio,
hand-written on the project's protocol and transport layers (docs/architecture.md, "minitools mcp")."""

from __future__ import annotations

from minitools.mcp._elicit import ElicitPort, card_form, form_answer
from minitools.mcp._listing import mcp_result, mcp_tool
from minitools.mcp._serve import serve_mcp
from minitools.mcp._server import APPROVE_MODES, PROTOCOL_VERSIONS, McpServer

__all__ = ["McpServer", "serve_mcp", "PROTOCOL_VERSIONS", "APPROVE_MODES", "ElicitPort", "card_form",
           "form_answer", "mcp_tool", "mcp_result"]
