"""The configuration file: what a user of `minitools mcp`, `minitools serve` or `Run(config=...)`
sets without writing Python (docs/reference.md, "Configuration").

Read from `--config FILE`, else `minitools.toml` at the root, else the `[tool.minitools]` table
of the root's `pyproject.toml`. Every key is a row of `KEYS` (its table, its type and bounds, the
Run option it sets, what it means); the file is checked whole before anything starts: a bad value
is refused with the key's path and what was expected, an unknown key is named with the keys its
table takes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomllib

__all__ = ["Config", "ConfigError", "Key", "KEYS", "load_config", "read_config_table"]

FILE_NAME = "minitools.toml"


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the key's path and what was expected."""


@dataclass(frozen=True)
class Key:
    """One configuration key: `table.name` in the file, the Run option (or front setting) it sets."""

    table: str
    name: str
    option: str
    expected: str  # what the value must be, as the error says it
    # whether the value is right; or, for a table of fields, what is wrong with it ("[0].id: ...")
    check: Callable[[object], bool | str]
    doc: str

    @property
    def path(self) -> str:
        return f"{self.table}.{self.name}"


def _seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= 86_400


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 10_000_000


def _count_or_zero(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000_000


def _bool(value: object) -> bool:
    return isinstance(value, bool)


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def _preferences(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and _strings(v) for k, v in value.items())


def _choice(*choices: str) -> Callable[[object], bool]:
    return lambda value: value in choices


# a server the configuration adds: field -> (required, what it must be, check)
_SERVER_FIELDS: dict[str, tuple[bool, str, Callable[[object], bool]]] = {
    "id": (True, "a name", lambda v: isinstance(v, str) and bool(v.strip())),
    "command": (True, "the command as a list of words ([\"my-ls\", \"--stdio\"])", lambda v: _strings(v) and bool(v)),
    "languages": (True, "a list of language names (the first is the default)", lambda v: _strings(v) and bool(v)),
    "extensions": (True, "a list of file name endings starting with a dot ([\".my\"])",
                   lambda v: isinstance(v, list) and _strings(v) and bool(v) and all(e.startswith(".") for e in v)),
    "root_markers": (False, "a list of file names that mark a project's root (none: the workspace root)", _strings),
    "checker": (False, "the project checker's command as a list of words", lambda v: _strings(v) and bool(v)),
    "init_options": (False, "a table (initializationOptions, as sent)", lambda v: isinstance(v, dict)),
    "settings": (False, "a table (answers to workspace/configuration)", lambda v: isinstance(v, dict)),
    "language_ids": (False, "a table of ending = languageId", lambda v: isinstance(v, dict) and all(
        isinstance(x, str) for x in v.values())),
}


# an adapter the configuration adds: a program that speaks DAP on its stdin and stdout
_ADAPTER_FIELDS: dict[str, tuple[bool, str, Callable[[object], bool]]] = {
    "id": (True, "a name", lambda v: isinstance(v, str) and bool(v.strip())),
    "command": (True, "the command as a list of words ([\"my-dap\", \"--stdio\"])", lambda v: _strings(v) and bool(v)),
    "suffixes": (True, "a list of the endings of the programs it debugs ([\".rb\"])",
                 lambda v: isinstance(v, list) and _strings(v) and bool(v) and all(e.startswith(".") for e in v)),
    "markers": (True, "a list of file names that mark a project it debugs (one must exist)", lambda v: _strings(v) and bool(v)),
    "adapter_id": (False, "a name (initialize's adapterID; default: id)", lambda v: isinstance(v, str) and bool(v)),
    "probe": (False, "the arguments that prove the binary starts (default [\"--version\"])", _strings),
    "launch": (False, "a table added to every launch request's arguments", lambda v: isinstance(v, dict)),
    "attach": (False, "a table: the attach request's arguments (attach by port)", lambda v: isinstance(v, dict)),
    "listen_hint": (False, "how a program is started to listen for it (named in attach's errors)",
                    lambda v: isinstance(v, str)),
}


def _entries(what: str, fields: dict[str, tuple[bool, str, Callable[[object], bool]]]) -> Callable[[object], bool | str]:
    """A check of a list of tables ([[lsp.servers]], [[debug.adapters]]), each with `fields`."""

    def check(value: object) -> bool | str:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            return False
        for k, entry in enumerate(value):
            for name, (required, expected, ok) in fields.items():
                if name not in entry:
                    if required:
                        return f"[{k}].{name}: missing; {what} takes {', '.join(fields)}"
                elif not ok(entry[name]):
                    return f"[{k}].{name}: expected {expected}, got {_shown(entry[name])}"
            unknown = [n for n in entry if n not in fields]
            if unknown:
                return f"[{k}].{unknown[0]}: unknown key; {what} takes {', '.join(fields)}"
        return True

    return check


_servers = _entries("a server", _SERVER_FIELDS)
_adapters = _entries("an adapter", _ADAPTER_FIELDS)


_SECONDS = "a number of seconds above 0 (at most a day)"
_COUNT = "a whole number above 0"
_COUNT_OR_ZERO = "a whole number, 0 or more"

KEYS: tuple[Key, ...] = (
    Key("lsp", "timeout", "lsp_timeout", _SECONDS, _seconds, "how long an lsp request waits for its server (30)"),
    Key("lsp", "init_timeout", "lsp_init_timeout", _SECONDS, _seconds, "how long a server may take to start (30)"),
    Key("lsp", "index_timeout", "lsp_index_timeout", _SECONDS, _seconds,
        "how long a query waits for a server still indexing (30)"),
    Key("lsp", "ready_timeout", "lsp_ready_timeout", _SECONDS, _seconds, "how long a first query waits for readiness (10)"),
    Key("lsp", "diagnostics_timeout", "lsp_diagnostics_timeout", _SECONDS, _seconds,
        "how long diagnostics of a file wait for the server (8)"),
    Key("lsp", "diagnostics_cap", "lsp_diagnostics_cap", _COUNT, _count, "diagnostics shown per file (20)"),
    Key("lsp", "dependents", "lsp_dependents", _COUNT_OR_ZERO, _count_or_zero,
        "files that depend on a written file, checked with it after a write (8; 0: none)"),
    Key("lsp", "dependents_wait", "lsp_dependents_wait", _SECONDS, _seconds,
        "how long those files' diagnostics are waited for, before and after a write (4)"),
    Key("lsp", "dependents_scan", "lsp_dependents_scan", _SECONDS, _seconds,
        "how long the workspace is read for files that name a written file's symbols (0.5)"),
    Key("lsp", "checker_timeout", "lsp_checker_timeout", _SECONDS, _seconds,
        'how long diagnostics "*" lets the project checker run (120)'),
    Key("lsp", "prefer", "lsp_servers", "a table of language = [server ids] (python = [\"pylsp\"])", _preferences,
        "which catalog servers a language uses, in order, instead of the catalog's preference"),
    Key("lsp", "path", "lsp_path", "a list of folders", _strings, "folders searched for server binaries before PATH"),
    Key("lsp", "servers", "lsp_added_servers", "a list of server tables ([[lsp.servers]] with id, command, languages, "
        "extensions)", _servers, "language servers to add, or built-ins to change by their id (before the catalog's)"),
    Key("lsp", "prestart", "prestart", "true or false", _bool,
        "start the servers the root needs at once, not at the first query (mcp does: true)"),
    Key("debug", "timeout", "debug_timeout", _SECONDS, _seconds, "how long a debug request waits for its adapter (30)"),
    Key("debug", "ttl", "debug_ttl", _SECONDS, _seconds, "how long an idle debug session lives (1800)"),
    Key("debug", "adapters", "debug_added_adapters", "a list of adapter tables ([[debug.adapters]] with id, command, "
        "suffixes, markers)", _adapters, "debug adapters to add, or built-ins to change by their id (before the catalog's)"),
    Key("kernel", "budget", "kernel_budget", _SECONDS, _seconds, "how long one eval cell may run (300)"),
    Key("kernel", "max_output", "kernel_max_output", _COUNT, _count, "characters of a cell's output kept (20000)"),
    Key("kernel", "memory_mb", "kernel_memory_mb", _COUNT, _count,
        "megabytes of memory one kernel may allocate (half the machine's)"),
    Key("kernel", "interrupt_grace", "kernel_interrupt_grace", _SECONDS, _seconds,
        "how long an interrupted cell has before its kernel is restarted (5)"),
    Key("search", "time_budget", "search_seconds", _SECONDS, _seconds, "how long one ast_grep or ast_edit search may run (60)"),
    Key("search", "memory_budget_mb", "search_memory_mb", _COUNT, _count,
        "megabytes of matches one search may hold (the searcher's default)"),
    Key("search", "max_file_size_kb", "search_max_file_kb", _COUNT, _count,
        "files larger than this many kilobytes are passed over (the searcher's default)"),
    Key("vibe", "roster", "vibe_roster", "a path to a roster file", lambda v: isinstance(v, str) and bool(v),
        "activate vibe mode with this worker roster (relative to the configuration file)"),
    Key("vibe", "max_workers", "vibe_max_workers", _COUNT, _count, "workers running at once (4)"),
    Key("vibe", "stall_seconds", "vibe_stall_seconds", _SECONDS, _seconds, "a worker silent this long is stalled (600)"),
    Key("vibe", "grace_seconds", "vibe_grace_seconds", _SECONDS, _seconds, "how long a stopped worker has to exit (2)"),
    Key("ask", "timeout", "question_timeout", _SECONDS, _seconds, "how long ask_user waits for a person (none: as long as it takes)"),
    Key("mcp", "surface", "surface", '"full", "plan" or "readonly"', _choice("full", "plan", "readonly"),
        "which tools the client sees (minitools mcp --surface)"),
    Key("mcp", "approve", "approve", '"host", "ask" or "none"', _choice("host", "ask", "none"),
        "how write and exec calls are approved (minitools mcp --approve)"),
    Key("mcp", "structured", "structured", "true or false", _bool,
        "also send output schemas and structured content (minitools mcp --structured)"),
)
_BY_PATH = {k.path: k for k in KEYS}
_TABLES = tuple(dict.fromkeys(k.table for k in KEYS))
FRONT_SETTINGS = frozenset({"surface", "approve", "structured"})  # the fronts' own, not Run options


@dataclass(frozen=True)
class Config:
    """A checked configuration: the Run options it sets, the fronts' settings, and where it came
    from (None: no file)."""

    options: dict[str, Any] = field(default_factory=dict)
    front: dict[str, Any] = field(default_factory=dict)
    source: str | None = None

    def describe(self) -> str:
        return f"configuration from {self.source}" if self.source else "no configuration file"


def read_config_table(table: Mapping[str, Any], where: str, base: Path) -> Config:
    """A configuration's content (the file's tables) as a checked Config; `where` names it in
    errors, `base` is the folder relative paths in it are taken from."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: expected a table of {', '.join(_TABLES)}")
    options: dict[str, Any] = {}
    front: dict[str, Any] = {}
    for name, section in table.items():
        if name not in _TABLES:
            raise ConfigError(f"{where}: unknown table [{name}]; the tables are {', '.join(_TABLES)}")
        if not isinstance(section, Mapping):
            raise ConfigError(f"{where}: {name} must be a table ([{name}] with keys), got {_shown(section)}")
        for key, value in section.items():
            spec = _BY_PATH.get(f"{name}.{key}")
            if spec is None:
                known = ", ".join(k.name for k in KEYS if k.table == name)
                raise ConfigError(f"{where}: unknown key {name}.{key}; [{name}] takes {known}")
            verdict = spec.check(value)
            if isinstance(verdict, str):
                raise ConfigError(f"{where}: {spec.path}{verdict}")
            if not verdict:
                raise ConfigError(f"{where}: {spec.path}: expected {spec.expected}, got {_shown(value)}")
            if spec.option == "vibe_roster":
                value = str((base / str(value)).resolve()) if not os.path.isabs(str(value)) else str(value)
            (front if spec.option in FRONT_SETTINGS else options)[spec.option] = value
    return Config(options, front, where)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def load_config(root: str | os.PathLike[str], explicit: str | os.PathLike[str] | None = None) -> Config:
    """The configuration for a Run at `root`: `explicit` (refused when it cannot be read), else
    `minitools.toml` at the root, else pyproject.toml's [tool.minitools]; an empty Config when
    there is none."""
    if explicit is not None:
        path = Path(explicit).expanduser()
        if not os.path.lexists(path):
            raise ConfigError(f'configuration file "{explicit}" is not there; give the path of a minitools.toml')
        return read_config_table(_read_toml(path), str(path), path.parent)
    folder = Path(root).expanduser()
    own = folder / FILE_NAME
    if os.path.lexists(own):  # a FIFO or a folder of that name is refused, not passed over
        return read_config_table(_read_toml(own), str(own), folder)
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            section = _read_toml(pyproject).get("tool", {}).get("minitools")
        except ConfigError:
            return Config()  # a pyproject.toml that is not TOML is the project's business, not ours
        if section is not None:
            return read_config_table(section, f"{pyproject} [tool.minitools]", folder)
    return Config()


MAX_FILE_BYTES = 1 << 20


def _read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables; ConfigError naming it when it is not a regular, readable TOML file
    (checked without blocking: a FIFO is refused, not waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        import stat

        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise ConfigError(f"{path}: is {info.st_size:,} bytes; a configuration file is at most {MAX_FILE_BYTES:,}")
        data = os.read(fd, MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
