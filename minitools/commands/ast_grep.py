"""`minitools ast-grep PATTERN [PATH…] --lang L [--json]`: structural search for people and
scripts, with the `ast-grep` CLI's exit codes (0 a match, 1 none, 2 usage, 8 unparseable)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from minitools.match import (
    GrammarError,
    PathError,
    Pattern,
    PatternError,
    Searcher,
    available_languages,
    compile_pattern,
    language_for_path,
)

if TYPE_CHECKING:
    from minitools.tools._staging import StagedFile

NAME = "ast-grep"
HELP = "structural search: find code by shape, with $NAME / $$$NAME / $_ metavariables"
INTERMIXED = True  # the CLI parses options between the paths
EXIT_MATCH, EXIT_NONE, EXIT_USAGE, EXIT_PATTERN = 0, 1, 2, 8


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pattern", help="a code fragment with metavariables, e.g. 'print($A)'")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--lang", "-l", help="grammar id; inferred from a single file's extension")
    parser.add_argument("--json", action="store_true", help="print the matches as a JSON list")
    parser.add_argument("--root", default=None,
                        help="workspace root; paths must lie inside it (default: the current directory, "
                        "or the paths' common folder when they lie outside it)")
    parser.add_argument("--no-ignore", action="append", default=[], choices=["parent"], metavar="parent",
                        help="parent: do not apply the ignore files of the folders above the root")
    parser.add_argument("--rewrite", "-r", metavar="TEMPLATE",
                        help="replace each match with TEMPLATE ($NAME / $$$NAME substituted); prints the diff")
    parser.add_argument("--apply", action="store_true",
                        help="with --rewrite: write the files (all or none) instead of only printing the diff")


def main(args: argparse.Namespace) -> int:
    paths = [Path(p).resolve() for p in args.paths]
    if args.root is not None:
        root = Path(args.root).resolve()
    else:
        root = Path.cwd().resolve()
        if paths and not all(p == root or root in p.parents for p in paths):
            common = Path(os.path.commonpath(paths))
            root = common if common.is_dir() else common.parent
    paths = paths or [root]
    language = args.lang
    if not language and len(paths) == 1 and paths[0].is_file():
        language = language_for_path(paths[0])
    if not language:
        print(f'minitools ast-grep: no --lang given and none can be inferred from {args.paths or ["."]}', file=sys.stderr)
        return EXIT_USAGE
    if language not in available_languages():
        print(f"minitools ast-grep: unknown language {language!r}; see `minitools grammars list`", file=sys.stderr)
        return EXIT_USAGE
    try:
        pattern = compile_pattern(args.pattern, language)
    except PatternError as exc:
        print(f"minitools ast-grep: {exc}", file=sys.stderr)
        return EXIT_PATTERN
    except GrammarError as exc:
        print(f"minitools ast-grep: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.apply and args.rewrite is None:
        print("minitools ast-grep: --apply needs --rewrite TEMPLATE", file=sys.stderr)
        return EXIT_USAGE
    searcher = Searcher(root, one_shot=True, ignore_parents="parent" not in args.no_ignore)
    try:
        if args.rewrite is not None:
            return _rewrite(searcher, pattern, args.rewrite, paths, apply=args.apply)
        result = searcher.search(pattern, paths)
    except PathError as exc:
        print(f"minitools ast-grep: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        searcher.close()
    if args.json:
        # one write: json.dump to a text stream issues a write per token
        sys.stdout.write(json.dumps([m.to_json() for m in result.matches], ensure_ascii=False) + "\n")
    else:
        for m in result.matches:
            first = m.text.splitlines()[0] if m.text else ""
            print(f"{m.path}:{m.start[0]}:{m.start[1]}: {first}")
    return EXIT_MATCH if result.total else EXIT_NONE


def _rewrite(searcher: Searcher, pattern: Pattern, template_source: str, paths: list[Path], *, apply: bool) -> int:
    """--rewrite: print the unified diff; with --apply write every file or none."""
    from minitools.match._rewrite import Template, TemplateError
    from minitools.tools._staging import EditStore, StagedEdit, StaleEdit, WriteFailed
    from minitools.tools.edit import propose_rewrite, unified_diff

    template = Template.parse(template_source)
    try:
        template.check_bound(pattern.metavar_names, pattern.source)
    except TemplateError as exc:
        print(f"minitools ast-grep: {exc}", file=sys.stderr)
        return EXIT_USAGE
    staged: list[StagedFile] = []
    for target in paths:
        found, _inner, _data, broken = propose_rewrite(searcher, pattern, template, target)
        staged += [f for f in found if f.path not in {s.path for s in staged}]
        for b in broken:
            print(f"warning: {b['file']}:{b['line']} no longer parses after this rewrite", file=sys.stderr)
    if not staged:
        return EXIT_NONE
    sys.stdout.write(unified_diff(staged))
    if apply:
        try:
            EditStore.commit(StagedEdit("cli", staged, ""))
        except (StaleEdit, WriteFailed) as exc:
            print(f"minitools ast-grep: nothing was written: {exc}", file=sys.stderr)
            return EXIT_USAGE
        count = sum(f.replacements for f in staged)
        print(f"applied {count} replacements in {len(staged)} files", file=sys.stderr)
    return EXIT_MATCH


if __name__ == "__main__":
    _p = argparse.ArgumentParser(prog="minitools ast-grep", description=HELP)
    configure(_p)
    sys.exit(main(_p.parse_args()))
