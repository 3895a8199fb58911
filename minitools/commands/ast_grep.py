"""`minitools ast-grep PATTERN [PATH…]`: structural search for people and scripts, with the
`ast-grep` CLI's flags and exit codes (0 a match, 1 none, 2 usage, 8 unparseable pattern).

Without `--lang` each file is searched in the language its extension names, the pattern
compiled once per language; a language the pattern does not parse in is skipped with a note.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from minitools.commands._grep_output import Printer, Style, use_color
from minitools.match import (
    DEFAULT_MAX_FILE_BYTES,
    DEFAULT_MEMORY_BYTES,
    DEFAULT_SECONDS,
    GrammarError,
    LanguagePlan,
    PathError,
    Pattern,
    PatternError,
    Searcher,
    UnknownLanguage,
    UnsafeSource,
    compile_pattern,
    has_grammar,
    language_named,
    no_files_note,
    one_language,
    plan_languages,
    search_languages,
)

if TYPE_CHECKING:
    pass

NAME = "ast-grep"
HELP = "structural search: find code by shape, with $NAME / $$$NAME / $_ metavariables"
INTERMIXED = True  # the CLI parses options between the paths
# the usage line errors print (the options are listed by --help): written out, argparse would
# format every option into it on each start to keep it for an error that rarely comes
USAGE = "%(prog)s [OPTIONS] PATTERN [PATH ...]\n       %(prog)s [OPTIONS] (-p PATTERN | -f FILE) [PATH ...]"
EXIT_MATCH, EXIT_NONE, EXIT_USAGE, EXIT_PATTERN = 0, 1, 2, 8
EXIT_PATH = 1  # a path that cannot be searched (missing, a symlink loop): ast-grep's code for it
JSON_STYLES = ("pretty", "stream", "compact")


class _JsonStyle(argparse.Action):
    """`--json` (a JSON list on one line) or `--json=STYLE`; only the `=` form takes a style,
    as in ast-grep, so `--json src/` still searches src/."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        style = (option_string or "").partition("=")[2] or "compact"
        setattr(namespace, self.dest, style)


