"""`minitools ast-grep test`: run a rule project's tests (docs/tools.md, "Rules"): for each
test file under the project's testConfigs folders, every `valid` snippet must give its rule no
finding and every `invalid` snippet at least one. Prints a line per rule as ast-grep does
(`PASS id  ...`, a dot per passing case) and exits 1 when a rule fails. Snapshot tests are
not run (`--skip-snapshot-tests` is accepted for compatibility)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minitools.commands._common import id_filter

NAME = "ast-grep test"
HELP = "run the tests of an ast-grep rule project (valid snippets must not match, invalid ones must)"
INTERMIXED = True


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", "-c", metavar="SGCONFIG", help="the project's sgconfig.yml (default: the nearest)")
    parser.add_argument("--test-dir", "-t", metavar="DIR", help="read the tests from DIR instead of testConfigs")
    parser.add_argument("--filter", "-f", metavar="REGEX", help="run only the tests of the rules whose id matches REGEX")
    parser.add_argument("--skip-snapshot-tests", action="store_true", help="accepted; snapshot tests are never run")
    parser.add_argument("--verbose", "-v", action="store_true", help="print each failing snippet in full")


def _fail(message: str) -> int:
    print(f"minitools ast-grep test: {message}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    from minitools.commands.ast_grep_scan import _find_config
    from minitools.rules import RuleError, load_project, load_tests, run_tests

    config = Path(args.config) if args.config else _find_config(Path.cwd())
    if config is None or not config.is_file():
        return _fail(f'no project configuration "{config or "sgconfig.yml"}" here or above; pass -c sgconfig.yml')
    try:
        project = load_project(config)
        folders = [Path(args.test_dir)] if args.test_dir else project.test_dirs
        tests = load_tests(folders)
    except RuleError as exc:
        return _fail(str(exc))
    wanted = id_filter(args.filter)
    if isinstance(wanted, str):
        return _fail(wanted)
    if wanted is not None:
        tests = [t for t in tests if wanted.search(t.id)]
    broken = {}
    for path, why in project.errors:
        broken[Path(path).stem] = why
    outcomes, orphans = run_tests(project.rules, tests)
    lines = []
    failed = 0
    for o in outcomes:
        lines.append(f"{'PASS' if o.passed else 'FAIL'} {o.id}  {o.cases}")
        if not o.passed:
            failed += 1
            for kind, snippet in o.failures:
                shown = snippet if args.verbose else snippet.strip().splitlines()[0][:100] if snippet.strip() else "(empty)"
                verb = "matched, but is valid" if kind == "valid" else "did not match, but is invalid"
                lines.append(f"  {kind} snippet {verb}: {shown}")
    unread = [t for t in orphans if t.id in broken]
    for t in unread:
        failed += 1
        lines.append(f"FAIL {t.id}  the rule cannot run: {broken[t.id]}")
    sys.stdout.write("".join(line + "\n" for line in lines))
    passed = len(outcomes) - sum(1 for o in outcomes if not o.passed)
    untested = len(orphans) - len(unread)
    extra = f" {untested} tests name no rule of the project (skipped)." if untested else ""
    print(f"\ntest result: {'ok' if not failed else 'failed'}. {passed} passed; {failed} failed;{extra}")
    return 1 if failed else 0


if __name__ == "__main__":
    from minitools.cli import run_command, standalone_parser

    sys.exit(run_command(main, standalone_parser(sys.modules[__name__]).parse_intermixed_args()))
