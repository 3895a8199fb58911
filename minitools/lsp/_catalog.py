"""The language-server catalog, as data: which servers exist, for which languages, how to
start them, where a project's root is, and what checks a whole project (``diagnostics "*"``).

Order within a language is preference (issue 5): python tries basedpyright, pyright, pylsp,
jedi-language-server. `columns` records a measured quirk (REFERENCE.md): pylsp and jedi
answer in code points whatever encoding they claim.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ServerSpec", "CATALOG", "LANGUAGES", "language_of", "servers_for", "find_root", "find_binary"]


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


_PY_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json", "Pipfile")
_PY_EXT = (".py", ".pyi")
_TS_EXT = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_C_EXT = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx")

CATALOG: tuple[ServerSpec, ...] = (
    ServerSpec("basedpyright", ("basedpyright-langserver", "--stdio"), ("python",), _PY_EXT, _PY_MARKERS,
               checker=("basedpyright",)),
    ServerSpec("pyright", ("pyright-langserver", "--stdio"), ("python",), _PY_EXT, _PY_MARKERS, checker=("pyright",)),
    ServerSpec("pylsp", ("pylsp",), ("python",), _PY_EXT, _PY_MARKERS, checker=("pyflakes", "."), columns="code_points"),
    ServerSpec("jedi-language-server", ("jedi-language-server",), ("python",), _PY_EXT, _PY_MARKERS,
               checker=("pyflakes", "."), columns="code_points"),
    ServerSpec("typescript-language-server", ("typescript-language-server", "--stdio"), ("typescript", "javascript"), _TS_EXT,
               ("tsconfig.json", "jsconfig.json", "package.json"), checker=("tsc", "--noEmit", "--pretty", "false")),
    ServerSpec("clangd", ("clangd", "--log=error"), ("c", "cpp"), _C_EXT,
               ("compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt", "Makefile", "meson.build")),
    ServerSpec("gopls", ("gopls",), ("go",), (".go",), ("go.mod", "go.work"), checker=("go", "vet", "./...")),
    ServerSpec("rust-analyzer", ("rust-analyzer",), ("rust",), (".rs",), ("Cargo.toml",),
               checker=("cargo", "check", "--message-format=short")),
    ServerSpec("dart", ("dart", "language-server", "--protocol=lsp"), ("dart",), (".dart",), ("pubspec.yaml",),
               checker=("dart", "analyze")),
)

LANGUAGES: tuple[str, ...] = tuple(dict.fromkeys(lang for spec in CATALOG for lang in spec.languages))

_C_LANG = {".c": "c", ".h": "c"}
_TS_LANG = {".ts": "typescript", ".tsx": "typescriptreact", ".mts": "typescript", ".cts": "typescript",
            ".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript"}


def language_of(path: str | os.PathLike[str]) -> str | None:
    """The catalog language serving `path` (by extension), or None."""
    ext = Path(path).suffix.lower()
    for spec in CATALOG:
        if ext in spec.extensions:
            if spec.id == "typescript-language-server":
                return "javascript" if _TS_LANG[ext].startswith("javascript") else "typescript"
            if spec.id == "clangd":
                return _C_LANG.get(ext, "cpp")
            return spec.languages[0]
    return None


def language_id(path: str | os.PathLike[str]) -> str:
    """The LSP languageId for didOpen."""
    ext = Path(path).suffix.lower()
    if ext in _TS_LANG:
        return _TS_LANG[ext]
    return language_of(path) or "plaintext"


def servers_for(language: str, prefer: list[str] | None = None) -> list[ServerSpec]:
    """Candidates for `language`, in preference order (`prefer` names ids to use instead)."""
    specs = [s for s in CATALOG if language in s.languages]
    if prefer:
        by_id = {s.id: s for s in specs}
        return [by_id[i] for i in prefer if i in by_id]
    return specs


def find_root(path: Path, markers: tuple[str, ...], top: Path) -> Path | None:
    """The nearest directory from `path` up to `top` (inclusive) holding one of `markers`."""
    here = path if path.is_dir() else path.parent
    while True:
        if any((here / marker).exists() for marker in markers):
            return here
        if here == top or top not in here.parents:
            return None
        here = here.parent


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
