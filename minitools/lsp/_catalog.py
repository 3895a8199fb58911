"""The language-server catalog, as data: which servers exist, for which languages, how to
start them, where a project's root is, and what checks a whole project (``diagnostics "*"``).

Order within a language is preference (docs/tools.md, "lsp"): python tries basedpyright,
pyright, pylsp, jedi-language-server. Every special case of a server is a field of its entry
(docs/architecture.md, "Catalogs hold every special case"): `columns` records that pylsp and
jedi answer in code points whatever encoding they claim (docs/reference.md, "Language servers").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ServerSpec", "ServerCatalog", "BUILT_IN", "Unconfigured", "CATALOG", "LANGUAGES", "language_of", "language_id",
           "servers_for", "find_root", "find_binary", "find_node_file", "project_roots", "added_server"]


@dataclass(frozen=True)
class Unconfigured:
    """How a checker runs on a project that does not configure it: at its standard level, through
    a configuration file of `name` (holding `settings`) written outside the project, since its
    defaults are much stricter (basedpyright: 149 errors and 2,969 warnings on a clean project).
    A project is configured when it has `name` at its root or a `sections` table in pyproject.toml."""

    name: str
    sections: tuple[str, ...]
    settings: dict[str, object]
    flag: str  # the checker's option that takes the configuration file


@dataclass(frozen=True)
class ServerSpec:
    """One language server: how it starts and what it serves."""

    id: str
    argv: tuple[str, ...]
    languages: tuple[str, ...]
    extensions: tuple[str, ...]
    root_markers: tuple[str, ...]
    checker: tuple[str, ...] | None = None  # run in the root for diagnostics "*"
    columns: str | None = None  # "code_points" when the server ignores the negotiated encoding
    settings: dict[str, object] = field(default_factory=dict)  # answers to workspace/configuration
    # catalog language of an extension, where it is not languages[0]
    extension_languages: dict[str, str] = field(default_factory=dict)
    # LSP languageId of an extension (didOpen), where it is not the catalog language
    language_ids: dict[str, str] = field(default_factory=dict)
    # initialize's initializationOptions, as sent
    init_options: dict[str, object] = field(default_factory=dict)
    # (option, file): initializationOptions[option] = {"path": the file}, looked up under the
    # root's node_modules, then beside the server binary (its own node_modules)
    node_file_option: tuple[str, str] | None = None
    # the checker's settings for a project that has none of its own
    unconfigured: Unconfigured | None = None
    # no root marker found: serve from the workspace root instead of refusing (a marker, where there
    # is one, still places a sub-project's root and lets the warm-up start the server)
    marker_optional: bool = False
    # seconds after start within which the server begins the $/progress of its first index: one
    # that publishes for the opened file before it begins (intelephense) would otherwise be asked
    # before it has read the project; the first project query waits this long for the index to begin
    announces_index: float = 0.0
    # its diagnostics of a file depend on that file alone (a linter's, syntax errors): a write is
    # not checked for the files that depend on it (docs/tools.md, "Write-time diagnostics")
    single_file_diagnostics: bool = False
    # it publishes nothing for a file whose diagnostics stay empty (no empty list again): a written
    # file clean before may stay unpublished, and the check of its dependents does not wait for it
    silent_when_clean: bool = False
    # file names it serves whatever their extension, lower-case: "dockerfile" serves Dockerfile and
    # Dockerfile.prod (a Dockerfile has no extension to be found by)
    file_names: tuple[str, ...] = ()
    # arguments after argv[0] that exit 0 only when the server is installed: its binary is an
    # interpreter every machine has (perl), the server a module of it
    probe: tuple[str, ...] = ()
    # the settings are also sent as workspace/didChangeConfiguration after initialized: a server
    # that never asks workspace/configuration and starts its work only on that notification
    # (Perl::LanguageServer: its parser and syntax checker)
    push_settings: bool = False
    # publishes for one file that arrive within this many seconds of the one before are parts of
    # one answer, merged: Perl::LanguageServer 2.5 publishes a file's errors and an empty list for
    # it, twice each, in Perl's random hash order (docs/reference.md, Perl::LanguageServer)
    merge_burst: float = 0.0

    def names(self, path: str | os.PathLike[str]) -> bool:
        """Whether `path`'s name is one this server serves whatever its extension."""
        name = Path(path).name.lower()
        return any(name == known or name.startswith(known + ".") for known in self.file_names)

    def serves(self, path: str | os.PathLike[str]) -> bool:
        """Whether `path` is one of this server's files, by its extension or its name."""
        return Path(path).suffix.lower() in self.extensions or self.names(path)

    def language_id_of(self, path: str | os.PathLike[str]) -> str:
        """The LSP languageId this server is told for `path` (didOpen)."""
        ext = Path(path).suffix.lower()
        return self.language_ids.get(ext) or self.extension_languages.get(ext, self.languages[0])


