"""`minitools ast-grep scan [PATH…]`: run ast-grep rule files over a project (docs/tools.md,
"Rules"). Rules come from `--rule FILE`, `--inline-rules TEXT`, or the project's sgconfig.yml
(`-c`, else the nearest one in the current folder or above). Each file is parsed once for
all its language's rules. Exit codes as ast-grep's: 1 when a finding has error severity,
0 otherwise, 2 for a rule or usage error (nothing is run).
"""

from __future__ import annotations

import argparse
import bisect
import functools
import json
import os
import sys
from pathlib import Path
from typing import Any

from minitools.commands._common import id_filter
from minitools.commands.ast_grep import JSON_STYLES, _JsonStyle

NAME = "ast-grep scan"
HELP = "run ast-grep rule files (YAML or JSON) over files: findings with their rule, severity and message"
INTERMIXED = True
EXIT_CLEAN, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2

# ast-grep's names for the languages, as its JSON shows them
DISPLAY = {
    "bash": "Bash", "c": "C", "cpp": "Cpp", "csharp": "CSharp", "css": "Css", "elixir": "Elixir", "go": "Go",
    "haskell": "Haskell", "html": "Html", "java": "Java", "javascript": "JavaScript", "json": "Json",
    "kotlin": "Kotlin", "lua": "Lua", "nix": "Nix", "php": "Php", "python": "Python", "ruby": "Ruby",
    "rust": "Rust", "scala": "Scala", "solidity": "Solidity", "swift": "Swift", "tsx": "Tsx",
    "typescript": "TypeScript", "yaml": "Yaml",
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--config", "-c", metavar="SGCONFIG", help="the project's sgconfig.yml (ruleDirs, utilDirs)")
    parser.add_argument("--rule", "-r", metavar="FILE", help="run only the rules of FILE (YAML or JSON)")
    parser.add_argument("--inline-rules", metavar="TEXT", help="run the rules written in TEXT (YAML or JSON; --- between rules)")
    parser.add_argument("--filter", metavar="REGEX", help="run only the rules whose id matches REGEX")
    parser.add_argument("--json", *(f"--json={s}" for s in JSON_STYLES), nargs=0, action=_JsonStyle, default=None,
                        help="print the findings as JSON in ast-grep's shape (ruleId, severity, message, ...)")
    parser.add_argument("--update-all", "-U", action="store_true",
                        help="apply every fix of every finding: all files or none")
    parser.add_argument("--root", default=None, help="workspace root; paths must lie inside it (default: the current directory)")


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"minitools ast-grep scan: {message}", file=sys.stderr)
    return code