def _non_negative(convert: Callable[[str], float], noun: str) -> Callable[[str], Any]:
    """An argparse type: `convert` of the text, refused (naming `noun`) when it fails or is negative."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {noun}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{text!r}: the {noun} cannot be negative")
        return value

    return parse


_count = _non_negative(int, "number of lines")
_seconds = _non_negative(float, "number of seconds")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _size(text: str) -> int:
    """A size in bytes, with an optional K, M or G suffix (powers of 1024); 0 for no bound."""
    unit = text[-1:].upper() if text[-1:].upper() in ("K", "M", "G") else ""
    number = text[:-1] if unit else text
    try:
        value = float(number) * _UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write bytes, or a number with K, M or G (4M)") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a size cannot be negative")
    return int(value)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pattern", nargs="?", metavar="PATTERN",
                        help="a code fragment with metavariables, e.g. 'print($A)' (with -p or -f: the first PATH)")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--pattern", "-p", dest="pattern_option", metavar="PATTERN",
                        help="the pattern, as an option (then every positional is a PATH)")
    parser.add_argument("--pattern-file", "-f", metavar="FILE",
                        help="read the pattern from FILE (- for standard input); every positional is a PATH")
    parser.add_argument("--lang", "-l", help="grammar id; default: each file's, from its extension")
    parser.add_argument("--globs", "-g", action="append", default=[], metavar="GLOB",
                        help="search only the files GLOB names, or with !GLOB skip them (gitignore syntax, "
                        "relative to the root; repeatable, the last match wins; overrides the ignore rules; -g as in ripgrep)")
    parser.add_argument("-A", "--after", type=_count, metavar="NUM", help="show NUM lines after each match")
    parser.add_argument("-B", "--before", type=_count, metavar="NUM", help="show NUM lines before each match")
    parser.add_argument("-C", "--context", type=_count, metavar="NUM", help="show NUM lines around each match")
    parser.add_argument("--color", "--colour", default="auto", choices=["auto", "always", "ansi", "never"],
                        help="colour the matches: auto (a terminal, unless NO_COLOR is set), always, never")
    parser.add_argument("--files-with-matches", action="store_true",
                        help="print only the paths of the files with a match")
    parser.add_argument("--json", *(f"--json={s}" for s in JSON_STYLES), nargs=0, action=_JsonStyle, default=None,
                        help="print the matches as JSON: a list on one line; =pretty indented; "
                        "=stream one object a line; =compact the same as bare --json")
    parser.add_argument("--root", default=None,
                        help="workspace root; paths must lie inside it (default: the current directory, "
                        "or the paths' common folder when they lie outside it)")
    parser.add_argument("--no-ignore", action="append", default=[], choices=["parent"], metavar="parent",
                        help="parent: do not apply the ignore files of the folders above the root")
    parser.add_argument("--max-file-size", type=_size, default=DEFAULT_MAX_FILE_BYTES, metavar="SIZE",
                        help="skip files larger than SIZE (bytes, or with K, M, G; default 4M), counted as oversized")
    parser.add_argument("--time-budget", type=_seconds, default=DEFAULT_SECONDS, metavar="SECONDS",
                        help=f"stop after SECONDS, with what was found and a note (default {DEFAULT_SECONDS:g}; 0: no bound)")
    parser.add_argument("--memory-budget", type=_size, default=DEFAULT_MEMORY_BYTES, metavar="SIZE",
                        help="stop once the search has grown this process by SIZE, with what was found and a note "
                        "(default 1G; 0: no bound)")
    parser.add_argument("--rewrite", "-r", metavar="TEMPLATE",
                        help="replace each match with TEMPLATE ($NAME / $$$NAME substituted); prints the diff")
    parser.add_argument("--strictness", choices=["cst", "smart", "ast", "relaxed", "signature"], default="smart",
                        help="which nodes may differ: smart (default: the code's unwritten tokens and comments), "
                        "ast (also the pattern's unnamed tokens), relaxed (and comments), signature (and the text of "
                        "named leaves), cst (nothing)")
    parser.add_argument("--debug-query", action="store_true",
                        help="print how the pattern is read (each rung's tree, its node kinds, the metavariables) to stderr")
    parser.add_argument("--apply", action="store_true",
                        help="with --rewrite: write the files (all or none) instead of only printing the diff")


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"minitools ast-grep: {message}", file=sys.stderr)
    return code


def _read_pattern(args: argparse.Namespace) -> str | int:
    """The pattern source (and args.paths completed), or an exit code after a message."""
    given = [name for name, value in (("-p", args.pattern_option), ("-f", args.pattern_file)) if value is not None]
    if len(given) > 1:
        return _fail("give the pattern once: -p PATTERN or -f FILE, not both")
    if given:
        args.paths = ([args.pattern] if args.pattern is not None else []) + list(args.paths)
    if args.pattern_option is not None:
        source: str = args.pattern_option
    elif args.pattern_file is not None:
        try:
            if args.pattern_file == "-":
                source = sys.stdin.read()
            else:
                with open(args.pattern_file, encoding="utf-8") as fh:
                    source = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            return _fail(f"cannot read the pattern file {args.pattern_file!r}: {exc}")
        source = source.rstrip("\r\n")
    elif args.pattern is not None:
        source = args.pattern
    else:
        return _fail("no pattern: give one, e.g. minitools ast-grep 'print($A)' src/, or -f FILE")
    if not source.strip():
        where = f" (from {args.pattern_file!r})" if args.pattern_file is not None else ""
        return _fail(f"the pattern{where} is empty; write the code to find, e.g. 'print($A)'")
    return source


def _style(args: argparse.Namespace) -> Style | int:
    if args.context is not None and (args.after is not None or args.before is not None):
        return _fail("-C/--context cannot be used with -A/--after or -B/--before; give -C NUM, or -A and -B")
    if args.files_with_matches and (args.json is not None or args.rewrite is not None):
        other = "--json" if args.json is not None else "--rewrite"
        return _fail(f"--files-with-matches cannot be used with {other}")
    if args.apply and args.rewrite is None:
        return _fail("--apply needs --rewrite TEMPLATE")
    before = args.context if args.context is not None else args.before
    after = args.context if args.context is not None else args.after
    if before is not None or after is not None:  # one given: the other is 0
        before, after = before or 0, after or 0
    return Style(args.json, args.files_with_matches, before, after, use_color(args.color))


def _resolved(raw: str) -> str:
    """`raw` as a real path (one that is not there stays as named, for the search to say so);
    PathError naming it when it cannot be resolved (a symlink loop, a NUL byte)."""
    try:
        real = os.path.realpath(raw)
        os.stat(real)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathError(f'cannot search "{raw}": it is a symlink loop') from None
    except ValueError as exc:
        raise PathError(f'cannot search "{raw}": {exc}') from None
    return real


def _root_and_paths(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The search root and the real paths to search (strings: pathlib stays unloaded)."""
    paths = [_resolved(p) for p in args.paths]
    if args.root is not None:
        root = _resolved(args.root)
    else:
        # A write stays where its paths are named: the folder they share as written, so a
        # symlink among them that leads elsewhere is refused by the search (as scan -U does).
        # A search may follow it: the root is then the folder its real paths share.
        named = [os.path.abspath(p) for p in args.paths] if args.apply else paths
        root = _resolved(os.getcwd())
        if named and not all(_is_within(p, root) for p in named):
            common = os.path.commonpath(named)
            root = _resolved(common if os.path.isdir(common) else os.path.dirname(common))
    for raw, real in zip(args.paths, paths):
        if args.apply and not _is_within(real, root):
            raise PathError(f'--apply will not write through "{raw}": it leads to {real}, outside the root {root}; '
                            f'name that file itself to rewrite it')
    return root, paths or [root]


def _is_within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _compile_one(source: str, language: str) -> Pattern | int:
    if not has_grammar(language):  # not available_languages(): that lists the whole pack
        return _fail(f"unknown language {language!r}; see `minitools grammars list`")
    try:
        return compile_pattern(source, language)
    except PatternError as exc:
        return _fail(str(exc), EXIT_PATTERN)
    except GrammarError as exc:
        return _fail(str(exc))


