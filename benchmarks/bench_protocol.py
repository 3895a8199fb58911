"""Wire-layer benchmark: framing + JSON parsing throughput of minitools' Framer against
python-lsp-jsonrpc's and pygls's stream readers on the same message mix, and request
round-trip time through a real server (clangd) with minitools' JSONRPCEndpoint and with
python-lsp-jsonrpc's Endpoint. Ratios are measured side by side in one run.

    .venv/bin/python -m pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_protocol.py [--quick]

Writes benchmarks/results/bench_protocol.json and prints a markdown table.
pygls is given an identity `structure_message` (no lsprotocol conversion), which flatters it.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minitools.protocol import NEED_DATA, Framer, encode_message
from minitools.transport import ChildProcess, FramedConnection, JSONRPCEndpoint

RESULTS = Path(__file__).resolve().parent / "results" / "bench_protocol.json"


# The message mix ------------------------------------------------------------------------

def make_mix(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """LSP-like traffic: mostly small notifications, some hovers, a few large diagnostics/symbol lists."""
    rng = random.Random(seed)
    uri = "file:///work/project/src/module_%d.py"
    out: list[dict[str, Any]] = []
    for i in range(count):
        roll = rng.random()
        if roll < 0.55:
            out.append({"jsonrpc": "2.0", "method": "window/logMessage",
                        "params": {"type": 3, "message": f"analysis of module {i} took {rng.random():.3f} s"}})
        elif roll < 0.75:
            out.append({"jsonrpc": "2.0", "method": "$/progress",
                        "params": {"token": f"tok-{i}", "value": {"kind": "report", "message": f"{i}/1000", "percentage": i % 100}}})
        elif roll < 0.95:
            out.append({"jsonrpc": "2.0", "id": i, "result": {"contents": {"kind": "markdown", "value":
                        "```python\ndef helper(x: int) -> int\n```\n---\n" + "Documentation héllo 😀 " * rng.randint(5, 40)},
                        "range": {"start": {"line": i, "character": 4}, "end": {"line": i, "character": 10}}}})
        else:
            diags = [{"range": {"start": {"line": j, "character": 2}, "end": {"line": j, "character": 9}}, "severity": 1,
                      "code": "reportUndefinedVariable", "source": "basedpyright",
                      "message": f'"name_{j}" is not defined'} for j in range(rng.randint(20, 120))]
            out.append({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                        "params": {"uri": uri % i, "version": i, "diagnostics": diags}})
    return out


# Readers --------------------------------------------------------------------------------

def ours_sans_io(data: bytes, chunk: int = 65536) -> int:
    framer = Framer("bench")
    count = 0
    for start in range(0, len(data), chunk):
        framer.receive_data(data[start : start + chunk])
        while framer.next_message() is not NEED_DATA:
            count += 1
    return count


def ours_from_file(data: bytes) -> int:
    # the same blocking file interface python-lsp-jsonrpc reads from
    rfile = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
    framer = Framer("bench")
    count = 0
    while chunk := rfile.read1(65536):
        framer.receive_data(chunk)
        while framer.next_message() is not NEED_DATA:
            count += 1
    return count


def pylsp_jsonrpc_reader(data: bytes) -> int:
    from pylsp_jsonrpc.streams import JsonRpcStreamReader

    rfile = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
    got: list[Any] = []
    JsonRpcStreamReader(rfile).listen(got.append)
    return len(got)


async def ours_asyncio(data: bytes) -> int:
    reader = asyncio.StreamReader(limit=2**20)
    reader.feed_data(data)
    reader.feed_eof()
    count = 0

    def on_message(message: dict[str, Any]) -> None:
        nonlocal count
        count += 1

    conn = FramedConnection(reader, _NullWriter(), peer="bench", on_message=on_message)
    await conn.wait_closed()
    return count


async def pygls_reader(data: bytes) -> int:
    from pygls.io_ import run_async

    reader = asyncio.StreamReader(limit=2**20)
    reader.feed_data(data)
    reader.feed_eof()
    got: list[Any] = []

    class Protocol:
        def structure_message(self, obj: Any) -> Any:
            return obj

        def handle_message(self, message: Any) -> None:
            got.append(message)

    await run_async(threading.Event(), reader, Protocol(), logger=logging.getLogger("bench.pygls"))  # type: ignore[arg-type]
    return len(got)


class _NullWriter:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass


def best_of(fn: Any, data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(data)
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_async(fn: Any, data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        asyncio.run(fn(data))
        times.append(time.perf_counter() - start)
    return min(times)


# Round trips on a real server -----------------------------------------------------------

C_SOURCE = '/* Adds. */\nint add(int a, int b) { return a + b; }\nint main(void) { return add(1, 2); }\n'


def _init_params(root: Path) -> dict[str, Any]:
    return {"processId": os.getpid(), "rootUri": f"file://{root}", "capabilities": {}, "workspaceFolders": None}


async def ours_round_trips(argv: list[str], root: Path, n: int) -> list[float]:
    child = await ChildProcess.start(argv, peer="clangd", cwd=root)
    rpc = JSONRPCEndpoint.over_child(child, default_request=lambda m: None)
    try:
        await rpc.request("initialize", _init_params(root), timeout=30)
        await rpc.notify("initialized", {})
        uri = f"file://{root}/main.c"
        await rpc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": C_SOURCE}})
        params = {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 25}}
        await rpc.request("textDocument/hover", params, timeout=30)  # warm
        times = []
        for _ in range(n):
            start = time.perf_counter()
            await rpc.request("textDocument/hover", params, timeout=30)
            times.append(time.perf_counter() - start)
        await rpc.request("shutdown", None, timeout=10)
        await rpc.notify("exit", None)
        return times
    finally:
        await child.stop()


def pylsp_jsonrpc_round_trips(argv: list[str], root: Path, n: int) -> list[float]:
    import subprocess

    from pylsp_jsonrpc.endpoint import Endpoint
    from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

    proc = subprocess.Popen(argv, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    writer = JsonRpcStreamWriter(proc.stdin)
    endpoint = Endpoint({}, writer.write)
    reader = JsonRpcStreamReader(proc.stdout)
    thread = threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True)
    thread.start()
    try:
        endpoint.request("initialize", _init_params(root)).result(30)
        endpoint.notify("initialized", {})
        uri = f"file://{root}/main.c"
        endpoint.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": C_SOURCE}})
        params = {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 25}}
        endpoint.request("textDocument/hover", params).result(30)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            endpoint.request("textDocument/hover", params).result(30)
            times.append(time.perf_counter() - start)
        endpoint.request("shutdown").result(10)
        endpoint.notify("exit")
        return times
    finally:
        proc.kill()
        proc.wait()
        endpoint.shutdown()


# Main -----------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller stream and fewer round trips")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    count = 5000 if args.quick else 40000
    repeat = 3 if args.quick else 5
    mix = make_mix(count)
    data = b"".join(encode_message(m) for m in mix)
    mib = len(data) / 2**20
    assert ours_sans_io(data) == pylsp_jsonrpc_reader(data) == ours_from_file(data) == count
    assert asyncio.run(ours_asyncio(data)) == asyncio.run(pygls_reader(data)) == count

    rows: dict[str, float] = {
        "minitools Framer (sans-IO, 64 KiB chunks)": best_of(ours_sans_io, data, repeat),
        "minitools Framer over a blocking file": best_of(ours_from_file, data, repeat),
        "python-lsp-jsonrpc JsonRpcStreamReader": best_of(pylsp_jsonrpc_reader, data, repeat),
        "minitools FramedConnection (asyncio)": best_of_async(ours_asyncio, data, repeat),
        "pygls run_async (asyncio)": best_of_async(pygls_reader, data, repeat),
    }
    throughput = {name: {"seconds": t, "MiB_per_s": mib / t, "messages_per_s": count / t} for name, t in rows.items()}
    ratios = {
        "vs python-lsp-jsonrpc (same blocking file)": rows["python-lsp-jsonrpc JsonRpcStreamReader"] / rows["minitools Framer over a blocking file"],
        "vs pygls (same asyncio StreamReader)": rows["pygls run_async (asyncio)"] / rows["minitools FramedConnection (asyncio)"],
        "sans-IO core vs python-lsp-jsonrpc": rows["python-lsp-jsonrpc JsonRpcStreamReader"] / rows["minitools Framer (sans-IO, 64 KiB chunks)"],
        "sans-IO core vs pygls": rows["pygls run_async (asyncio)"] / rows["minitools Framer (sans-IO, 64 KiB chunks)"],
    }

    round_trip: dict[str, Any] = {}
    clangd = shutil.which("clangd")
    if clangd:
        n = 200 if args.quick else 1000
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "main.c").write_text(C_SOURCE)
            (root / "compile_flags.txt").write_text("-std=c11\n")
            ours = asyncio.run(ours_round_trips([clangd], root, n))
            theirs = pylsp_jsonrpc_round_trips([clangd], root, n)
        round_trip = {
            "server": "clangd", "request": "textDocument/hover", "n": n,
            "minitools JSONRPCEndpoint median ms": statistics.median(ours) * 1000,
            "python-lsp-jsonrpc Endpoint median ms": statistics.median(theirs) * 1000,
            "ratio (theirs / ours)": statistics.median(theirs) / statistics.median(ours),
        }

    result = {"stream_MiB": mib, "messages": count, "repeat": repeat, "python": sys.version.split()[0],
              "throughput": throughput, "ratios": ratios, "round_trip": round_trip}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")

    print(f"## Framing + JSON parsing: {count} messages, {mib:.1f} MiB (best of {repeat})\n")
    print("| reader | seconds | MiB/s | messages/s |\n|---|---:|---:|---:|")
    for name, row in throughput.items():
        print(f"| {name} | {row['seconds']:.3f} | {row['MiB_per_s']:.1f} | {row['messages_per_s']:,.0f} |")
    print("\n| ratio | × |\n|---|---:|")
    for name, value in ratios.items():
        print(f"| {name} | {value:.2f} |")
    if round_trip:
        print(f"\n## Round trip: {round_trip['n']} × {round_trip['request']} on {round_trip['server']}\n")
        print("| client | median ms |\n|---|---:|")
        print(f"| minitools JSONRPCEndpoint | {round_trip['minitools JSONRPCEndpoint median ms']:.3f} |")
        print(f"| python-lsp-jsonrpc Endpoint | {round_trip['python-lsp-jsonrpc Endpoint median ms']:.3f} |")
        print(f"\nratio (theirs / ours): {round_trip['ratio (theirs / ours)']:.2f}")
    print(f"\nwritten to {RESULTS}")


if __name__ == "__main__":
    main()
