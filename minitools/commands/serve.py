"""`minitools serve`: newline-delimited JSON-RPC 2.0 over stdio, one Run per process."""

from __future__ import annotations

import argparse
import asyncio
import sys

from minitools.commands._common import add_config, add_root, fail_usage, read_config

NAME = "serve"
HELP = "serve one Run over stdio as newline-delimited JSON-RPC 2.0 (methods tools, call, written)"


def configure(parser: argparse.ArgumentParser) -> None:
    add_root(parser)
    add_config(parser)
    parser.add_argument("--questions", choices=["host", "none"], default="none",
                        help="host: ask_user and permission cards go to the host as `ask` requests")
    parser.add_argument("--approve", choices=["host", "all", "none"], default="host",
                        help="how write/exec calls are approved: an `approve` request to the host (default), "
                        "always, or never (then a question port is asked, else they are refused)")
    parser.add_argument("--vibe", metavar="ROSTER.toml", help="activate vibe mode with this worker roster")


def main(args: argparse.Namespace) -> int:
    from minitools.serve import serve_stdio

    questions = None if args.questions == "none" else args.questions
    try:
        return asyncio.run(serve_stdio(args.root, questions=questions, approve=args.approve, vibe=args.vibe,
                                       config=read_config(args)))
    except ValueError as exc:
        return fail_usage(str(exc))
    except BrokenPipeError:
        sys.stderr.close()
        return 0
