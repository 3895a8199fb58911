"""`python -m minitools.inspector --runtime NODE`: the node debug adapter, speaking DAP on stdin
and stdout (docs/architecture.md, "The node adapter"); minitools' `debug` tool starts it as a
child like any other adapter. `--version` says what it is and exits (the catalog's probe)."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys

from minitools.inspector._adapter import NodeAdapter
from minitools.inspector._serve import DAPServer
from minitools.transport import open_stdio


async def _serve(runtime: str) -> None:
    reader, writer = await open_stdio()
    server = DAPServer(reader, writer)
    adapter = NodeAdapter(server, runtime)
    try:
        await server.serve()
    finally:
        await adapter.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minitools.inspector", description="minitools' node debug adapter (DAP on stdio)")
    parser.add_argument("--runtime", default="node", help="the node binary the program runs on")
    parser.add_argument("--version", action="store_true", help="check that the runtime exists and exit")
    options = parser.parse_args(argv)
    if options.version:
        found = shutil.which(options.runtime)
        print(f"minitools node adapter; runtime {found or options.runtime + ' (not found)'}")
        return 0 if found else 1
    asyncio.run(_serve(options.runtime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