_PYRIGHT_STANDARD = Unconfigured("pyrightconfig.json", ("tool.basedpyright", "tool.pyright"),
                                 {"typeCheckingMode": "standard"}, "-p")
_PY_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json", "Pipfile")
_PY_EXT = (".py", ".pyi")
_TS_EXT = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_C_EXT = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx")
_TS_IDS = {".tsx": "typescriptreact", ".jsx": "javascriptreact"}
# where a server that would keep a cache in the project keeps it instead
_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "minitools"

CATALOG: tuple[ServerSpec, ...] = (
    ServerSpec("basedpyright", ("basedpyright-langserver", "--stdio"), ("python",), _PY_EXT, _PY_MARKERS,
               checker=("basedpyright",), unconfigured=_PYRIGHT_STANDARD),
    ServerSpec("pyright", ("pyright-langserver", "--stdio"), ("python",), _PY_EXT, _PY_MARKERS, checker=("pyright",),
               unconfigured=_PYRIGHT_STANDARD),
    ServerSpec("pylsp", ("pylsp",), ("python",), _PY_EXT, _PY_MARKERS, checker=("pyflakes", "."), columns="code_points",
               single_file_diagnostics=True),
    ServerSpec("jedi-language-server", ("jedi-language-server",), ("python",), _PY_EXT, _PY_MARKERS,
               checker=("pyflakes", "."), columns="code_points", single_file_diagnostics=True),
    ServerSpec("typescript-language-server", ("typescript-language-server", "--stdio"), ("typescript", "javascript"), _TS_EXT,
               ("tsconfig.json", "jsconfig.json", "package.json"), checker=("tsc", "--noEmit", "--pretty", "false"),
               extension_languages=dict.fromkeys((".js", ".jsx", ".mjs", ".cjs"), "javascript"),
               language_ids=_TS_IDS,
               # rename the symbol itself at an import site, not just alias the import
               # (docs/reference.md, typescript-language-server)
               init_options={"preferences": {"providePrefixAndSuffixTextForRename": False}},
               node_file_option=("tsserver", "typescript/lib/tsserver.js"), silent_when_clean=True),
    ServerSpec("clangd", ("clangd", "--log=error"), ("c", "cpp"), _C_EXT,
               ("compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt", "Makefile", "meson.build"),
               extension_languages=dict.fromkeys((".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"), "cpp")),
    ServerSpec("gopls", ("gopls",), ("go",), (".go",), ("go.mod", "go.work"), checker=("go", "vet", "./...")),
    ServerSpec("rust-analyzer", ("rust-analyzer",), ("rust",), (".rs",), ("Cargo.toml",),
               checker=("cargo", "check", "--message-format=short")),
    ServerSpec("dart", ("dart", "language-server", "--protocol=lsp"), ("dart",), (".dart",), ("pubspec.yaml",),
               checker=("dart", "analyze")),
    # a PHP project often has no composer.json: without one the server serves from the workspace root
    ServerSpec("intelephense", ("intelephense", "--stdio"), ("php",), (".php", ".phtml"), ("composer.json",),
               marker_optional=True, announces_index=3.0),
    ServerSpec("bash-language-server", ("bash-language-server", "start"), ("bash",), (".sh", ".bash"), (),
               single_file_diagnostics=True),
    # no schema is fetched: the schema store is off (no network at run time); a file's own
    # `# yaml-language-server: $schema=` comment still names a local schema
    ServerSpec("yaml-language-server", ("yaml-language-server", "--stdio"), ("yaml",), (".yaml", ".yml"), (),
               settings={"yaml": {"schemaStore": {"enable": False}, "validate": True, "hover": True,
                                  "completion": True}}, single_file_diagnostics=True),
    ServerSpec("vscode-json-language-server", ("vscode-json-language-server", "--stdio"), ("json",), (".json", ".jsonc"),
               (), language_ids={".jsonc": "jsonc"}, init_options={"provideFormatter": False},
               single_file_diagnostics=True),
    ServerSpec("vscode-css-language-server", ("vscode-css-language-server", "--stdio"), ("css",), (".css", ".scss", ".less"),
               (), language_ids={".scss": "scss", ".less": "less"}, init_options={"provideFormatter": False},
               settings={lang: {"validate": True} for lang in ("css", "scss", "less")}, single_file_diagnostics=True),
    ServerSpec("vscode-html-language-server", ("vscode-html-language-server", "--stdio"), ("html",), (".html", ".htm"),
               (), init_options={"provideFormatter": False},
               settings={"html": {"validate": {"scripts": True, "styles": True}}, "css": {"validate": True}},
               single_file_diagnostics=True),
    # Perl::LanguageServer is a module of perl, not a binary (probe: the module loads); it starts its
    # parser and syntax checker only on didChangeConfiguration, and keeps its parse cache in
    # cacheDir, else in the project's .vscode/perl-lang (docs/reference.md, Perl::LanguageServer)
    ServerSpec("perl-language-server", ("perl", "-MPerl::LanguageServer", "-e", "Perl::LanguageServer::run", "--"),
               ("perl",), (".pl", ".pm", ".t", ".psgi"), ("cpanfile", "Makefile.PL", "Build.PL", "dist.ini"),
               marker_optional=True, probe=("-MPerl::LanguageServer", "-e", "1"), push_settings=True, merge_burst=0.2,
               settings={"perl": {"cacheDir": str(_CACHE / "perl-lang"), "perlInc": [], "fileFilter": [".pm", ".pl", ".t", ".psgi"],
                                  "ignoreDirs": [".git", ".vscode", "node_modules", "blib", "local"]}}),
    ServerSpec("fortls", ("fortls",), ("fortran",), (".f90", ".f95", ".f03", ".f08", ".f", ".for", ".fpp"),
               (".fortls", "fpm.toml"), marker_optional=True),
    ServerSpec("dockerfile-language-server", ("docker-langserver", "--stdio"), ("dockerfile",), (".dockerfile",), (),
               file_names=("dockerfile", "containerfile"), single_file_diagnostics=True),
    # not package.json: every node project has one, and the warm-up would start this server in each
    ServerSpec("svelte-language-server", ("svelteserver", "--stdio"), ("svelte",), (".svelte",),
               ("svelte.config.js", "svelte.config.mjs", "svelte.config.cjs", "svelte.config.ts"), marker_optional=True),
)

