"""Which files a search looks at: languages by extension, and a walk that honours .gitignore
and .ignore files and skips hidden and dependency folders (the way ripgrep and ast-grep do).

Paths are plain strings here: the walk is on the cold path of every search, and building a
`pathlib.Path` per entry costs more than reading the directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from minitools.match._catalog import EXTENSIONS, LANGUAGE_NAMES
from minitools.match._regex import Regex

__all__ = ["EXTENSIONS", "DEPENDENCY_DIRS", "LANGUAGE_NAMES", "Globs", "glob_regex", "language_for_path", "language_named",
           "walk_files"]

# Folders that hold other people's code, skipped like hidden ones (ripgrep, ast-grep).
DEPENDENCY_DIRS = frozenset({"node_modules", "__pycache__", "bower_components", "site-packages"})
IGNORE_FILES = (".gitignore", ".ignore")


def _suffix(name: str) -> str:
    """`pathlib.PurePath.suffix`, lower-cased, for a plain file name."""
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def language_for_path(path: str | os.PathLike[str]) -> str | None:
    """The language id for a file name, by extension; None when unknown."""
    return EXTENSIONS.get(_suffix(os.path.basename(os.fspath(path))))


def language_named(name: str) -> str:
    """The pack's language id for `name` as a caller wrote it (`TypeScript`, `ts`, `C++`,
    `golang`): lower case, spaces out, other names mapped; a name it does not know, as given
    (lower case), for the caller to refuse with the list of ids."""
    key = "".join(name.split()).lower()
    return LANGUAGE_NAMES.get(key, key)


def glob_regex(glob: str) -> str:
    """A glob (`*`, `?`, `[...]`, `**/`) as a regular expression over `/`-separated paths."""
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = glob.find("]", i)
            if j == -1:
                out.append(re.escape(c))
            else:
                out.append("[" + glob[i + 1 : j].replace("!", "^", 1) + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


class _Ignore:
    """One folder's ignore rules, relative to it: (regex, negated, dir_only)."""

    def __init__(self, base: str, lines: Iterable[str]) -> None:
        self.prefix = base.rstrip(os.sep) + os.sep
        self.rules: list[tuple[Regex, bool, bool]] = []
        texts: list[tuple[str, bool, bool]] = []
        for raw in lines:
            line = raw.rstrip("\n").rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            line = line.lstrip("/")
            rx = glob_regex(line)
            rx = f"^{rx}$" if anchored else f"^(?:.*/)?{rx}$"
            # a glob's `*`s are repetitions a backtracking match can take exponential time over
            # (a hostile `*a*a*a*a*a*a*a*a*a*a*b` hung a walk): linear beyond three of them; a
            # line too long to match so (thousands of `*`) is left out, as no file is named so
            try:
                self.rules.append((Regex(re.compile(rx), backtracking=3), negated, dir_only))
            except re.error:
                continue
            texts.append((rx, negated, dir_only))
        # the last rule that matches decides: consecutive rules with the same verdict are one
        # alternation, searched once, and the runs are tried from the last (a path a hundred
        # globs do not name costs a few searches, not a hundred)
        self.runs: list[tuple[Regex, bool, bool]] = []
        start = 0
        for k in range(1, len(texts) + 1):
            if k == len(texts) or texts[k][1:] != texts[start][1:]:
                self.runs += _run_of(texts[start:k], self.rules[start:k])
                start = k
        self.runs.reverse()

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True ignored, False re-included, None no opinion."""
        if not path.startswith(self.prefix):
            return None
        rel = path[len(self.prefix) :]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        for rx, negated, dir_only in self.runs:
            if dir_only and not is_dir:
                continue
            if rx.search(rel):  # anchored at both ends
                return not negated
        return None


def _run_of(texts: list[tuple[str, bool, bool]], rules: list[tuple[Regex, bool, bool]]) -> list[tuple[Regex, bool, bool]]:
    """A run of rules with one verdict as one alternation; the rules themselves where the
    alternation cannot be searched in linear time (each of them can)."""
    if len(texts) < 2:
        return rules
    try:
        joined = Regex(re.compile("|".join(f"(?:{rx})" for rx, _, _ in texts)), backtracking=3)
    except re.error:
        return rules
    return [(joined, texts[0][1], texts[0][2])]


def _read_ignore(directory: str, names: Iterable[str] = IGNORE_FILES) -> _Ignore | None:
    rules: list[str] = []
    for name in names:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                rules.extend(f.read().splitlines())
        except OSError:
            pass
    return _Ignore(directory, rules) if rules else None


class Globs:
    """Include and exclude globs (`--globs`, gitignore syntax, relative to a base folder; `!`
    excludes; the last glob that matches decides) that override every other rule of the walk,
    as ripgrep's and ast-grep's do: a file an include glob names is searched even when ignored,
    and once any include glob is given, a file none names is not. Folders are only excluded."""

    def __init__(self, base: str, globs: Iterable[str]) -> None:
        self.globs = list(globs)
        # _Ignore's verdict "ignored" is read here as "named by an include glob"
        self._rules = _Ignore(base, self.globs)
        self._includes = any(not g.startswith("!") for g in self.globs)

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True searched, False skipped, None left to the ignore rules."""
        verdict = self._rules.decide(path, is_dir)
        if verdict is None and self._includes and not is_dir:
            return False
        return verdict


