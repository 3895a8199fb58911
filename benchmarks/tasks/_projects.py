"""The real projects the tasks are asked about, each laid out fresh in a temporary folder, with
its own checker and tests: what judges an edit.

  click  Click 8.5.1's sdist (Python; setup/15-corpora.sh fetches it into benchmarks/corpora/click):
         basedpyright as its pyproject.toml configures it, and its pytest suite.
  rxjs   rxjs 7.8.2's TypeScript sources as npm publishes them (benchmarks/corpora/typescript/rxjs):
         tsc over its tsconfig.json; the package ships no tests.
  zlib   zlib's example programs (Debian zlib1g-dev, /usr/share/doc/zlib1g-dev/examples): the C
         compiler with -Wall over every file, and zlib's own test program, example.c, built and run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPORA = REPO / "benchmarks" / "corpora"
NODE_BIN = REPO / "node_modules" / ".bin"
VENV_BIN = Path(sys.executable).parent
PROGRAMS = HERE / "programs"
ZLIB_EXAMPLES = Path("/usr/share/doc/zlib1g-dev/examples")

# (file, line, message) of one error or warning of a checker
Finding = tuple[str, int, str]


@dataclass(frozen=True)
class Project:
    name: str
    language: str       # the language id minitools takes
    source: str         # where the sources come from, for the report
    dirs: tuple[str, ...]      # folders a search covers, relative to the root
    suffixes: tuple[str, ...]  # the files of the language

    def lay(self, dest: Path) -> Path:
        """A fresh copy of the project at `dest`, ready for its servers and its checker."""
        if self.name == "click":
            src = CORPORA / "click"
            _need(src / "pyproject.toml", "Click's sdist", "setup/15-corpora.sh")
            shutil.copytree(src, dest, ignore=shutil.ignore_patterns("docs", "__pycache__", "uv.lock"))
            for program in sorted(PROGRAMS.glob("click_*.py")):  # the value tasks' programs
                shutil.copy(program, dest / program.name)
        elif self.name == "rxjs":
            src = CORPORA / "typescript" / "rxjs"
            _need(src / "src" / "index.ts", "rxjs's TypeScript sources", "setup/15-corpora.sh")
            dest.mkdir(parents=True)
            shutil.copytree(src / "src", dest / "src")
            for name in ("tsconfig.json", "package.json"):
                shutil.copy(src / name, dest / name)
        elif self.name == "zlib":
            _need(ZLIB_EXAMPLES / "zpipe.c", "zlib's example programs", "setup/35-lsp-real.sh (zlib1g-dev)")
            dest.mkdir(parents=True)
            for path in sorted(ZLIB_EXAMPLES.glob("*.[ch]")):
                shutil.copy(path, dest / path.name)
            commands = [{"directory": str(dest), "file": str(dest / p.name), "arguments": ["cc", "-c", *C_FLAGS, p.name]}
                        for p in sorted(dest.glob("*.c"))]
            (dest / "compile_commands.json").write_text(json.dumps(commands, indent=1))
            # the lldb adapter's root marker (docs/tools.md, "debug"): one target per program
            targets = "".join(f"add_executable({p.stem} {p.name})\n" for p in sorted(dest.glob("*.c")))
            (dest / "CMakeLists.txt").write_text(f"cmake_minimum_required(VERSION 3.13)\nproject(zlib_examples C)\n{targets}")
        else:
            raise ValueError(self.name)
        return dest

    def files(self, root: Path) -> list[Path]:
        out = []
        for folder in self.dirs:
            out += [p for p in (root / folder).rglob("*") if p.name.endswith(self.suffixes) and p.is_file()]
        return sorted(set(out))

    # ---- the judges of an edit: the project's own checker and tests ----

    def check(self, root: Path) -> Counter[tuple[str, str]]:
        """The checker's errors and warnings, counted by (file, message)."""
        return Counter((f, m) for f, _, m in self.findings(root))

    def findings(self, root: Path) -> list[Finding]:
        if self.name == "click":
            proc = _run([str(VENV_BIN / "basedpyright"), "--outputjson"], root, timeout=300)
            out = json.loads(proc.stdout)
            return [(os.path.relpath(d["file"], root), d["range"]["start"]["line"] + 1, d["message"])
                    for d in out["generalDiagnostics"] if d["severity"] in ("error", "warning")]
        if self.name == "rxjs":
            proc = _run([str(NODE_BIN / "tsc"), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], root, timeout=300)
            return [(m[1], int(m[2]), m[3]) for m in re.finditer(r"^(.+?)\((\d+),\d+\): (?:error|warning) (.*)$", proc.stdout, re.M)]
        proc = _run(["cc", "-fsyntax-only", *C_FLAGS, *sorted(p.name for p in root.glob("*.c"))], root, timeout=300)
        return [(m[1], int(m[2]), m[3]) for m in re.finditer(r"^([\w.]+):(\d+):\d+: (?:error|warning): (.*)$", proc.stderr, re.M)]

    def tests(self, root: Path) -> tuple[bool, str]:
        """(passed, the tail of the output) of the project's own tests; rxjs has none to run."""
        if self.name == "click":
            env = {**os.environ, "PYTHONPATH": str(root / "src")}
            proc = _run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:asyncio",
                         "-p", "no:hypothesispytest", "tests"], root, timeout=600, env=env)
            return proc.returncode == 0, proc.stdout[-600:]
        if self.name == "zlib":
            exe = root / ".example-test"
            build = _run(["cc", "-o", str(exe), "example.c", "-lz"], root, timeout=120)
            if build.returncode != 0:
                return False, build.stderr[-600:]
            proc = _run([str(exe)], root, timeout=120)
            exe.unlink()
            return proc.returncode == 0, (proc.stdout + proc.stderr)[-600:]
        return True, "no tests ship with the package"


C_FLAGS = ("-std=gnu99", "-Wall")

PROJECTS = {p.name: p for p in (
    Project("click", "python", "Click 8.5.1 (PyPI sdist)", ("src", "tests"), (".py",)),
    Project("rxjs", "typescript", "rxjs 7.8.2 src/ (npm)", ("src",), (".ts",)),
    Project("zlib", "c", "zlib's examples (Debian zlib1g-dev)", (".",), (".c", ".h")),
)}


def _need(path: Path, what: str, how: str) -> None:
    if not path.exists():
        raise SystemExit(f"{what} are not on this machine ({how} installs them)")


def _run(argv: list[str], cwd: Path, *, timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