LANGUAGES: tuple[str, ...] = tuple(dict.fromkeys(lang for spec in CATALOG for lang in spec.languages))


class ServerCatalog:
    """The servers one Run chooses from: the built-in catalog, with the servers a configuration
    adds (docs/reference.md, "Configuration") first; an added server with a built-in's id takes
    its place."""

    def __init__(self, added: tuple[ServerSpec, ...] = ()) -> None:
        ids = {s.id for s in added}
        self.specs: tuple[ServerSpec, ...] = (*added, *(s for s in CATALOG if s.id not in ids))
        self.languages: tuple[str, ...] = tuple(dict.fromkeys(lang for spec in self.specs for lang in spec.languages))

    def spec(self, server_id: str) -> ServerSpec:
        return next(s for s in self.specs if s.id == server_id)

    def _serving(self, path: str | os.PathLike[str]) -> ServerSpec | None:
        # a server naming the file outright (Dockerfile.prod) before one of its extension
        named = next((spec for spec in self.specs if spec.names(path)), None)
        return named or next((spec for spec in self.specs if spec.serves(path)), None)

    def language_of(self, path: str | os.PathLike[str]) -> str | None:
        """The language serving `path` (by extension or name), or None."""
        spec = self._serving(path)
        return None if spec is None else spec.extension_languages.get(Path(path).suffix.lower(), spec.languages[0])

    def language_id(self, path: str | os.PathLike[str]) -> str:
        """The LSP languageId for didOpen."""
        spec = self._serving(path)
        return "plaintext" if spec is None else spec.language_id_of(path)

    def servers_for(self, language: str, prefer: list[str] | None = None) -> list[ServerSpec]:
        """Candidates for `language`, in preference order (`prefer` names ids to use instead)."""
        specs = [s for s in self.specs if language in s.languages]
        if prefer:
            by_id = {s.id: s for s in specs}
            return [by_id[i] for i in prefer if i in by_id]
        return specs


