"""The roster: which runner does the work for each tier (docs/tools.md, "vibe_*").

`fast` is for mechanical work with a clear specification, `good` for design, judgement or
review. A runner is a command template — an argv whose items may contain ``{brief_file}``
(a file holding the brief), ``{result_file}`` (where the worker may write its result;
otherwise its stdout is the result) and ``{surface}`` (the surface the worker was started from:
full, plan or readonly; also in ``MINITOOLS_SURFACE``) — or, for embedders, a Python callable
``(brief, log) -> result`` (sync or async) where ``log(text)`` appends to the worker's log.

A runner honours the surface when its command takes ``{surface}`` or its table says
``honours_surface = true`` (a callable: ``CallableRunner(fn, honours_surface=True)``): only such a
runner is started from a read-only surface, where its worker must not write.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Roster", "CommandRunner", "CallableRunner", "Runner", "RosterError", "TIERS", "RosterSource", "as_roster", "load_roster"]

TIERS = ("fast", "good")
PLACEHOLDERS = ("brief_file", "result_file", "surface")


class RosterError(ValueError):
    """The roster cannot be used as given; the message says what to fix."""


@dataclass(frozen=True)
class CommandRunner:
    """A real command; ``{brief_file}``, ``{result_file}`` and ``{surface}`` are filled in per run."""

    argv: tuple[str, ...]
    declares_surface: bool = False  # the roster says the command honours MINITOOLS_SURFACE

    def __post_init__(self) -> None:
        if not self.argv or not all(isinstance(a, str) for a in self.argv):
            raise RosterError(f"a runner command is a non-empty list of strings, got {list(self.argv)!r}")
        for arg in self.argv:
            for name in re.findall(r"\{([^{}]*)\}", arg):
                if name not in PLACEHOLDERS:
                    raise RosterError(f"runner argument {arg!r} has an unknown placeholder {{{name}}}; "
                                      "use {brief_file}, {result_file} or {surface}")

    @property
    def honours_surface(self) -> bool:
        return self.declares_surface or any("{surface}" in a for a in self.argv)

    def command(self, brief_file: Path, result_file: Path, surface: str = "full") -> list[str]:
        """The argv for one run."""
        values = {"brief_file": str(brief_file), "result_file": str(result_file), "surface": surface}
        return [re.sub(r"\{(brief_file|result_file|surface)\}", lambda m: values[m.group(1)], a) for a in self.argv]


@dataclass(frozen=True)
class CallableRunner:
    """An embedder's callable ``(brief: str, log: Callable[[str], None]) -> str``, sync or async.

    An async one is cancelled by vibe_kill; a sync one runs in a thread, which cannot be
    stopped: its result is discarded instead.
    """

    fn: Callable[[str, Callable[[str], None]], Any]
    honours_surface: bool = False  # the embedder's callable knows the surface and writes nothing on a read-only one


Runner = CommandRunner | CallableRunner


def _runner(tier: str, value: Any) -> Runner:
    if isinstance(value, (CommandRunner, CallableRunner)):
        return value
    if callable(value):
        return CallableRunner(value)
    declares = False
    if isinstance(value, Mapping) and "command" in value:
        declares = value.get("honours_surface") is True
        value = value["command"]
    if isinstance(value, str):
        raise RosterError(f"the {tier} runner {value!r} is a string; give the command as a list of arguments")
    if isinstance(value, Sequence):
        return CommandRunner(tuple(value), declares)
    raise RosterError(f"the {tier} runner must be a command (list of arguments) or a callable, got {value!r}")


class Roster:
    """Tier → runner. At least one tier; a missing tier falls back to the other."""

    def __init__(self, runners: Mapping[str, Any]) -> None:
        unknown = set(runners) - set(TIERS)
        if unknown:
            raise RosterError(f"unknown roster tiers {sorted(unknown)}; the tiers are fast and good")
        self.runners: dict[str, Runner] = {t: _runner(t, v) for t, v in runners.items()}
        if not self.runners:
            raise RosterError("the roster names no runner; give a command for fast and/or good")

    def runner(self, tier: str) -> Runner:
        """The runner for `tier` (the other tier's when only one is configured)."""
        if tier not in TIERS:
            raise RosterError(f"unknown tier {tier!r}; use fast or good")
        return self.runners.get(tier) or next(iter(self.runners.values()))

    @classmethod
    def from_toml(cls, path: str | os.PathLike[str]) -> Roster:
        """Read a roster file: ``fast = ["agent", "{brief_file}"]``, or a ``[fast]`` table with ``command = [...]``."""
        text = Path(path).read_text(encoding="utf-8")
        try:
            import tomllib  # Python 3.11+
        except ModuleNotFoundError:
            data = _read_flat_toml(text, str(path))
        else:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise RosterError(f"roster {str(path)!r} is not valid TOML: {exc}") from None
        return cls(data)

    def __repr__(self) -> str:
        return f"Roster({self.runners!r})"


# what `Run(vibe=...)` takes: a Roster, a mapping of tier -> runner, a roster file, or None
RosterSource = Roster | Mapping[str, Any] | str | os.PathLike[str] | None


def as_roster(value: RosterSource) -> Roster | None:
    """A Roster from a Roster, a mapping of tier → runner, a TOML path, or None."""
    if value is None or value is False:
        return None
    if isinstance(value, Roster):
        return value
    if isinstance(value, Mapping):
        return Roster(value)
    if isinstance(value, (str, os.PathLike)):
        return Roster.from_toml(value)
    raise RosterError("vibe must be a Roster, a mapping {'fast': ARGV, 'good': ARGV} or a roster file, "
                      f"got {type(value).__name__}")


_STRING = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(r"^\s*(\w+)\s*=\s*\[(.*?)\]", re.S | re.M)


def _read_flat_toml(text: str, where: str) -> dict[str, Any]:
    # Python < 3.11 has no tomllib: read the flat shape only, `tier = ["arg", ...]` (may span lines).
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    data: dict[str, Any] = {}
    for match in _LINE.finditer("\n".join(lines)):
        strings = re.findall(_STRING, match.group(2))
        data[match.group(1)] = [s[1:-1].replace('\\"', '"').replace("\\\\", "\\") for s in strings]
    if not data:
        raise RosterError(f"roster {where!r} has no `fast = [...]` or `good = [...]` line")
    return data


def load_roster(path: str | None) -> Roster | None:
    """The vibe roster at `path` (None for no vibe mode); ValueError for a bad file."""
    if not path:
        return None
    try:
        return Roster.from_toml(path)
    except OSError as exc:
        raise ValueError(f"the vibe roster {path!r} cannot be read ({exc.strerror or exc}); pass a roster TOML file") from None