def _is_ignored(stack: list[_Ignore], path: str, is_dir: bool) -> bool:
    verdict = False
    for ign in stack:
        v = ign.decide(path, is_dir)
        if v is not None:
            verdict = v
    return verdict


def _repository_folders(root: str) -> list[str]:
    """The folders above `root` up to the top of the git repository it lies in (outermost
    first), whose ignore files apply below them as git's do; none outside a repository."""
    folders: list[str] = []
    d = root
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return list(reversed(folders)) if d != root else []
        parent = os.path.dirname(d)
        if parent == d:
            return []
        d = parent
        folders.append(d)


def walk_files(
    root: str, start: str, language: str | None, *, parents: bool = True, globs: Globs | None = None
) -> list[str]:
    """Files under `start` (a real path inside the real path `root`) in sorted order,
    honouring ignore files from `root` down and, with `parents`, those of the folders above
    `root` within its git repository (as ripgrep and ast-grep do); skipping hidden and
    dependency folders; `globs` override all of that. Only `language`'s extensions, or with
    None those of every language `EXTENSIONS` knows."""
    wanted = set(EXTENSIONS) if language is None else {ext for ext, lang in EXTENSIONS.items() if lang == language}
    stack: list[_Ignore] = []
    # the ignore files of the folders between root and start apply too
    above = []
    d = os.path.dirname(start)
    while start != root and (d == root or d.startswith(root.rstrip(os.sep) + os.sep)):
        above.append(d)
        if d == root:
            break
        d = os.path.dirname(d)
    for folder in [*(_repository_folders(root) if parents else []), *reversed(above)]:
        ign = _read_ignore(folder)
        if ign:
            stack.append(ign)
    out: list[str] = []

    def visit(directory: str, stack: list[_Ignore]) -> None:
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            return
        present = [e.name for e in entries if e.name in IGNORE_FILES]
        if present:
            ign = _read_ignore(directory, present)
            if ign:
                stack = [*stack, ign]
        for entry in entries:
            name = entry.name
            if name[0] == "." and globs is None:
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            chosen = None if globs is None else globs.decide(entry.path, is_dir)
            if chosen is False or (chosen is None and name[0] == "."):
                continue
            if is_dir:
                if chosen is None and (name in DEPENDENCY_DIRS or (stack and _is_ignored(stack, entry.path, True))):
                    continue
                visit(entry.path, stack)
            elif _suffix(name) in wanted and entry.is_file(follow_symlinks=False):
                if chosen is None and stack and _is_ignored(stack, entry.path, False):
                    continue
                out.append(entry.path)

    visit(start, stack)
    return out
