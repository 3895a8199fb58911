"""``lsp diagnostics "*"``: the project checker of each language at the workspace root
(basedpyright/pyright, pyflakes, tsc, go vet, cargo check, dart analyze), its output abridged
to its head and its tail, where the summary is, and the counts it reports (docs/tools.md)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from minitools.lsp import ServerSpec, Unconfigured, find_binary, project_roots, read_regular
from minitools.progress import ProgressState, progress_from
from minitools.tools.lsp._session import SessionPart
from minitools.toolspec import ToolError, ToolResult

__all__ = ["ProjectChecker", "abridge", "checker_counts"]

LIMIT = 12000  # characters of one checker's output shown
TAIL = 3000  # of which at most this many from its end
_HELP = re.compile(r"^\s*(usage:|COMMON COMMANDS\b)", re.IGNORECASE | re.MULTILINE)
_PYRIGHT_SUMMARY = re.compile(r"^(\d+) errors?, (\d+) warnings?, (\d+) (?:informations?|notes?)\s*$", re.MULTILINE)
_TSC_ERROR = re.compile(r"\): error TS\d+:", re.MULTILINE)
_PYFLAKES_PROBLEM = re.compile(r"^[^\s:][^:]*:\d+:(?:\d+:)? ", re.MULTILINE)


class ProjectChecker(SessionPart):
    async def run(self) -> ToolResult:
        timeout = float(self.ctx.option("lsp_checker_timeout", 120.0))
        prefer = self.ctx.option("lsp_servers", None) or {}
        outputs: list[dict[str, Any]] = []
        reasons: dict[str, list[str]] = {}  # why not checked -> the languages it applies to
        done: set[str] = set()
        for lang in self.sup.catalog.languages:
            specs = self.sup.catalog.servers_for(lang, prefer.get(lang))
            # the language's projects: at the root, or in the folders below it (a monorepo)
            rooted = [(s, roots) for s in specs if (roots := project_roots(self.ctx.root, s.root_markers))]
            if not rooted or any(s.id in done for s, _ in rooted):
                continue  # not this project's language, or checked already (typescript covers javascript)
            with_checker = [(s, roots) for s, roots in rooted if s.checker is not None]
            if not with_checker:
                names = ", ".join(s.id for s, _ in rooted)
                reasons.setdefault(f"{names} {'has' if len(rooted) == 1 else 'have'} no project checker", []).append(lang)
                continue
            for spec, roots in with_checker:
                assert spec.checker is not None
                if find_binary(spec.checker[0], self.sup.search_path) is None:
                    reasons.setdefault(f"{spec.id}'s checker {spec.checker[0]} is not installed", []).append(lang)
                    continue
                done.add(spec.id)
                for root in roots:
                    argv = self._argv(spec, root)
                    if isinstance(argv, str):
                        reasons.setdefault(f"{self._where(root)}: {argv}", []).append(lang)
                        continue
                    outputs.append(await self._check(lang, dataclasses.replace(spec, checker=argv), root, timeout))
                break
        why = "; ".join(f"{', '.join(langs)}: {reason}" for reason, langs in reasons.items())
        if not outputs:
            why = why or ("no language's root marker (pyproject.toml, tsconfig.json, go.mod, …) is at the workspace root "
                          "or in the folders below it")
            raise ToolError(f'diagnostics "*" found no project checker to run ({why}); ask diagnostics file by file instead.',
                            data={"checkers": [], "not_checked": why})
        blocks = []
        for o in outputs:
            counts = f": {_counts_text(o['counts'])}" if o["counts"] else ""
            where = f", in {o['root']}" if o["root"] != "." else ""
            blocks.append(f"$ {o['checker']}  ({o['language']}{where}, {o['status']}){counts}\n{o['output']}")
        if why:
            blocks.append(f"not checked: {why}")
        ran = [o for o in outputs if o["checked"]]
        return ToolResult(ok=bool(ran), text="\n\n".join(blocks), data={"checkers": outputs, "not_checked": why or None})

    def _where(self, root: Path) -> str:
        return self.ctx.relpath(root) + ("/" if root != self.ctx.root else "")

    def _argv(self, spec: ServerSpec, root: Path) -> tuple[str, ...] | str:
        """The checker's command line for `root`, or why it has nothing to check there."""
        assert spec.checker is not None
        if spec.checker[0] == "tsc" and not (root / "tsconfig.json").is_file():
            # tsc without a tsconfig.json prints its help page and exits 0; a jsconfig.json is
            # a tsconfig.json whose allowJs is true
            if (root / "jsconfig.json").is_file():
                return (*spec.checker, "-p", "jsconfig.json", "--allowJs")
            return "no tsconfig.json or jsconfig.json at the root, so tsc has no project to check"
        return spec.checker

    async def _check(self, lang: str, spec: ServerSpec, root: Path, timeout: float) -> dict[str, Any]:
        level = ""
        with tempfile.TemporaryDirectory(prefix="minitools-checker-") as scratch:
            if spec.unconfigured is not None and spec.checker is not None and not _configured(root, spec.unconfigured):
                # no configuration of its own: the checker's standard level, from a file outside the project
                u = spec.unconfigured
                config = Path(scratch) / u.name
                config.write_text(json.dumps({**u.settings, "include": [str(root)],
                                              "executionEnvironments": [{"root": str(root)}]}))
                spec = dataclasses.replace(spec, checker=(*spec.checker, u.flag, str(config)))
                level = ("; the project does not configure it, so it ran at "
                         + ", ".join(f"{k} {v}" for k, v in u.settings.items()))
            seen = _Seen(os.path.basename(spec.checker[0]) if spec.checker else "checker", timeout)
            with progress_from(seen.state):
                result = await self.sup.run_checker(spec, root, timeout, on_output=seen.add)
        name = os.path.basename(result.argv[0])
        output = result.output.strip()
        checked = not result.timed_out and not (result.returncode == 0 and _HELP.search(output[:4000]))
        if result.timed_out:
            status = f"timed out after {timeout:g} s: not checked, not clean"
        elif not checked:
            status = f"exit 0, but it printed its help page: nothing was checked (run {name} yourself to see why)"
        else:
            status = f"exit {result.returncode}{level}"
        counts = checker_counts(name, output) if checked else None
        shown, abridged = abridge(errors_first(relative(output, self.ctx.root)) or "(no output)")
        return {"language": lang, "root": self._where(root), "checker": " ".join([name, *result.argv[1:]]),
                "returncode": result.returncode,
                "timed_out": result.timed_out, "checked": checked, "status": status, "counts": counts,
                "output": shown, "abridged": abridged}


