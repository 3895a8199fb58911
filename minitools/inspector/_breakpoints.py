"""Source breakpoints of the node adapter: what one DAP SourceBreakpoint becomes in V8.

A condition is V8's own (`Debugger.setBreakpointByUrl`'s `condition`). A hit count and a log
point are the adapter's: each pause on the breakpoint counts a hit, a hit the hit condition
refuses resumes at once, and a log point evaluates its message on the paused frame, writes it as
output and resumes, so the program never stops there (docs/architecture.md, "The node adapter").
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["SourceBreakpoint", "HitCondition", "breakpoint_from", "parse_hit_condition", "log_expression"]

_HIT = re.compile(r"\s*(>=|<=|==|>|<|%|=)?\s*(\d+)\s*$")
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "=": operator.eq, ">": operator.gt, "<": operator.lt,
    "%": lambda hits, n: n > 0 and hits % n == 0,
}


@dataclass(frozen=True)
class HitCondition:
    """`3` or `>=3` (stop from the third hit on), `==3`, `>3`, `<3`, `%3` (every third hit)."""

    op: str
    count: int

    def allows(self, hits: int) -> bool:
        return _COMPARE[self.op](hits, self.count)


def parse_hit_condition(text: str) -> HitCondition:
    """The hit condition `text` means; ValueError quoting it when it is none of the forms."""
    match = _HIT.match(text)
    if match is None:
        raise ValueError(f"hit condition {text!r} is not understood; write a count such as 3, >=3, ==3, >3, <3 or %3")
    return HitCondition(match.group(1) or ">=", int(match.group(2)))


def log_expression(message: str) -> str:
    """The JavaScript that builds a log point's message: `x is {x}` → `` `x is ${x}` ``. Braces
    `{{` and `}}` stand for themselves; backticks, backslashes and `${` in the text are escaped."""
    out, i = [], 0
    while i < len(message):
        ch = message[i]
        if message.startswith("{{", i) or message.startswith("}}", i):
            out.append(ch)
            i += 2
        elif ch == "{":
            end = message.find("}", i + 1)
            if end == -1:
                out.append("\\{")
                i += 1
                continue
            expression = message[i + 1:end].strip()
            out.append("${(" + expression + ")}" if expression else "{}")
            i = end + 1
        else:
            out.append({"`": "\\`", "\\": "\\\\", "$": "\\$"}.get(ch, ch))
            i += 1
    return "`" + "".join(out) + "`"


@dataclass
class SourceBreakpoint:
    """One breakpoint the client set: its DAP id, where it was asked for, and V8's ids for it."""

    id: int
    path: str
    line: int  # 1-based, in the file the client named (a .ts file through its source map)
    condition: str = ""
    hit: HitCondition | None = None
    log: str = ""  # the JavaScript of a log point's message ("" for a breakpoint that stops)
    hits: int = 0
    cdp_ids: list[str] = field(default_factory=list)
    verified: bool = False
    actual_line: int | None = None
    message: str = ""

    def on_hit(self) -> bool:
        """Count a hit; whether the hit condition lets this one through."""
        self.hits += 1
        return self.hit is None or self.hit.allows(self.hits)

    def dap(self) -> dict[str, object]:
        """The DAP Breakpoint for this one."""
        out: dict[str, object] = {"id": self.id, "verified": self.verified, "line": self.actual_line or self.line}
        if self.message and not self.verified:
            out["message"] = self.message
        return out


def breakpoint_from(spec: dict[str, object], ident: int, path: str) -> SourceBreakpoint:
    """A SourceBreakpoint from DAP's `{line, condition?, hitCondition?, logMessage?}`; ValueError
    (quoting the input) for a hit condition that is not understood."""
    hit = str(spec.get("hitCondition") or "")
    log = str(spec.get("logMessage") or "")
    line = spec.get("line")
    return SourceBreakpoint(ident, path, int(line) if isinstance(line, int) else 0, condition=str(spec.get("condition") or ""),
                            hit=parse_hit_condition(hit) if hit else None, log=log_expression(log) if log else "")

