"""`minitools ast-grep test`: run a rule project's tests (docs/tools.md, "Rules"): for each
test file under the project's testConfigs folders, every `valid` snippet must give its rule no
finding and every `invalid` snippet at least one, whose first finding's labels and fix must
equal its snapshot in the test folder's `__snapshots__` (a missing baseline fails, as in
ast-grep; `--skip-snapshot-tests` leaves them out, `--update-all` writes them). Prints a line per
rule as ast-grep does (`PASS id  ...`, a dot per passing case) and exits 1 when a rule fails."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from minitools.commands._common import id_filter

NAME = "ast-grep test"
HELP = "run the tests of an ast-grep rule project (valid snippets must not match, invalid ones must)"
INTERMIXED = True


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", "-c", metavar="SGCONFIG", help="the project's sgconfig.yml (default: the nearest)")
    parser.add_argument("--test-dir", "-t", metavar="DIR", help="read the tests from DIR instead of testConfigs")
    parser.add_argument("--filter", "-f", metavar="REGEX", help="run only the tests of the rules whose id matches REGEX")
    parser.add_argument("--skip-snapshot-tests", action="store_true", help="do not compare the matches with their snapshots")
    parser.add_argument("--update-all", "-U", action="store_true",
                        help="write every rule's snapshots from this run (the baseline later runs compare with)")
    parser.add_argument("--verbose", "-v", action="store_true", help="print each failing snippet in full")


def _fail(message: str) -> int:
    print(f"minitools ast-grep test: {message}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    from minitools.commands.ast_grep_scan import _find_config
    from minitools.rules import RuleError, load_project, load_tests, read_snapshots, run_tests, snapshot_path

    config = Path(args.config) if args.config else _find_config(Path.cwd())
    if config is None or not config.is_file():
        return _fail(f'no project configuration "{config or "sgconfig.yml"}" here or above; pass -c sgconfig.yml')
    wanted = id_filter(args.filter)
    if isinstance(wanted, str):
        return _fail(wanted)
    compare = not args.skip_snapshot_tests and not args.update_all
    outcomes, orphans, where = [], [], {}
    try:
        project = load_project(config)
        folders = ([(Path(args.test_dir), Path(args.test_dir) / "__snapshots__")] if args.test_dir
                   else list(zip(project.test_dirs, project.snapshot_dirs)))
        for folder, snapshots in folders:
            tests = [t for t in load_tests([folder]) if wanted is None or wanted.search(t.id)]
            baseline = (lambda rule_id, at=snapshots: read_snapshots(snapshot_path(at, rule_id))) if compare else None
            done, left = run_tests(project.rules, tests, baseline)
            outcomes += done
            orphans += left
            where.update({o.id: snapshots for o in done})
    except RuleError as exc:
        return _fail(str(exc))
    if args.update_all:
        failed_write = _write_snapshots(outcomes, where, project.root)
        if failed_write:
            return _fail(failed_write)
    broken = {}
    for path, why in project.errors:
        broken[Path(path).stem] = why
    lines = []
    failed = 0
    for o in outcomes:
        lines.append(f"{'PASS' if o.passed else 'FAIL'} {o.id}  {o.cases}")
        if not o.passed:
            failed += 1
            for kind, snippet in o.failures:
                shown = snippet if args.verbose else snippet.strip().splitlines()[0][:100] if snippet.strip() else "(empty)"
                if kind in ("valid", "invalid"):
                    verb = "matched, but is valid" if kind == "valid" else "did not match, but is invalid"
                    lines.append(f"  {kind} snippet {verb}: {shown}")
                else:
                    lines.append(f"  {kind} (--update-all writes it): {shown}")
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


def _write_snapshots(outcomes: list[Any], where: dict[str, Path], root: Path) -> str | None:
    """--update-all: each tested rule's snapshot file, from this run; why none was written, or
    None. A snapshot folder that leads out of the project (a symlink) is refused."""
    from minitools.rules import render_snapshots, snapshot_path, write_text_atomic

    inside = str(root.resolve())
    for o in outcomes:
        folder = where[o.id]
        real = os.path.realpath(folder)
        if real != inside and not real.startswith(inside.rstrip(os.sep) + os.sep):
            return f'the snapshot folder "{folder}" leads outside the project ({real}); nothing written for {o.id}'
    for o in outcomes:
        write_text_atomic(snapshot_path(where[o.id], o.id), render_snapshots(o.id, o.snapshots))
    print(f"wrote the snapshots of {len(outcomes)} rules", file=sys.stderr)
    return None


if __name__ == "__main__":
    from minitools.commands import run_command, standalone_parser

    sys.exit(run_command(main, standalone_parser(sys.modules[__name__]).parse_intermixed_args()))