def _plan_per_file(source: str, searcher: Searcher, paths: list[str]) -> LanguagePlan | int:
    """Without --lang: each file in the language of its extension (languages the pattern does
    not parse in are skipped with a note). An exit code when it parses in none."""
    try:
        plan = plan_languages(source, searcher, paths)
    except PatternError as exc:
        return _fail(str(exc), EXIT_PATTERN)
    except UnknownLanguage as exc:
        return _fail(f"{exc}; pass --lang L (see `minitools grammars list`)")
    except PathError as exc:
        return _fail(str(exc), EXIT_PATH)
    from minitools.text import plural

    for skip in plan.skipped:
        print(f"minitools ast-grep: skipping {plural(skip.files, f'{skip.language} file')}: {skip.reason}", file=sys.stderr)
    if plan.files and not plan.searches:
        return EXIT_PATTERN if any(skip.is_pattern for skip in plan.skipped) else EXIT_USAGE
    return plan


def main(args: argparse.Namespace) -> int:
    source = _read_pattern(args)
    if isinstance(source, int):
        return source
    style = _style(args)
    if isinstance(style, int):
        return style
    try:
        root, paths = _root_and_paths(args)
    except PathError as exc:
        return _fail(str(exc), EXIT_PATH)
    single: Pattern | None = None
    if args.lang:
        args.lang = language_named(args.lang)  # `ts`, `TypeScript`, `c++` too, as ast-grep takes them
        compiled = _compile_one(source, args.lang)
        if isinstance(compiled, int):
            return compiled
        single = compiled
    searcher = Searcher(root, one_shot=True, ignore_parents="parent" not in args.no_ignore, globs=args.globs,
                        max_file_bytes=args.max_file_size, max_seconds=args.time_budget or None,
                        max_memory_bytes=args.memory_budget or None)
    printer = Printer(style, root, sys.stdout.write)
    try:
        if single is not None:
            plan = one_language(single)
        else:
            found = _plan_per_file(source, searcher, paths)
            if isinstance(found, int):
                return found
            plan = found
        if args.debug_query:
            from minitools.match import explain_pattern

            for pattern, _files in plan.searches:
                print(explain_pattern(pattern), file=sys.stderr)
        if args.strictness != "smart":
            from minitools.commands._ast_grep_strictness import strict_search

            return strict_search(searcher, plan, source, args.strictness, paths, printer, rewrite=args.rewrite,
                                 apply=args.apply, fail=_fail)
        if args.rewrite is not None:
            return _rewrite(searcher, plan, args.rewrite, paths, apply=args.apply)
        # each file's matches printed as they come: memory for one file's, not for them all
        result = search_languages(searcher, plan, paths, on_file=printer.file)
    except PathError as exc:
        return _fail(str(exc), EXIT_PATH)
    finally:
        searcher.close()
    printer.close()
    from minitools.text import plural

    deep = result.skipped.get(UnsafeSource.skip_reason)
    if deep:  # the other skips (binary, oversized) are silent, as in the ast-grep CLI; this one is ours
        print(f"minitools ast-grep: skipped {plural(deep, 'file')} {UnsafeSource.skip_reason}", file=sys.stderr)
    if single is not None and result.files_searched == 0 and not result.stopped:
        print(f"minitools ast-grep: {no_files_note(single.language, ' '.join(args.paths) or '.')}", file=sys.stderr)
    if result.stopped:
        flag = "--time-budget" if result.stopped.endswith(" s") else "--memory-budget"
        print(f"minitools ast-grep: {result.stopped}: narrow the path or the pattern, or raise {flag}", file=sys.stderr)
    return EXIT_MATCH if printer.matched else EXIT_NONE


def _rewrite(searcher: Searcher, plan: LanguagePlan, template_source: str,
             paths: list[str], *, apply: bool) -> int:
    """--rewrite: print the unified diff; with --apply write every file or none."""
    from minitools.commands._write_staged import write_all_or_none
    from minitools.edits import RewriteStopped, propose_rewrite, unified_diff
    from minitools.match import Template, TemplateError, bound_plan

    try:
        template = Template.parse(template_source)
        plan = bound_plan(plan, template)
    except TemplateError as exc:
        return _fail(str(exc))
    try:
        staged, _inner, _data, broken, _vanished = propose_rewrite(searcher, plan, template, paths)
    except RewriteStopped as exc:
        return _fail(str(exc))
    for b in broken:
        print(f"warning: {b.file}:{b.line} no longer parses after this rewrite", file=sys.stderr)
    if not staged:
        return EXIT_NONE
    sys.stdout.write(unified_diff(staged))
    failed = write_all_or_none(staged, searcher.root) if apply else None
    return EXIT_MATCH if failed is None else _fail(failed)


if __name__ == "__main__":
    from minitools.commands import leave, run_command, standalone_parser

    leave(run_command(main, standalone_parser(sys.modules[__name__]).parse_intermixed_args()))
