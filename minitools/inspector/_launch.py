"""Start node under its inspector and learn where the inspector listens.

``node --inspect-brk=127.0.0.1:0 program`` picks a free port, prints
``Debugger listening on ws://127.0.0.1:PORT/UUID`` on stderr and waits before the program's
first line until a client sends ``Runtime.runIfWaitingForDebugger`` (docs/architecture.md,
"The V8 inspector"). The child is a `transport.ChildProcess`: its own process group, killed with
its parent, stderr drained.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable, Mapping, Sequence

from minitools.tracing import Tracer
from minitools.transport import ChildExited, ChildProcess, reaped

__all__ = ["start_node", "LISTENING"]

LISTENING = re.compile(rb"Debugger listening on (ws://[^\s]+)")
# the line comes first, within a few hundred bytes; past this much stderr it is not coming
_MAX_SEARCH = 64 * 1024


async def start_node(program: str | os.PathLike[str], args: Sequence[str] = (), *, node: str = "node",
                     cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                     timeout: float = 10.0, tracer: Tracer | None = None, node_args: Sequence[str] = (),
                     on_stderr: Callable[[bytes], None] | None = None, reap: bool = False) -> tuple[ChildProcess, str]:
    """Start `program` paused under node's inspector on loopback; the child and the inspector's
    ``ws://`` URL. Raises FileNotFoundError when `node` is missing, ChildExited when node ends
    (or says nothing of a listener) before the URL is known, with its stderr; on a timeout the
    child is stopped and asyncio.TimeoutError names the wait."""
    found: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    seen = bytearray()

    def watch(chunk: bytes) -> None:
        if on_stderr is not None:
            on_stderr(chunk)
        if found.done():
            return
        seen.extend(chunk[: _MAX_SEARCH - len(seen)])
        match = LISTENING.search(seen)
        if match is not None:
            found.set_result(match.group(1).decode("ascii", "replace"))
        elif not chunk or len(seen) >= _MAX_SEARCH:
            found.set_exception(EOFError())

    argv = [node, "--inspect-brk=127.0.0.1:0", *node_args, os.fspath(program), *args]
    if reap:  # the reaper reports a failed exec on fd 2: it is node's stderr, read below
        argv = reaped(argv, 2)
    child = await ChildProcess.start(argv, peer="node", cwd=cwd, env=env, tracer=tracer, on_stderr=watch)
    try:
        return child, await asyncio.wait_for(asyncio.shield(found), timeout)
    except EOFError:
        code = await _exit_code(child)
        raise ChildExited("node", code, child.stderr_tail(), during="start (no 'Debugger listening on ws://' line)") from None
    except BaseException as exc:
        await child.stop(close_timeout=0.5, term_timeout=1.0)
        if isinstance(exc, asyncio.TimeoutError):
            raise asyncio.TimeoutError(f"node did not say where its inspector listens within {timeout:g} s; "
                                       f"its stderr: {child.stderr_tail(500)!r}") from None
        raise


async def _exit_code(child: ChildProcess) -> int | None:
    """The child's exit code once it ended (bounded); a child that lives on is stopped."""
    with contextlib.suppress(asyncio.TimeoutError):
        return await asyncio.wait_for(child.wait(), 2.0)
    return await child.stop(close_timeout=0.1, term_timeout=1.0)
