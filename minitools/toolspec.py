"""The nouns every layer above the wire shares: tiers, tool specs, tool results.

A tool is a `ToolSpec` (what the model sees) plus an async handler (what runs).
Handlers return `ToolResult`s for every expected outcome; an expected failure
may also be signalled by raising `ToolError` inside `minitools.tools`, which the
tool edge turns into ``ToolResult(ok=False, ...)``. Any other exception escaping
a handler is a bug (docs/architecture.md, "The contract").
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "JSONValue",
    "JSONObject",
    "Tier",
    "ToolSpec",
    "ToolResult",
    "ToolError",
    "Tool",
    "Handler",
]

JSONValue = bool | int | float | str | list[Any] | dict[str, Any] | None
JSONObject = dict[str, Any]


class Tier(str, enum.Enum):
    """What a tool may do; the tier decides which surfaces see it (docs/tools.md, "Tiers and registration")."""

    READ = "read"  # no side effects
    WRITE = "write"  # modifies files
    EXEC = "exec"  # starts or controls a process


@dataclass(frozen=True)
class ToolSpec:
    """What a model is shown of a tool."""

    name: str
    tier: Tier
    description: str
    parameters: JSONObject
    parallel_safe: bool = True
    # the shape of `ToolResult.data` when the call succeeds, for clients that ask for structured
    # output (`minitools mcp --structured`); declared beside the code that builds the data
    output_schema: JSONObject | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"tool name {self.name!r} must be an identifier")
        if not isinstance(self.tier, Tier):
            object.__setattr__(self, "tier", Tier(self.tier))
        if self.parameters.get("type") != "object":
            raise ValueError(f"tool {self.name!r}: parameters must be a JSON Schema of type object")


@dataclass
class ToolResult:
    """What a tool call returns: `text` is what the model reads, `data` is the same as JSON,
    `images` are `(mime, bytes)` pairs shown in the transcript."""

    ok: bool
    text: str
    data: JSONValue = None
    images: list[tuple[str, bytes]] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        """The wire shape used by `serve` and `--json`: images as base64."""
        import base64

        return {
            "ok": self.ok,
            "text": self.text,
            "data": self.data,
            "images": [
                {"mime": mime, "base64": base64.b64encode(blob).decode("ascii")}
                for mime, blob in self.images
            ],
        }


class ToolError(Exception):
    """An expected failure inside a tool: bad input, nothing to act on, a peer that is not there.

    The message is what the model reads, so it quotes the input and says what to try next.
    """

    def __init__(self, message: str, data: JSONValue = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data


Handler = Callable[[Mapping[str, Any]], Awaitable[ToolResult]]


@dataclass(frozen=True)
class Tool:
    """A spec bound to the handler that runs it (and through it, to a live resource)."""

    spec: ToolSpec
    handler: Handler
