"""A connection's lifecycle (docs/architecture.md, "minitools mcp"): ``initialize`` (the revision
negotiated) and ``notifications/initialized``, or ``server/discover`` and a 2026-07-28 ``_meta``
on every request (_modern.py); ``ping`` and ``notifications/cancelled``. `Lifecycle` holds what
they settle (the revision, the client's capabilities and info, which generation the connection
speaks), refuses a request of the other generation (`ready`), and marks an answer as the
connection's generation sends it (`answer`)."""

from __future__ import annotations

from typing import Any

from minitools.mcp._modern import (
    CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    HANDSHAKE_VERSIONS,
    MODERN_VERSIONS,
    SERVER_INFO,
    UNSUPPORTED_VERSION,
    VERSION_KEY,
    cacheable,
    complete,
    request_meta,
    unsupported,
)
from minitools.mcp._tasks import TASK_CAPABILITY, TASKS_EXTENSION
from minitools.protocol import INVALID_PARAMS, INVALID_REQUEST
from minitools.transport import JSONRPCEndpoint, RPCError, params_object

__all__ = ["Lifecycle", "PROTOCOL_VERSIONS", "TASKS_IN", "TOOL_ERRORS_SINCE"]

# newest first: the revisions whose handshake this server speaks
PROTOCOL_VERSIONS = HANDSHAKE_VERSIONS
# the first revision that answers arguments not fitting the input schema with a tool error,
# and the one whose tasks (params.task, tasks/get ...) this server offers
TOOL_ERRORS_SINCE = TASKS_IN = "2025-11-25"
# the first revision with tool output schemas, structured content and elicitation
STRUCTURED_SINCE = "2025-06-18"
_INSTRUCTIONS = (
    "minitools: language-server queries and renames, structural search and rewrite (ast_grep, ast_edit), "
    "debuggers, persistent Python/JavaScript kernels (eval) and questions to the person, over one workspace root. "
    "After writing files with your own edit tools, call `written` for the diagnostics your change introduced."
)