def _find_config(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        for name in ("sgconfig.yml", "sgconfig.yaml"):
            if (folder / name).is_file():
                return folder / name
    return None


def _root_for(here: Path, paths: list[str]) -> Path:
    """The search root without --root: the working folder, or, where a path lies outside it
    (`scan ../other`, as ast-grep takes it), the folder they all share with it."""
    real = [os.path.realpath(p) for p in paths]
    inside = str(here.resolve())
    if all(r == inside or r.startswith(inside.rstrip(os.sep) + os.sep) for r in real):
        return here
    return Path(os.path.commonpath([inside, *real]))


def load_rules(
    args: argparse.Namespace, languages: frozenset[str] | None = None
) -> tuple[list[Any], Path | None, list[tuple[str, str]]] | int:
    """(rules, project root or None, rule files left out) or an exit code after a message.
    With `languages` (those of the files to scan), a project's one-rule files of other
    languages are not read."""
    from minitools.rules import RuleError, load_project, load_rule_file, load_rule_text

    sources = [flag for flag, value in (("--rule", args.rule), ("--inline-rules", args.inline_rules)) if value]
    if len(sources) > 1:
        return _fail("give the rules once: --rule FILE or --inline-rules TEXT")
    project = None
    utils: dict[str, Any] = {}
    config_path = Path(args.config) if args.config else (None if sources else _find_config(Path.cwd()))
    try:
        if config_path is not None:
            if not config_path.is_file():
                return _fail(f'no project configuration "{config_path}"; pass -c sgconfig.yml, or --rule FILE')
            project = load_project(config_path, languages)
            utils = project.utils
        if args.rule:
            rules = load_rule_file(Path(args.rule), utils)
        elif args.inline_rules:
            rules = load_rule_text(args.inline_rules, "--inline-rules", utils)
        elif project is not None:
            rules = project.rules
        else:
            return _fail("no rules: pass --rule FILE, --inline-rules TEXT, or -c sgconfig.yml (none found here or above)")
    except RuleError as exc:
        return _fail(f"{exc}; nothing was run")
    wanted = id_filter(args.filter)
    if isinstance(wanted, str):
        return _fail(wanted)
    if wanted is not None:
        rules = [r for r in rules if wanted.search(r.id)]
    errors = project.errors if project is not None and not sources else []
    return rules, (project.root if project is not None else None), errors


def main(args: argparse.Namespace) -> int:
    from minitools.match import PathError, Searcher, language_for_path
    from minitools.rules import Finding, RuleSet, unused_config

    here = Path.cwd()
    root = Path(args.root) if args.root else _root_for(here, args.paths)
    searcher = Searcher(root, one_shot=True)
    try:
        files = searcher.collect([Path(os.path.abspath(p)) for p in args.paths] or None, None)
    except PathError as exc:
        return _fail(str(exc), EXIT_ERRORS)
    finally:
        searcher.close()
    languages = frozenset(filter(None, (language_for_path(f) for f in files)))
    loaded = load_rules(args, languages)
    if isinstance(loaded, int):
        return loaded
    rules, project_root, errors = loaded
    for path, why in errors:
        print(f"minitools ast-grep scan: skipping the rules of {path}: {why.removeprefix(path).lstrip('.: ')}", file=sys.stderr)
    ruleset = RuleSet(rules)
    base = str((project_root or searcher.root).resolve()).rstrip(os.sep) + os.sep
    folders: dict[str, str] = {}  # each folder's real path, worked out once
    todo: dict[str, tuple[str, str, str]] = {}  # real path -> (shown, relative to the project, language)
    for real in files:
        language = language_for_path(real)
        if language is None:
            continue
        # as ast-grep shows a path outside the working folder: from here (`../other/b.py`)
        shown = searcher.display(real) if root == here else os.path.relpath(real, here).replace(os.sep, "/")
        resolved = _resolved(real, folders)
        relative = resolved[len(base):].replace(os.sep, "/") if resolved.startswith(base) else shown
        if ruleset.for_file(language, relative):
            todo[real] = (shown, relative, language)
    # ast-grep reports unused suppressions in a whole project's scan only (no -r, --inline-rules, --filter)
    whole = args.rule is None and args.inline_rules is None and args.filter is None
    outcome = _scan_files(searcher, ruleset, todo, unused=whole)
    for note in outcome.skipped:
        print(f"minitools ast-grep scan: {note}", file=sys.stderr)
    findings = []
    sources: dict[str, bytes] = {}
    for shown, _relative, language in todo.values():
        got = outcome.per_file.get(shown)
        if got:
            sources[shown], found = got
            findings += [(shown, Finding(ruleset.configs[k] if k >= 0 else unused_config(language), *rest))
                         for k, *rest in found]
    if args.update_all:
        return _update_all(searcher, findings, sources)
    _print(findings, sources, args.json)
    return EXIT_ERRORS if any(f.config.severity == "error" for _, f in findings) else EXIT_CLEAN


def _resolved(path: str, folders: dict[str, str]) -> str:
    """`os.path.realpath(path)`, the folder's part taken from `folders` (filled as it goes): a
    scan's thousands of files share a few hundred folders."""
    folder, name = os.path.split(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder)
    joined = os.path.join(real, name)
    return os.path.realpath(joined) if os.path.islink(joined) else joined


def _scan_files(searcher: Any, ruleset: Any, todo: dict[str, tuple[str, str, str]], *, unused: bool) -> Any:
    """The findings per file (display path -> (source, [(rule index, match, fix)])), the files
    shared out over forked copies of this process when there are enough of them (each copy
    has the rules already read), else in this one. `unused`: with a finding for each suppression
    comment that silenced none."""
    from minitools.match import Budget, FilesOutcome, UnsafeSource, fork_available, forked_search

    index = {id(c): k for k, c in enumerate(ruleset.configs)}

    def scan(chunk: Any) -> FilesOutcome:
        per_file: dict[str, Any] = {}
        notes: dict[str, int] = {}  # what to say on stderr, each once
        # no time limit, as ast-grep has none; the memory bound keeps a rule's transformations
        # from building gigabytes (match.charge)
        budget = Budget(seconds=None)
        for real in chunk:
            shown, relative, language = todo[real]
            source = searcher.read_source(real)
            if source is None:
                continue
            unused_found: list[Any] | None = [] if unused else None
            try:
                found = ruleset.scan_source(source, language, relative, budget.start(), unused=unused_found)
            except UnsafeSource as exc:
                notes[f"skipped {shown} ({exc})"] = 1
                continue
            if budget.stopped:
                notes[f"{shown}: {budget.stopped}; the findings before are shown"] = 1
            found += unused_found or []  # -1: the unused-suppression hint (rules.unused_config)
            if found:
                per_file[shown] = (source, [(index.get(id(f.config), -1), f.match, f.fix, dict(f.transformed), f.secondary)
                                            for f in found])
        return FilesOutcome(per_file, notes, len(chunk))

    files = list(todo)
    if len(files) >= FORK_MIN_FILES and searcher.workers > 1 and fork_available():
        sizes = [os.path.getsize(f) for f in files]
        outcome = forked_search(scan, files, sizes, searcher.workers)
        if outcome is not None:
            return outcome
    return scan(files)


FORK_MIN_FILES = 16


def _print(findings: list[tuple[str, Any]], sources: dict[str, bytes], style: str | None) -> None:
    if style is not None:
        items = [finding_json(shown, f, sources[shown]) for shown, f in findings]
        # stream and compact as ast-grep writes them, byte for byte (no spaces)
        if style == "stream":
            text = "".join(json.dumps(i, ensure_ascii=False, separators=(",", ":")) + "\n" for i in items)
        elif style == "pretty":
            text = json.dumps(items, ensure_ascii=False, indent=2) + "\n"
        else:
            text = json.dumps(items, ensure_ascii=False, separators=(",", ":")) + "\n"
        sys.stdout.write(text)
        return
    out = []
    for shown, f in findings:
        m = f.match
        first = m.text.splitlines()[0] if m.text else ""
        message = f.message
        out.append(f"{shown}:{m.start[0]}:{m.start[1]}: {f.config.severity}[{f.config.id}]: {message}\n    {first}\n")
    counts: dict[str, int] = {}
    for _, f in findings:
        counts[f.config.severity] = counts.get(f.config.severity, 0) + 1
    sys.stdout.write("".join(out))
    if findings:
        summary = ", ".join(f"{n} {sev}" for sev, n in counts.items())
        print(f"{len(findings)} findings ({summary})", file=sys.stderr)


def _range(source: bytes, start: int, end: int) -> dict[str, Any]:
    starts = _line_starts(source)

    def point(byte: int) -> dict[str, int]:
        line = bisect.bisect_right(starts, byte) - 1
        return {"line": line, "column": len(source[starts[line] : byte].decode("utf-8", "replace"))}

    return {"byteOffset": {"start": start, "end": end}, "start": point(start), "end": point(end)}


@functools.lru_cache(maxsize=8)
def _line_starts(source: bytes) -> list[int]:
    """Where each line of a file starts (a file's findings are printed together: one count of
    its lines, not one per position; a bytes object keeps its hash, so the look-up is cheap)."""
    starts = [0]
    at = source.find(b"\n")
    while at != -1:
        starts.append(at + 1)
        at = source.find(b"\n", at + 1)
    return starts


def finding_json(shown: str, f: Any, source: bytes) -> dict[str, Any]:
    """One finding in the shape of ast-grep's `scan --json` (0-based lines and columns), its
    keys in ast-grep's order."""
    m = f.match
    line_start = source.rfind(b"\n", 0, m.start_byte) + 1
    line_end = source.find(b"\n", m.end_byte)
    line_end = len(source) if line_end < 0 else line_end
    single = {k: _node_json(source, c.start_byte, c.end_byte) for k, c in m.metavars.items() if k not in m.multi}
    multi = {k: [_node_json(source, c.start_byte, c.end_byte) for c in cs] for k, cs in m.multi.items()}
    if f.secondary:  # ast-grep keeps the nodes its relational rules found beside the captures
        multi["secondary"] = [_node_json(source, start, end) for start, end in f.secondary]
    out: dict[str, Any] = {
        "text": m.text,
        "range": _range(source, m.start_byte, m.end_byte),
        "file": shown,
        "lines": source[line_start:line_end].decode("utf-8", "replace"),
        "charCount": {"leading": _chars(source, line_start, m.start_byte), "trailing": _chars(source, m.end_byte, line_end)},
    }
    if f.fix is not None:
        start, end, text = f.fix
        out["replacement"] = text
        out["replacementOffsets"] = {"start": start, "end": end}
    out["language"] = DISPLAY.get(m.language, m.language)
    if single or multi:  # left out when nothing is captured, as ast-grep does
        out["metaVariables"] = {"single": single, "multi": multi, "transformed": dict(f.transformed)}
    out.update({
        "ruleId": f.config.id,
        "severity": f.config.severity,
        "note": f.config.note or None,
        "message": f.message,
        "labels": _labels(f, source),
    })
    return out


def _chars(source: bytes, start: int, end: int) -> int:
    return len(source[start:end].decode("utf-8", "replace"))


def _node_json(source: bytes, start: int, end: int) -> dict[str, Any]:
    return {"text": source[start:end].decode("utf-8", "replace"), "range": _range(source, start, end)}


def _labels(f: Any, source: bytes) -> list[dict[str, Any]]:
    """The finding's labels as ast-grep's JSON has them (`Finding.labels`)."""
    out = []
    for start, end, style, message in f.labels:
        shown = _node_json(source, start, end)
        if message is not None:
            shown["message"] = message
        shown["style"] = style
        out.append(shown)
    return out


def _update_all(searcher: Any, findings: list[tuple[str, Any]], sources: dict[str, bytes]) -> int:
    """--update-all: every fix of every finding, outer ones first (an inner fix inside an
    outer one is left out, and counted), written all or none."""
    from minitools.commands._write_staged import write_all_or_none
    from minitools.edits import stage_fixes, unified_diff

    staged, skipped, broken = stage_fixes(searcher.root, findings, sources)
    if not staged:
        print("no finding has a fix", file=sys.stderr)
        return EXIT_CLEAN
    sys.stdout.write(unified_diff(staged))
    for b in broken:
        print(f"warning: {b.file} no longer parses after the fixes (it parsed before)", file=sys.stderr)
    note = f" ({skipped} inside another fix left out)" if skipped else ""
    failed = write_all_or_none(staged, searcher.root, noun="fixes", note=note)
    return EXIT_CLEAN if failed is None else _fail(failed, EXIT_ERRORS)


if __name__ == "__main__":
    from minitools.commands import run_command, standalone_parser

    sys.exit(run_command(main, standalone_parser(sys.modules[__name__]).parse_intermixed_args()))
