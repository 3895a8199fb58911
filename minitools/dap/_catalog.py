"""The debug adapters minitools knows, as data, and the detection rule (docs/tools.md, "debug").
Every special case of an adapter is a field of its entry (docs/architecture.md, "Catalogs hold
every special case").

An adapter is usable only as an intersection: one of its root markers exists AND its
binary resolves and starts. Either alone means nothing starts, and `detect` says which
half is missing instead of guessing.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Adapter",
    "AdapterCatalog",
    "BUILT_IN_ADAPTERS",
    "added_adapter",
    "loader_for",
    "ADAPTERS",
    "Detection",
    "Interpreter",
    "adapter_by_id",
    "adapter_for_program",
    "attach_adapters",
    "detect",
    "find_markers",
    "project_python",
]


@dataclass(frozen=True)
class Adapter:
    """One debug adapter: how it is found, how it is started, what it debugs."""

    id: str
    # command names tried in order; a name with "*" is a glob over every PATH directory
    # (Debian ships lldb as lldb-vscode-16, never as lldb-dap)
    binaries: tuple[str, ...]
    # arguments after the binary
    args: tuple[str, ...]
    markers: tuple[str, ...]
    # file suffixes of programs this adapter debugs ("" = a native executable)
    suffixes: tuple[str, ...]
    # "stdio": DAP over the adapter's stdin/stdout; "dial": the adapter dials our listener
    # (`dlv dap --client-addr`, which avoids a port race); "listen": the adapter listens on a free
    # port given as "{port}" in `args` and we connect (Perl::LanguageServer, whose debuggee
    # connects back to that same port)
    transport: str = "stdio"
    # arguments that prove the binary starts (exit 0 within a few seconds)
    probe: tuple[str, ...] = ("--version",)
    adapter_id: str = ""  # DAP initialize "adapterID"
    notes: str = ""
    # set for an adapter that is a Python package: `args` run on the first interpreter for
    # which `probe` passes (the project's venv, minitools' own, PATH), and the program runs on
    # the project's python (`project_python`), sent as launch's "python"
    python_package: str = ""
    # it debugs native executables: a file with the execute bit and one of `suffixes`
    native: bool = False
    go_programs: bool = False  # attach by pid: the adapter for a program Go built
    # a program is a package directory (Go): a directory holding files with one of `suffixes`
    # is debuggable, and launch is given the program file's directory
    package_dirs: bool = False
    # added to every launch request's arguments
    launch: dict[str, object] = field(default_factory=dict)
    # the attach request's arguments for attaching by port; None: no attach by port
    attach: dict[str, object] | None = None
    # the call that makes a program attachable, given the port (named in attach's errors)
    listen_hint: str = ""
    # attach by process id: the attach request's arguments, with the id under `pid_key`
    attach_pid: dict[str, object] | None = None
    pid_key: str = ""
    # attach by process id chooses this adapter for a process whose executable has one of these names
    pid_executables: tuple[str, ...] = ()
    # attach by port goes through the adapter, which is given the port under this key in the
    # attach request (node's inspector port); "": the port is a DAP server's own (debugpy.listen)
    port_key: str = ""
    # launch's "env" as a list of "NAME=value" strings (lldb-dap), not an object
    env_list: bool = False
    # programs that run through a register hook: (suffix, the package the project must have in
    # node_modules, the runtime arguments that load it), sent as launch's "runtimeArgs"
    loaders: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # an adapter written in minitools: the module run as `python -m MODULE --runtime BINARY` on
    # minitools' own interpreter, BINARY being the binary found and probed as for any adapter
    module: str = ""
    # debug ops refused with this adapter, and why: what it would do instead is worse than a
    # refusal (Perl::LanguageServer 2.5's stepOut kills the program and is never answered)
    refused_ops: dict[str, str] = field(default_factory=dict)


ADAPTERS: tuple[Adapter, ...] = (
    Adapter(
        id="dart",
        binaries=("dart",),
        args=("debug_adapter",),
        markers=("pubspec.yaml",),
        suffixes=(".dart",),
        adapter_id="dart",
    ),
    Adapter(
        id="debugpy",
        # resolved as a python_package: the python that has debugpy installed
        binaries=("python3",),
        args=("-m", "debugpy.adapter"),
        markers=("pyproject.toml", "setup.py", "requirements.txt"),
        suffixes=(".py",),
        probe=("-c", "import debugpy"),
        adapter_id="debugpy",
        python_package="debugpy",
        launch={"type": "python", "request": "launch", "console": "internalConsole", "subProcess": False,
                "justMyCode": True},
        attach={"type": "python", "request": "attach", "justMyCode": True, "subProcess": False},
        listen_hint="debugpy.listen",
        attach_pid={"type": "python", "request": "attach", "justMyCode": True, "subProcess": False},
        pid_key="processId",
    ),
    Adapter(
        id="lldb",
        binaries=("lldb-dap", "lldb-vscode", "lldb-dap-*", "lldb-vscode-*"),
        args=(),
        markers=("Cargo.toml", "CMakeLists.txt"),
        suffixes=("", ".out", ".bin", ".exe"),
        probe=("--help",),
        adapter_id="lldb",
        native=True,
        env_list=True,
        attach_pid={},
        pid_key="pid",
    ),
    Adapter(
        id="delve",
        binaries=("dlv",),
        args=("dap",),
        markers=("go.mod",),
        suffixes=(".go",),
        transport="dial",
        probe=("version",),
        adapter_id="go",
        package_dirs=True,
        launch={"mode": "debug"},
        attach_pid={"mode": "local"},
        go_programs=True,
        pid_key="processId",
        notes="dlv 1.20 writes the program's stdout to its own stdout, not to output events",
    ),
    Adapter(
        id="node",
        binaries=("node", "nodejs"),
        args=(),
        markers=("package.json",),
        suffixes=(".js", ".mjs", ".cjs", ".ts"),
        adapter_id="node",
        module="minitools.inspector",
        launch={"type": "node", "request": "launch"},
        attach={"type": "node", "request": "attach"},
        port_key="port",
        listen_hint="node --inspect=PORT",
        attach_pid={"type": "node", "request": "attach"},
        pid_key="processId",
        pid_executables=("node", "nodejs"),
        # type errors do not stop a program being debugged: transpile only
        loaders=((".ts", "ts-node", ("-r", "ts-node/register/transpile-only")),),
        notes="written here over the V8 inspector (docs/architecture.md, \"The node adapter\")",
    ),
    Adapter(
        id="perl",
        # Perl::LanguageServer is a module of perl: the probe proves the module loads
        binaries=("perl",),
        args=("-MPerl::LanguageServer", "-e", "Perl::LanguageServer::run", "--", "--port", "{port}", "--nostdio"),
        markers=("cpanfile", "Makefile.PL", "Build.PL", "dist.ini"),
        suffixes=(".pl", ".t"),
        transport="listen",
        probe=("-MPerl::LanguageServer", "-e", "1"),
        adapter_id="perl",
        launch={"type": "perl", "request": "launch", "stopOnEntry": False, "reloadModules": False},
        refused_ops={"step_out": "Perl::LanguageServer 2.5's stepOut ends the program with \"Modification of "
                                 "non-creatable array value attempted\" and never answers; set a breakpoint after "
                                 "the call and continue, or step_over to the end of the sub"},
        notes="Perl::LanguageServer's debug adapter: launch only, no attach (docs/reference.md, Perl::LanguageServer)",
    ),
)


class AdapterCatalog:
    """The adapters one Run chooses from: those the configuration adds (docs/reference.md,
    "Configuration") first, then the built-in catalog; an added adapter with a built-in's id takes
    its place."""

    def __init__(self, added: tuple[Adapter, ...] = ()) -> None:
        ids = {a.id for a in added}
        self.adapters: tuple[Adapter, ...] = (*added, *(a for a in ADAPTERS if a.id not in ids))

    def by_id(self, adapter_id: str) -> Adapter | None:
        """The entry called `adapter_id`, or None."""
        return next((a for a in self.adapters if a.id == adapter_id), None)

    def for_program(self, program: Path) -> Adapter | None:
        """Which adapter debugs `program`, from its suffix (a directory of .go files is delve's,
        an executable file without a known suffix is a native executable for lldb)."""
        if program.is_dir():
            return next((a for a in self.adapters
                         if a.package_dirs and any(any(program.glob(f"*{s}")) for s in a.suffixes)), None)
        for adapter in self.adapters:
            if not adapter.native and program.suffix and program.suffix in adapter.suffixes:
                return adapter
        for adapter in self.adapters:
            if adapter.native and program.suffix in adapter.suffixes and os.access(program, os.X_OK):
                return adapter
        return None

    def attachable(self) -> list[Adapter]:
        """The adapters that attach by port, default first."""
        return [a for a in self.adapters if a.attach is not None]


BUILT_IN_ADAPTERS = AdapterCatalog()


def adapter_by_id(adapter_id: str) -> Adapter | None:
    """The built-in catalog's entry called `adapter_id`, or None."""
    return BUILT_IN_ADAPTERS.by_id(adapter_id)


