"""Finding a running node's inspector: its WebSocket URL from the inspector's HTTP endpoint
(`GET /json/list` on its port), and the port of a process we signalled (SIGUSR1 makes node open
its inspector, on 127.0.0.1:9229 unless that is taken) from the sockets it listens on
(/proc/PID/fd and /proc/net/tcp), so another node's inspector on 9229 is never mistaken for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from typing import Any

__all__ = ["inspector_url", "open_inspector", "listening_ports"]

MAX_ANSWER = 1 << 20


async def inspector_url(port: int, host: str = "127.0.0.1", timeout: float = 2.0) -> str:
    """The `webSocketDebuggerUrl` of the first target the inspector on `port` lists; OSError
    (saying what answered) when nothing there is a node inspector."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except asyncio.TimeoutError:
        raise OSError(f"port {port} did not accept a connection within {timeout:g} s") from None
    try:
        writer.write(f"GET /json/list HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        length = next((int(v) for k, _, v in (line.partition(b":") for line in head.split(b"\r\n"))
                       if k.strip().lower() == b"content-length" and v.strip().isdigit()), None)
        if length is None or length > MAX_ANSWER:
            raise OSError(f"port {port} answered without a usable Content-Length: {head[:80]!r}")
        body = await asyncio.wait_for(reader.readexactly(length), timeout)
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
        raise OSError(f"port {port} did not answer GET /json/list as node's inspector does ({type(exc).__name__})") from None
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    try:
        targets: Any = json.loads(body)
    except ValueError:
        raise OSError(f"port {port} answered GET /json/list with something that is not JSON: {body[:80]!r}") from None
    urls = [t.get("webSocketDebuggerUrl") for t in targets if isinstance(t, dict)] if isinstance(targets, list) else []
    url = next((u for u in urls if isinstance(u, str) and u.startswith("ws://")), None)
    if url is None:
        raise OSError(f"port {port} lists no debuggable target: {body[:120]!r}")
    return url


def listening_ports(pid: int) -> list[int]:
    """The TCP ports process `pid` listens on (empty when /proc cannot say)."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as fh:
            for row in fh.readlines()[1:]:
                fields = row.split()
                if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(set(ports))


async def open_inspector(pid: int, timeout: float = 10.0) -> str:
    """Signal node process `pid` to open its inspector and return its WebSocket URL; OSError
    naming what went wrong (no such process, not ours to signal, no inspector within `timeout`).

    Only a port the process starts listening on after the signal is asked for `/json/list`, so
    the program's own servers see no request; the ports it listened on before are asked only
    when no new one comes (an inspector opened before, by --inspect or an earlier attach)."""
    try:
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except FileNotFoundError:
        raise OSError(f"no process {pid} is running") from None
    except OSError:
        exe = ""  # not ours to read: the signal below says whether it is ours at all
    if exe and "node" not in exe:  # SIGUSR1's default action ends a process that is not node
        raise OSError(f"process {pid} runs {exe}, not node; SIGUSR1 would end it, so it was not sent")
    before = listening_ports(pid)
    try:
        os.kill(pid, signal.SIGUSR1)
    except ProcessLookupError:
        raise OSError(f"no process {pid} is running") from None
    except PermissionError:
        raise OSError(f"process {pid} is not ours to signal (SIGUSR1 opens node's inspector)") from None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    tried = ""
    while loop.time() < deadline:
        for port in (p for p in listening_ports(pid) if p not in before):
            try:
                return await inspector_url(port, timeout=1.0)
            except OSError as exc:
                tried = str(exc)
        if not os.path.exists(f"/proc/{pid}"):
            raise OSError(f"process {pid} ended after SIGUSR1 (a program that is not node dies of it)")
        if loop.time() > deadline - timeout / 2 and before:  # half the wait gone: perhaps it was open already
            for port in before:
                with contextlib.suppress(OSError):
                    return await inspector_url(port, timeout=1.0)
            before = []
        await asyncio.sleep(0.05)
    said = f"; {tried}" if tried else ""
    raise OSError(f"process {pid} opened no inspector within {timeout:g} s after SIGUSR1 (is it node?){said}")
