"""`minitools grammars [list | vendor LANG…]`: where each grammar loads from, and writing the
offline `vendored_grammars/` bundle out of an installed language pack."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minitools.match import GrammarError, available_languages, grammar_source, vendor_grammars

NAME = "grammars"
HELP = "list grammars and where each loads from, or vendor some into vendored_grammars/"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="list", choices=["list", "vendor"])
    parser.add_argument("languages", nargs="*", metavar="LANG", help="languages to vendor (or to list)")
    parser.add_argument("--dest", help="bundle folder for vendor (default: vendored_grammars/)")


def main(args: argparse.Namespace) -> int:
    if args.action == "vendor":
        if not args.languages:
            print("minitools grammars vendor: name the languages to vendor, e.g. python dart", file=sys.stderr)
            return 2
        try:
            written = vendor_grammars(list(args.languages), Path(args.dest) if args.dest else None)
        except GrammarError as exc:
            print(f"minitools grammars: {exc}", file=sys.stderr)
            return 1
        for entry in written:
            print(f"{entry['language']}: {entry['file']} from {entry['source']} {entry['version']} sha256 {entry['sha256']}")
        return 0
    names = args.languages or available_languages()
    missing = 0
    for name in names:
        src = grammar_source(name)
        if src is None:
            print(f"{name}: not available")
            missing += 1
        else:
            print(f"{name}: {src.origin} {src.version or ''} {src.location}".rstrip())
    return 1 if missing else 0


if __name__ == "__main__":
    _p = argparse.ArgumentParser(prog="minitools grammars", description=HELP)
    configure(_p)
    sys.exit(main(_p.parse_args()))