def adapter_for_program(program: Path) -> Adapter | None:
    """Which built-in adapter debugs `program` (AdapterCatalog.for_program)."""
    return BUILT_IN_ADAPTERS.for_program(program)


def added_adapter(entry: Mapping[str, Any]) -> Adapter:
    """An adapter the configuration adds ([[debug.adapters]], its fields checked there): a
    program speaking DAP on its stdin and stdout."""
    command = [str(word) for word in entry["command"]]
    return Adapter(
        id=str(entry["id"]), binaries=(command[0],), args=tuple(command[1:]),
        markers=tuple(entry["markers"]), suffixes=tuple(s.lower() for s in entry["suffixes"]),
        probe=tuple(entry.get("probe", ("--version",))), adapter_id=str(entry.get("adapter_id", entry["id"])),
        launch=dict(entry.get("launch", {})), attach=dict(entry["attach"]) if "attach" in entry else None,
        listen_hint=str(entry.get("listen_hint", "")),
        notes="added by the configuration file",
    )


def loader_for(adapter: Adapter, program: Path, root: Path) -> tuple[str, tuple[str, ...]] | None:
    """The register hook `program` runs through: (the package's folder found in node_modules from
    the program up to `root`, its runtime arguments); None when its suffix needs none. ValueError
    naming the package when the suffix needs one the project does not have."""
    for suffix, package, runtime_args in adapter.loaders:
        if program.suffix != suffix:
            continue
        here = program.parent
        while True:
            if (here / "node_modules" / package / "package.json").is_file():
                return str(here / "node_modules" / package), runtime_args
            if here == root or root not in here.parents:
                raise ValueError(package)
            here = here.parent
    return None


