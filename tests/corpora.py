"""Real code on this machine for the per-language tests, found where setup/15-corpora.sh put it.

Each function returns a corpus folder or skips the test with the reason and the set-up step that
fetches it. `sample(root, suffixes, n)` picks a deterministic handful of files from a corpus.
"""

from __future__ import annotations

import sysconfig
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO / "benchmarks" / "corpora"
COMMITTED = REPO / "tests" / "corpora"
SETUP = "setup/15-corpora.sh"
SKIPPED_DIRS = frozenset({"site-packages", "dist-packages", "node_modules", "__pycache__"})


def _found(path: Path | None, what: str, how: str = SETUP) -> Path:
    if path is None or not path.is_dir():
        pytest.skip(f"{what} is not on this machine ({how} installs it)")
    return path


def go_src() -> Path:
    """Go's source tree (Debian golang-src): the newest /usr/lib/go-*/src."""
    trees = sorted(Path("/usr/lib").glob("go-*/src/go/ast"), key=lambda p: p.parts[3])
    return _found(trees[-1].parent.parent if trees else None, "Go's source tree")


def rust_crate(name: str) -> Path:
    """One crate's sources from Debian's librust-NAME-dev (/usr/share/cargo/registry/NAME-VERSION)."""
    found = sorted(Path("/usr/share/cargo/registry").glob(f"{name}-[0-9]*"))
    return _found(found[-1] if found else None, f"the Rust crate {name}")


def glibc() -> Path:
    """The GNU C library's .c/.h files (Debian glibc-source, without sysdeps/)."""
    return _found(CORPORA / "glibc", "glibc's C sources")


def jdk_java_base() -> Path:
    """The JDK's java.base module sources (Debian openjdk-17-source's src.zip)."""
    return _found(CORPORA / "jdk-java.base", "the JDK's java.base sources")


def typescript_packages() -> Path:
    """npm packages shipping TypeScript sources and declarations (rxjs, effect, tfjs-core)."""
    return _found(CORPORA / "typescript", "the TypeScript npm packages")


def typescript_lib() -> Path:
    """The TypeScript compiler's lib .d.ts files (node_modules/typescript/lib, package.json)."""
    return _found(REPO / "node_modules" / "typescript" / "lib", "the typescript npm package", "setup/30-lsp.sh")


def dart_files() -> Path:
    """Dart files shipped in the tree-sitter-dart npm package."""
    return _found(CORPORA / "dart", "the Dart files of the tree-sitter-dart package")


def python_stdlib() -> Path:
    """The running interpreter's standard library."""
    return _found(Path(sysconfig.get_paths()["stdlib"]), "the Python standard library", "the interpreter")


def sample(root: Path, suffixes: tuple[str, ...], n: int, under: str = "", max_bytes: int = 200_000) -> list[Path]:
    """`n` files below root/under with one of the suffixes, each at most max_bytes, picked by a
    hash of their relative path (deterministic, spread over the tree); installed packages
    (site-packages, node_modules) are not part of a corpus."""
    base = root / under if under else root
    files = [
        p for p in base.rglob("*")
        if p.name.endswith(suffixes) and not SKIPPED_DIRS.intersection(p.relative_to(root).parts)
        and p.is_file() and p.stat().st_size <= max_bytes
    ]
    files.sort(key=lambda p: (zlib.crc32(str(p.relative_to(root)).encode()), str(p)))
    if not files:
        pytest.skip(f"no {'/'.join(suffixes)} files below {base}")
    return files[:n]


def wide(name: str) -> Path:
    """One of the corpora of the languages beyond the eight: tests/corpora/NAME where it is
    committed (a sample of a public project whose sources no registry ships; its README names the
    project, commit and licence), else benchmarks/corpora/NAME (the header of setup/15-corpora.sh
    says what each holds and its licence)."""
    committed = COMMITTED / name
    return committed if committed.is_dir() else _found(CORPORA / name, f"the {name} corpus")
