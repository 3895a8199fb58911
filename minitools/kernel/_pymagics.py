"""The IPython idioms inside the Python kernel: what `__minitools__.line_magic(...)`,
`cell_magic`, `system` and `getoutput` do once the rewriter has turned `%pip`, `!ls`, `%%bash`
... into calls (docs/reference.md, "Kernels"; docs/tools.md, "eval").

Loaded by the worker by path (it runs on the workspace's interpreter, without minitools).
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Magics", "MagicError", "SList"]

# IPython's shell aliases: `%ls -la` runs `ls -la`
_ALIASES = ("ls", "ll", "cat", "cp", "mv", "rm", "mkdir", "rmdir")


class MagicError(Exception):
    """A misused idiom: unknown magic, bad arguments. Reported without a traceback."""


class SList(list):
    """The lines a captured command printed (`x = !ls`), with IPython's `.s`, `.n`, `.l`."""

    @property
    def s(self) -> str:
        return " ".join(self)

    @property
    def n(self) -> str:
        return "\n".join(self)

    @property
    def l(self) -> list[str]:  # noqa: E743 - IPython's name
        return list(self)


def _format_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds} s"


def _die_with_parent() -> None:
    """In the forked command: SIGKILL when the kernel dies (Linux). The worker runs on the
    workspace's interpreter, where minitools may not be importable, so this is its own copy of
    `minitools.transport.die_with_parent`."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


class Magics:
    """`__minitools__` in the kernel's builtins."""

    def __init__(self, kernel: Any) -> None:
        self._kernel = kernel
        self._previous_dir: str | None = None
        self._line: dict[str, Callable[[str], Any]] = {
            "pip": self._pip, "cd": self._cd, "pwd": self._pwd, "env": self._env,
            "time": self._time, "timeit": self._timeit, "who": self._who, "whos": self._who,
            "run": self._run, "sx": self.getoutput, "system": self.getoutput,
            "matplotlib": self._matplotlib, "reset": self._reset, "conda": self._conda,
        }
        for alias in _ALIASES:
            self._line[alias] = self._alias(alias)
        self._cell: dict[str, Callable[[str, str], Any]] = {
            "bash": self._script("bash"), "sh": self._script("sh"), "script": self._script_any,
            "writefile": self._writefile, "time": self._cell_time, "timeit": self._cell_timeit,
            "python": self._cell_python, "html": self._cell_display("text/html"),
            "markdown": self._cell_display("text/markdown"),
        }

    @property
    def _ns(self) -> dict[str, Any]:
        return self._kernel.locals

    # Entry points the rewriter emits ------------------------------------------------

    def line_magic(self, name: str, args: str) -> Any:
        handler = self._line.get(name)
        if handler is None:
            known = ", ".join(f"%{n}" for n in sorted(self._line))
            raise MagicError(
                f"unknown magic %{name} (this kernel is not IPython). Line magics here: {known}; "
                f"cell magics: {', '.join('%%' + n for n in sorted(self._cell))}. Run shell commands with !cmd."
            )
        return handler(args)

    def cell_magic(self, name: str, args: str, body: str) -> Any:
        handler = self._cell.get(name)
        if handler is None:
            known = ", ".join(f"%%{n}" for n in sorted(self._cell))
            raise MagicError(f"unknown cell magic %%{name} (this kernel is not IPython). Cell magics here: {known}.")
        return handler(args, body)

    def system(self, command: str) -> None:
        """`!cmd`: run it in a shell, its output streamed into the cell's output in order."""
        code = self._stream([_shell(), "-c", self._expand(command)])
        self._ns["_exit_code"] = code

    def getoutput(self, command: str) -> SList:
        """`x = !cmd`: run it in a shell and return its output lines (stdout and stderr)."""
        done = subprocess.run(
            [_shell(), "-c", self._expand(command)], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        )
        self._ns["_exit_code"] = done.returncode
        return SList(done.stdout.splitlines())

    # Helpers -------------------------------------------------------------------------

    def _expand(self, command: str) -> str:
        """IPython's expansion: `{expr}` is evaluated in the cell's namespace, `$name` is a
        variable of the namespace when it is one (else left for the shell), `$$` is `$`."""

        def brace(match: re.Match[str]) -> str:
            try:
                return str(eval(match.group(1), self._ns))  # noqa: S307 - the user's own expression
            except Exception:  # noqa: BLE001 - not an expression: leave it for the shell
                return match.group(0)

        def dollar(match: re.Match[str]) -> str:
            name = match.group(1)
            return str(self._ns[name]) if name in self._ns else match.group(0)

        command = re.sub(r"(?<![{$]){([^{}]+)}(?!})", brace, command)
        command = re.sub(r"(?<!\$)\$([A-Za-z_]\w*)", dollar, command)
        return command.replace("$$", "$")

    def _stream(self, argv: list[str], stdin: str | None = None) -> int:
        # the command dies with the kernel, which dies with the Run's process: none outlives it
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1,
            preexec_fn=_die_with_parent,
        )
        try:
            if stdin is not None:
                assert process.stdin is not None
                process.stdin.write(stdin)
                process.stdin.close()
            assert process.stdout is not None
            for line in process.stdout:
                sys.stdout.write(line)
            return process.wait()
        except BaseException:
            process.kill()
            process.wait()
            raise

    # Line magics ---------------------------------------------------------------------

    def _pip(self, args: str) -> None:
        """`%pip ...` for the kernel's own interpreter; then the changed distributions'
        modules leave sys.modules, so the next import sees what was installed."""
        before = _distributions()
        code = self._stream([sys.executable, "-m", "pip", *shlex.split(args)])
        after = _distributions()
        changed = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
        importlib.invalidate_caches()
        for directory in site.getsitepackages() + [site.getusersitepackages()]:
            if os.path.isdir(directory):
                site.addsitedir(directory)  # new .pth files (editable installs) take effect
        purged: list[str] = []
        for name in changed:
            for top in after.get(name, before.get(name, ("", ())))[1]:
                if top in sys.builtin_module_names or top in ("sys", "builtins"):
                    continue
                doomed = [m for m in sys.modules if m == top or m.startswith(top + ".")]
                for module in doomed:
                    del sys.modules[module]
                if doomed:
                    purged.append(top)
        if changed:
            print(f"Note: distributions changed: {', '.join(changed)}.")
        if purged:
            print(f"Note: removed the already-imported modules {', '.join(sorted(set(purged)))} from "
                  "sys.modules; import them again to get the new code (objects made earlier keep the old code).")
        if code != 0:
            raise MagicError(f"%pip {args} failed: pip exited with status {code} (its output is above).")

    def _conda(self, args: str) -> None:
        raise MagicError("%conda is not available in this kernel; use %pip (it installs into the kernel's interpreter).")

    def _cd(self, args: str) -> str:
        target = args.strip().strip("'\"")
        if target == "-":
            if self._previous_dir is None:
                raise MagicError("%cd -: there is no previous directory yet.")
            target = self._previous_dir
        target = os.path.expandvars(os.path.expanduser(target or "~"))
        previous = os.getcwd()
        try:
            os.chdir(target)
        except OSError as exc:
            raise MagicError(f"%cd {args}: {exc.strerror}: {target!r}") from None
        self._previous_dir = previous
        print(os.getcwd())
        return os.getcwd()

    def _pwd(self, args: str) -> str:
        return os.getcwd()

    def _env(self, args: str) -> Any:
        args = args.strip()
        if not args:
            return dict(os.environ)
        match = re.match(r"^([A-Za-z_]\w*)\s*(?:=\s*|\s+)(.*)$", args)
        if match:
            os.environ[match.group(1)] = os.path.expandvars(match.group(2))
            print(f"env: {match.group(1)}={os.environ[match.group(1)]}")
            return None
        if args in os.environ:
            return os.environ[args]
        raise MagicError(f"%env {args}: no environment variable {args!r}; set one with %env NAME=value.")

    def _time(self, args: str) -> Any:
        return self._timed(args, self._eval_or_exec)

    def _timed(self, source: str, run: Callable[[str], Any]) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return run(source)
        finally:
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"CPU times: total: {_format_time(cpu)}\nWall time: {_format_time(wall)}")

    def _eval_or_exec(self, source: str) -> Any:
        try:
            compiled = compile(source, "<%time>", "eval")
        except SyntaxError:
            exec(compile(source, "<%time>", "exec"), self._ns)  # noqa: S102
            return None
        return eval(compiled, self._ns)  # noqa: S307

    def _timeit(self, args: str, body: str | None = None) -> None:
        import timeit

        match = re.match(r"^\s*((?:-[nr]\s*\d+\s*|-[qo]\s+)*)(.*)$", args, re.S)
        assert match is not None
        options, rest = match.groups()
        if rest.startswith("-"):
            raise MagicError(f"%timeit: unknown option in {rest!r}; use -n N (loops) and -r R (runs).")
        loops = re.search(r"-n\s*(\d+)", options)
        runs_opt = re.search(r"-r\s*(\d+)", options)
        number = int(loops.group(1)) if loops else 0
        repeat = int(runs_opt.group(1)) if runs_opt else 0
        if body is None:
            statement, setup = rest.strip(), "pass"
            if not statement:
                raise MagicError("%timeit needs a statement, e.g. %timeit sum(range(100))")
        else:
            statement, setup = body, rest.strip() or "pass"
        timer = timeit.Timer(statement, setup, globals=self._ns)
        if not number:
            number, _ = timer.autorange()
        runs = timer.repeat(repeat=repeat or 7, number=number)
        per_loop = [r / number for r in runs]
        mean = sum(per_loop) / len(per_loop)
        std = (sum((x - mean) ** 2 for x in per_loop) / len(per_loop)) ** 0.5
        print(f"{_format_time(mean)} ± {_format_time(std)} per loop "
              f"(mean ± std. dev. of {len(runs)} runs, {number} loop{'s' if number != 1 else ''} each)")

    def _who(self, args: str) -> None:
        names = sorted(n for n, v in self._ns.items() if not n.startswith("_") and type(v).__name__ != "module")
        print("  ".join(names) if names else "Interactive namespace is empty.")

    def _run(self, args: str) -> None:
        import runpy

        words = shlex.split(args)
        if not words:
            raise MagicError("%run needs a script path, e.g. %run scripts/prepare.py")
        saved = sys.argv
        sys.argv = words
        try:
            result = runpy.run_path(words[0], run_name="__main__")
        finally:
            sys.argv = saved
        self._ns.update({k: v for k, v in result.items() if not k.startswith("__")})

    def _matplotlib(self, args: str) -> None:
        # Figures always come back as PNGs after the cell: `%matplotlib inline` is what happens anyway.
        return None

    def _reset(self, args: str) -> None:
        raise MagicError("%reset is not supported; call eval with reset: true to start a clean interpreter.")

    def _alias(self, command: str) -> Callable[[str], None]:
        real = "ls -l" if command == "ll" else command
        return lambda args: self.system(f"{real} {args}".strip())

    # Cell magics ---------------------------------------------------------------------

    def _script(self, interpreter: str) -> Callable[[str, str], None]:
        def run(args: str, body: str) -> None:
            code = self._stream([interpreter, *shlex.split(args)], stdin=body)
            if code != 0:
                raise MagicError(f"%%{interpreter} exited with status {code}.")
        return run

    def _script_any(self, args: str, body: str) -> None:
        words = shlex.split(args)
        if not words:
            raise MagicError("%%script needs an interpreter, e.g. %%script bash")
        self._script(words[0])(" ".join(shlex.quote(w) for w in words[1:]), body)

    def _writefile(self, args: str, body: str) -> None:
        words = shlex.split(args)
        append = "-a" in words or "--append" in words
        paths = [w for w in words if not w.startswith("-")]
        if len(paths) != 1:
            raise MagicError("%%writefile needs one path, e.g. %%writefile src/config.py")
        path = os.path.expanduser(paths[0])
        existed = os.path.exists(path)
        with open(path, "a" if append else "w", encoding="utf-8") as handle:
            handle.write(body)
        print(f"{'Appending to' if append else 'Overwriting' if existed else 'Writing'} {paths[0]}")

    def _cell_python(self, args: str, body: str) -> Any:
        return self._kernel.run_cell(body, self._kernel_filename())

    def _cell_time(self, args: str, body: str) -> Any:
        return self._timed(body, lambda source: self._kernel.run_cell(source, self._kernel_filename()))

    def _cell_timeit(self, args: str, body: str) -> None:
        self._timeit(args, body)

    def _cell_display(self, mime: str) -> Callable[[str, str], None]:
        def show(args: str, body: str) -> None:
            self._kernel.display({mime: body, "text/plain": body}, raw=True)
        return show

    def _kernel_filename(self) -> str:
        return "<cell body>"


def _shell() -> str:
    return shutil.which("bash") or "/bin/sh"


def _distributions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """name -> (version and location, top-level import names) for every installed distribution."""
    from importlib import metadata

    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for dist in metadata.distributions():
        try:
            name = (dist.metadata["Name"] or "").lower()
        except Exception:  # noqa: BLE001 - a broken dist-info is skipped
            continue
        if not name:
            continue
        tops: set[str] = set()
        listed = dist.read_text("top_level.txt")
        if listed:
            tops.update(line.strip() for line in listed.splitlines() if line.strip())
        for file in dist.files or ():
            part = file.parts[0] if file.parts else ""
            if not part or part.endswith((".dist-info", ".egg-info", ".pth", ".data")) or part in ("..", "__pycache__", "bin"):
                continue
            tops.add(part[:-3] if part.endswith(".py") else part.split(".")[0])
        location = str(getattr(dist, "_path", ""))
        found[name] = (f"{dist.version}@{location}", tuple(sorted(t for t in tops if t.isidentifier())))
    return found