BUILT_IN = ServerCatalog()


def added_server(entry: Mapping[str, Any]) -> ServerSpec:
    """A server the configuration adds ([[lsp.servers]], its fields checked there)."""
    return ServerSpec(
        str(entry["id"]), tuple(entry["command"]), tuple(entry["languages"]),
        tuple(e.lower() for e in entry["extensions"]), tuple(entry.get("root_markers", ())),
        checker=tuple(entry["checker"]) if entry.get("checker") else None, settings=dict(entry.get("settings", {})),
        language_ids={k.lower(): str(v) for k, v in entry.get("language_ids", {}).items()},
        init_options=dict(entry.get("init_options", {})),
    )


def language_of(path: str | os.PathLike[str]) -> str | None:
    """The built-in catalog's language serving `path` (by extension), or None."""
    return BUILT_IN.language_of(path)


def language_id(path: str | os.PathLike[str]) -> str:
    """The LSP languageId for didOpen, by the built-in catalog."""
    return BUILT_IN.language_id(path)


def find_node_file(relative: str, binary: str, root: Path) -> str | None:
    """`relative` (e.g. typescript/lib/tsserver.js) in the project's node_modules first, then
    in the node_modules beside the server binary (or one of its parents)."""
    candidates = [root / "node_modules" / relative]
    here = Path(os.path.realpath(binary)).parent
    for parent in [here, *here.parents]:
        candidates.append(parent / "node_modules" / relative)
        candidates.append(parent / relative)
    return next((str(c) for c in candidates if c.is_file()), None)


def servers_for(language: str, prefer: list[str] | None = None) -> list[ServerSpec]:
    """The built-in catalog's candidates for `language` (ServerCatalog.servers_for)."""
    return BUILT_IN.servers_for(language, prefer)


def find_root(path: Path, markers: tuple[str, ...], top: Path) -> Path | None:
    """The nearest directory from `path` up to `top` (inclusive) holding one of `markers`; `top`
    for a server with no markers (one the configuration adds without them)."""
    if not markers:
        return top
    here = path if path.is_dir() else path.parent
    while True:
        if any((here / marker).exists() for marker in markers):
            return here
        if here == top or top not in here.parents:
            return None
        here = here.parent


_NOT_PROJECTS = {"node_modules", "venv", "build", "dist", "target", "__pycache__", "site-packages", "vendor"}


def project_roots(top: Path, markers: tuple[str, ...], depth: int = 3, limit: int = 20) -> list[Path]:
    """Where a language's projects are under `top`: `top` itself when it holds a marker, else the
    folders below it (at most `depth` levels down, not hidden, not dependencies or build output)
    that hold one, outermost first, at most `limit` (a monorepo's backend/ and frontend/)."""
    if any((top / marker).exists() for marker in markers):
        return [top]
    found: list[Path] = []
    level = [top]
    visited = 0
    for _ in range(depth):
        below: list[Path] = []
        for folder in level:
            visited += 1
            if visited > 2000:  # bounded, however wide the tree
                return found
            try:
                children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
            except OSError:
                continue
            for child in children:
                if child.name.startswith(".") or child.name in _NOT_PROJECTS:
                    continue
                if any((child / marker).exists() for marker in markers):
                    found.append(child)  # a project: its own folders are its own
                    if len(found) >= limit:
                        return found
                else:
                    below.append(child)
        level = below
    return found


def find_binary(name: str, search: list[Path]) -> str | None:
    """`name` as an executable path: first in `search` dirs, then on $PATH."""
    for directory in search:
        candidate = directory / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if entry:
            candidate = Path(entry) / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    return None
