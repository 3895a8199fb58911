"""`minitools tools`: the tools a surface sees, as a table or as exported schemas."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from minitools.commands._common import add_root, add_surface, fail_usage
from minitools.schema import EXPORT_FORMATS, listed

NAME = "tools"
HELP = "list the tools a surface sees (plan and readonly show read-tier tools only)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_root(parser)
    add_surface(parser)
    parser.add_argument("--json", action="store_true", help="print the schemas as JSON")
    parser.add_argument("--format", default="jsonschema", choices=EXPORT_FORMATS,
                        help="with --json: the agent-API shape to export (default: plain JSON Schema, "
                        "with each tool's tier and parallel_safe)")


def main(args: argparse.Namespace) -> int:
    from minitools.run import Run

    try:
        run = Run(args.root)
    except ValueError as exc:
        return fail_usage(str(exc))

    async def show() -> int:
        async with run:
            if args.json:
                # plain JSON Schema carries the tier (and parallel_safe) as serve lists them; the
                # agent-API formats stay exactly the shape their API takes
                schemas = ([listed(s) for s in run.tools(args.surface)] if args.format == "jsonschema"
                           else run.schemas(args.surface, args.format))
                json.dump(schemas, sys.stdout, indent=2, ensure_ascii=False)
                sys.stdout.write("\n")
                return 0
            specs = run.tools(args.surface)
            width = max((len(s.name) for s in specs), default=4)
            for spec in specs:
                serial = "" if spec.parallel_safe else "  (serialised)"
                summary = spec.description.strip().splitlines()[0]
                print(f"{spec.name:<{width}}  {spec.tier.value:<5}  {summary}{serial}")
            if not specs:
                print(f"no tools on the {args.surface} surface")
            return 0

    return asyncio.run(show())