def attach_adapters() -> list[Adapter]:
    """The built-in adapters that attach by port, default first."""
    return BUILT_IN_ADAPTERS.attachable()


def find_markers(adapter: Adapter, root: Path, start: Path | None = None) -> list[Path]:
    """The adapter's root markers found from `start` (a file or directory) up to `root`."""
    here = (start if start is not None else root)
    if here.is_file() or not here.exists():
        here = here.parent
    found: list[Path] = []
    while True:
        found.extend(here / m for m in adapter.markers if (here / m).is_file())
        if here == root or root not in here.parents:
            break
        here = here.parent
    return found


@dataclass(frozen=True)
class Interpreter:
    """A Python interpreter and why it was chosen."""

    path: str
    why: str


def project_python(root: Path) -> Interpreter:
    """The interpreter the debuggee runs on: the project's `.venv` or `venv` first, because a
    python taken from PATH is a different environment (docs/tools.md, "debug")."""
    for venv in (".venv", "venv"):
        candidate = root / venv / "bin" / "python"
        if candidate.exists() and os.access(candidate, os.X_OK):
            return Interpreter(str(candidate), f"the project's {venv}/bin/python")
    on_path = shutil.which("python3") or shutil.which("python")
    if on_path:
        return Interpreter(on_path, "python3 from PATH (the project has no .venv or venv)")
    return Interpreter(sys.executable, "minitools' own interpreter (no project venv, no python3 on PATH)")