class Lifecycle:
    """The lifecycle methods of one connection and the generation, revision and client they settle."""

    def __init__(self, endpoint: JSONRPCEndpoint, *, structured: bool = False) -> None:
        self.endpoint = endpoint
        self.structured_output = structured  # --structured: output schemas and structured content
        self.version = PROTOCOL_VERSIONS[0]
        self.client_capabilities: dict[str, Any] = {}
        self.client_info: dict[str, Any] = {}
        self.initialized = False  # notifications/initialized arrived
        self.negotiated = False  # initialize was answered: the session's revision is set
        self.per_request = False  # a 2026-07-28 request was answered: every request carries its _meta

    def can_elicit(self) -> bool:
        """Whether the client declared form elicitation (``{}`` means form, on both revisions;
        2026-07-28 asks through the call's retry, _mrtr.py)."""
        declared = self.client_capabilities.get("elicitation")
        return self.modern() and isinstance(declared, dict) and (not declared or "form" in declared)

    def modern(self) -> bool:
        """Whether the negotiated revision has output schemas, structured content and elicitation."""
        return self.version >= STRUCTURED_SINCE  # revisions are dates: they order as strings

    def structured(self) -> bool:
        """Whether results carry structured content: asked for (--structured) and in the revision."""
        return self.structured_output and self.modern()

    def initialize(self, params: Any) -> dict[str, Any]:
        if self.per_request:
            raise RPCError(UNSUPPORTED_VERSION, f"initialize on a connection that speaks {self.version} per request "
                           "(a request carried it in _meta): keep sending it in _meta, or start a new `minitools mcp` "
                           "for the initialize handshake", {"requested": str(params_object(params).get("protocolVersion")),
                                                            "supported": list(MODERN_VERSIONS)})
        if self.negotiated:
            raise RPCError(INVALID_REQUEST, f"initialize was already answered (revision {self.version}); a session is "
                           "initialized once: start a new `minitools mcp` for another revision")
        params = params_object(params)
        asked = params.get("protocolVersion")
        if not isinstance(asked, str):
            raise RPCError(INVALID_PARAMS, f"initialize needs \"protocolVersion\" as a string, got {asked!r}; "
                           f"this server speaks {', '.join(PROTOCOL_VERSIONS)}")
        self.version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        capabilities = params.get("capabilities")
        self.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        info = params.get("clientInfo")
        self.client_info = info if isinstance(info, dict) else {}
        self.negotiated = True
        offered: dict[str, Any] = {"tools": {"listChanged": False}}
        if self.offers_tasks():
            offered["tasks"] = TASK_CAPABILITY
        return {
            "protocolVersion": self.version,
            "capabilities": offered,
            "serverInfo": SERVER_INFO,
            "instructions": _INSTRUCTIONS,
        }

    def discover(self, params: Any) -> dict[str, Any]:
        params = params_object(params)
        if VERSION_KEY not in request_meta(params) and not self.negotiated:
            raise unsupported(None, f" (server/discover needs \"{VERSION_KEY}\" in _meta)")
        self.ready("server/discover", params)
        return self.answer({
            "supportedVersions": [*MODERN_VERSIONS, *HANDSHAKE_VERSIONS],
            "capabilities": {"tools": {"listChanged": False}, "extensions": {TASKS_EXTENSION: {}}},
            "instructions": _INSTRUCTIONS,
        }, cache=True)

    def ping(self, params: Any) -> dict[str, Any]:
        if self.per_request or VERSION_KEY in request_meta(params):
            self.ready("ping", params_object(params))
        return self.answer({})

    def answer(self, result: dict[str, Any], *, cache: bool = False) -> dict[str, Any]:
        """`result` as this connection's generation sends it (2026-07-28: with resultType)."""
        if not self.per_request:
            return result
        return cacheable(result) if cache else complete(result)

    def offers_tasks(self) -> bool:
        """Whether this connection has the 2025-11-25 tasks (an initialize at that revision)."""
        return self.negotiated and self.version == TASKS_IN

    def declares_tasks(self) -> bool:
        """Whether this 2026-07-28 request's client declared the tasks extension."""
        extensions = self.client_capabilities.get("extensions")
        return self.per_request and isinstance(extensions, dict) and isinstance(extensions.get(TASKS_EXTENSION), dict)

    def on_initialized(self, params: Any) -> None:
        self.initialized = True

    def on_cancelled(self, params: Any) -> None:
        if isinstance(params, dict):
            self.endpoint.cancel_incoming(params.get("requestId"))

    def ready(self, method: str, params: dict[str, Any]) -> None:
        """Take the request's generation from what it carries: a 2026-07-28 ``_meta`` (its
        revision, capabilities and client), or none on an initialized session. Refuse a request
        of the other generation than the connection's, and one before either (only ping may)."""
        meta = request_meta(params)
        if VERSION_KEY not in meta:
            if self.per_request:
                raise RPCError(INVALID_PARAMS, f"{method} without \"{VERSION_KEY}\" in _meta on a connection that "
                               f"speaks {self.version} per request: send the revision in every request's _meta")
            if not self.negotiated:
                raise RPCError(INVALID_REQUEST, f"{method} before initialize: send initialize first, or "
                               f"server/discover with \"{VERSION_KEY}\": \"{MODERN_VERSIONS[0]}\" in _meta (only "
                               "ping is answered before either)")
            return
        asked = meta[VERSION_KEY]
        if self.negotiated:
            raise RPCError(INVALID_REQUEST, f"{method} carries revision {asked!r} in _meta, but this connection was "
                           f"initialized at {self.version}: leave _meta's revision out, or start a new `minitools mcp`")
        if asked not in MODERN_VERSIONS:
            raise unsupported(asked)
        self.per_request = True
        self.version = asked
        capabilities = meta.get(CAPABILITIES_KEY)
        self.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        info = meta.get(CLIENT_INFO_KEY)
        self.client_info = info if isinstance(info, dict) else self.client_info
