"""The 2026-07-28 generation of MCP beside the ``initialize`` one (docs/architecture.md,
"minitools mcp"): no handshake, ``server/discover`` instead, and every request carrying its own
revision, client capabilities and client identity in ``_meta``; every result says what it is
(``resultType``) and who answered it (``_meta``), and ``tools/list`` and ``server/discover`` say how long they may be cached.

A connection speaks one generation: the first ``initialize`` makes it a handshake session, the
first request carrying a 2026-07-28 ``_meta`` (``server/discover`` or any other) makes it a
per-request one, and a request of the other generation afterwards is refused with what to do.
"""

from __future__ import annotations

from typing import Any

import minitools
from minitools.transport import RPCError

__all__ = ["HANDSHAKE_VERSIONS", "MODERN_VERSIONS", "UNSUPPORTED_VERSION", "MISSING_CAPABILITY", "VERSION_KEY", "CAPABILITIES_KEY",
           "CLIENT_INFO_KEY", "SERVER_INFO", "request_meta", "unsupported", "complete", "cacheable", "LIST_TTL_MS"]

# newest first: the revisions reached through initialize, and those spoken per request
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26")
MODERN_VERSIONS = ("2026-07-28",)
UNSUPPORTED_VERSION = -32022  # the request's revision is not one this server speaks
MISSING_CAPABILITY = -32021  # the request needs a capability its client did not declare
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"  # who answered, in every result's _meta
SERVER_INFO = {"name": "minitools", "title": "minitools", "version": minitools.__version__}
# the tool list is fixed for the life of the process, but depends on what the client declares
# (ask_user is listed only to a client that can answer it): cached per client for an hour
LIST_TTL_MS = 3_600_000


def request_meta(params: Any) -> dict[str, Any]:
    """A request's ``_meta`` (empty when absent or not an object)."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def unsupported(requested: Any, why: str = "") -> RPCError:
    """The error for a request whose revision this server does not speak per request."""
    shown = "none" if requested is None else repr(requested)
    return RPCError(UNSUPPORTED_VERSION,
                    f"protocol version {shown} is not supported per request{why}; this server speaks "
                    f"{', '.join(MODERN_VERSIONS)} per request (\"{VERSION_KEY}\" in _meta) and "
                    f"{', '.join(HANDSHAKE_VERSIONS)} through initialize",
                    {"requested": requested if isinstance(requested, str) else shown,
                     "supported": list(MODERN_VERSIONS)})


def complete(result: dict[str, Any]) -> dict[str, Any]:
    """`result` marked as a final answer (``resultType: complete``) and stamped with the server."""
    meta = result.get("_meta")
    return {"resultType": "complete", **result,
            "_meta": {**(meta if isinstance(meta, dict) else {}), SERVER_INFO_KEY: SERVER_INFO}}


def cacheable(result: dict[str, Any], ttl_ms: int = LIST_TTL_MS) -> dict[str, Any]:
    """A final answer the client may keep `ttl_ms` for itself (not share with other users)."""
    return complete({**result, "ttlMs": ttl_ms, "cacheScope": "private"})