def _starts(argv: Sequence[str], timeout: float = 10.0) -> tuple[bool, str]:
    try:
        proc = subprocess.run(
            list(argv), stdin=subprocess.DEVNULL, capture_output=True,
            timeout=timeout, start_new_session=True,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"{' '.join(argv)} did not start: {exc}"
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return False, f"{' '.join(argv)} exited with {proc.returncode}: {tail[0][:200]}"
    return True, ""


def _which_all(names: Iterable[str], path: str | None) -> list[str]:
    found: list[str] = []
    dirs = (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep)
    for name in names:
        if "*" in name:
            for d in dirs:
                # highest version first: lldb-vscode-16 before lldb-vscode-14
                for hit in sorted(glob.glob(os.path.join(d, name)), reverse=True):
                    if os.access(hit, os.X_OK) and hit not in found:
                        found.append(hit)
        else:
            which = shutil.which(name, path=path)
            if which and which not in found:
                found.append(which)
    return found


@dataclass
class Detection:
    """Whether one adapter is usable for a root, and what is missing when it is not."""

    adapter: Adapter
    markers: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    binary_problem: str = ""
    interpreter: Interpreter | None = None  # a python_package adapter's: where the program runs

    @property
    def usable(self) -> bool:
        return bool(self.markers) and bool(self.command)

    @property
    def reason(self) -> str:
        """Why the adapter is not usable ("" when it is)."""
        missing = []
        if not self.markers:
            missing.append("no root marker (" + ", ".join(self.adapter.markers) + ")")
        if not self.command:
            missing.append(self.binary_problem or "no binary found")
        return "; ".join(missing)


Prober = Callable[[Sequence[str]], tuple[bool, str]]


def _python_package_command(adapter: Adapter, root: Path, probe: Prober) -> tuple[list[str], str]:
    # The adapter runs where its package is installed; the program's python need not have it.
    candidates: list[str] = []
    for venv in (".venv", "venv"):
        p = root / venv / "bin" / "python"
        if p.exists():
            candidates.append(str(p))
    candidates.append(sys.executable)
    for name in ("python3", "python"):
        hit = shutil.which(name)
        if hit:
            candidates.append(hit)
    problems = []
    for python in dict.fromkeys(candidates):
        ok, _ = probe([python, *adapter.probe])
        if ok:
            return [python, *adapter.args], ""
        problems.append(python)
    package = adapter.python_package
    return [], f"{package} is not importable by " + ", ".join(problems) + f" (pip install {package})"


def detect(
    root: Path,
    adapter: Adapter,
    *,
    start: Path | None = None,
    path: str | None = None,
    probe: Prober | None = None,
) -> Detection:
    """Detect `adapter` for `root`: its markers (from `start` up to the root) and a binary
    that starts. `path` overrides $PATH (tests), `probe` how a binary is tried."""
    prober: Prober = probe or _starts
    det = Detection(adapter, markers=[str(m) for m in find_markers(adapter, root, start)])
    if adapter.python_package:
        det.command, det.binary_problem = _python_package_command(adapter, root, prober)
        det.interpreter = project_python(root)
        return det
    binaries = _which_all(adapter.binaries, path)
    if not binaries:
        det.binary_problem = "no binary on PATH (looked for " + ", ".join(adapter.binaries) + ")"
        return det
    problems = []
    for binary in binaries:
        ok, problem = prober([binary, *adapter.probe])
        if ok:
            det.command = [sys.executable, "-m", adapter.module, "--runtime", binary] if adapter.module else [binary, *adapter.args]
            return det
        problems.append(problem)
    det.binary_problem = "; ".join(problems)
    return det