def _configured(root: Path, unconfigured: Unconfigured) -> bool:
    """Whether the project at `root` configures the checker itself."""
    if (root / unconfigured.name).is_file():
        return True
    try:
        text = read_regular(root / "pyproject.toml").decode("utf-8", errors="replace")
    except OSError:  # absent, unreadable, or not a regular file (a FIFO is never opened)
        return False
    # a table header, or a dotted key under [tool] (tomllib is 3.11+; this runs on 3.10 too)
    return any(re.search(rf"^\s*\[{re.escape(section)}[\].]", text, re.MULTILINE) for section in unconfigured.sections)


def relative(output: str, top: Path) -> str:
    """`output` with the workspace root's absolute prefix taken off its paths, as every other
    tool shows them."""
    return output.replace(str(top) + os.sep, "")


_ERROR = re.compile(r"\berror\b", re.IGNORECASE)


def errors_first(output: str) -> str:
    """A checker's report with its error entries (a line naming an error and the indented lines
    that continue it) before the rest, each in its order; a last line that counts the errors
    (the summary) stays last."""
    lines = output.splitlines()
    if not lines:
        return output
    summary = [lines.pop()] if re.search(r"\d+ errors?\b", lines[-1]) else []
    entries: list[list[str]] = []
    for line in lines:
        if entries and line.startswith(("    ", "\t")):
            entries[-1].append(line)  # continues the message above
        else:
            entries.append([line])
    errors = [e for e in entries if _ERROR.search(e[0])]
    rest = [e for e in entries if not _ERROR.search(e[0])]
    return "\n".join([line for e in errors + rest for line in e] + summary)


def abridge(output: str, limit: int = LIMIT, tail: int = TAIL) -> tuple[str, bool]:
    """`output` within `limit` characters: its first lines and its last ones (whole lines),
    with what was left out counted between them."""
    if len(output) <= limit:
        return output, False
    head = output[: limit - tail]
    head = head[: head.rfind("\n")] if "\n" in head else head
    end = output[-tail:]
    end = end[end.find("\n") + 1:] if "\n" in end else end
    middle = output[len(head): len(output) - len(end)]
    gap = f"... ({middle.count(chr(10)) - 1} lines, {len(middle)} characters left out) ..."
    return f"{head}\n{gap}\n{end}", True


def checker_counts(name: str, output: str) -> dict[str, int] | None:
    """The counts a checker reports (pyright's summary line), or counts its problem lines (tsc,
    pyflakes); None for a checker whose output is not known here."""
    if name in ("basedpyright", "pyright"):
        found = _PYRIGHT_SUMMARY.findall(output)
        if found:
            errors, warnings, notes = found[-1]
            return {"errors": int(errors), "warnings": int(warnings), "notes": int(notes)}
        return None
    if name == "tsc":
        return {"errors": len(_TSC_ERROR.findall(output))}
    if name == "pyflakes":
        return {"problems": len(_PYFLAKES_PROBLEM.findall(output))}
    return None


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind if n != 1 else kind.rstrip('s')}" for kind, n in counts.items())


class _Seen:
    """What a running checker has printed so far, for the call's progress: its line count and
    its last line (cut)."""

    def __init__(self, name: str, timeout: float) -> None:
        self.name, self.timeout = name, timeout
        self.started = time.monotonic()
        self.lines = 0
        self.last = b""

    def add(self, chunk: bytes) -> None:
        self.lines += chunk.count(b"\n")
        pieces = [p for p in (self.last + chunk[-1024:]).splitlines() if p.strip()]
        self.last = pieces[-1][-240:] if pieces else self.last

    def state(self) -> ProgressState:
        running = f"{self.name} checking the project for {time.monotonic() - self.started:.0f} s of at most {self.timeout:g} s"
        if not self.lines and not self.last:
            return running, None, None
        last = self.last.decode("utf-8", errors="replace").strip()[:120]
        return f"{running}; {self.lines} lines so far, the last: {last}", None, None
