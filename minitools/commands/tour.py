"""`minitools tour`: every registered tool, called over the bundled sample project."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

NAME = "tour"
HELP = "run every registered tool over the bundled sample project, printing what a model would read"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sample", type=Path, default=None,
                        help="a project to tour instead of examples/sample (it is copied first)")


def main(args: argparse.Namespace) -> int:
    from minitools.tour import run_tour

    return asyncio.run(run_tour(args.sample))
