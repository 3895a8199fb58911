"""Kernel benchmark: start-up (spawn to the first cell's answer) and per-cell round trip of
minitools' Python kernel against ipykernel driven by jupyter_client, side by side in one run.

    .venv/bin/python -m pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_kernel.py [--quick]

Writes benchmarks/results/bench_kernel.json and prints a markdown table.
Targets (README.md, "Benchmarks"): start-up under a fifth of ipykernel's, round trip under a twentieth.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minitools.kernel import KernelPool


async def _no_bridge(name: str, args: Any) -> dict[str, Any]:
    return {"ok": False, "text": "no bridge in the benchmark", "data": None, "images": []}


async def minitools_times(starts: int, cells: int) -> tuple[list[float], list[float]]:
    startup: list[float] = []
    trips: list[float] = []
    spill = Path(tempfile.mkdtemp(prefix="bench-kernel-"))
    for i in range(starts):
        pool = KernelPool(Path.cwd(), spill_dir=spill)
        t = time.perf_counter()
        await pool.run("python", "1 + 1", budget=60, grace=5, bridge=_no_bridge, output=pool.new_output("python", 20000))
        startup.append(time.perf_counter() - t)
        if i == 0:
            for _ in range(cells):
                t = time.perf_counter()
                await pool.run("python", "1 + 1", budget=60, grace=5, bridge=_no_bridge, output=pool.new_output("python", 20000))
                trips.append(time.perf_counter() - t)
        await pool.close()
    return startup, trips


def ipykernel_times(starts: int, cells: int) -> tuple[list[float], list[float]]:
    import warnings

    warnings.simplefilter("ignore")
    from jupyter_client.manager import start_new_kernel

    startup: list[float] = []
    trips: list[float] = []
    for i in range(starts):
        t = time.perf_counter()
        km, kc = start_new_kernel(kernel_name="python3")
        kc.execute_interactive("1 + 1", timeout=60, output_hook=lambda msg: None)
        startup.append(time.perf_counter() - t)
        if i == 0:
            for _ in range(cells):
                t = time.perf_counter()
                kc.execute_interactive("1 + 1", timeout=60, output_hook=lambda msg: None)
                trips.append(time.perf_counter() - t)
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return startup, trips


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    opts = parser.parse_args()
    starts, cells = (3, 200) if opts.quick else (10, 2000)
    mt_start, mt_trip = asyncio.run(minitools_times(starts, cells))
    ip_start, ip_trip = ipykernel_times(starts, max(cells // 10, 50))
    rows = {
        "startup_s": {"minitools": statistics.median(mt_start), "ipykernel": statistics.median(ip_start)},
        "round_trip_s": {"minitools": statistics.median(mt_trip), "ipykernel": statistics.median(ip_trip)},
    }
    for row in rows.values():
        row["ratio"] = row["minitools"] / row["ipykernel"]
    targets = {"startup_s": 1 / 5, "round_trip_s": 1 / 20}
    result = {"python": sys.version.split()[0], "starts": starts, "cells": cells, "results": rows,
              "targets": targets, "met": {k: rows[k]["ratio"] < targets[k] for k in rows}}
    out = Path(__file__).resolve().parent / "results" / "bench_kernel.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print("| measure (median) | minitools | ipykernel + jupyter_client | ratio | target | met |")
    print("|---|---|---|---|---|---|")
    for key, label in (("startup_s", "start-up to first answer"), ("round_trip_s", "trivial cell round trip")):
        row = rows[key]
        print(f"| {label} | {row['minitools'] * 1000:.2f} ms | {row['ipykernel'] * 1000:.2f} ms | "
              f"{row['ratio']:.3f} | < {targets[key]:.3f} | {'yes' if result['met'][key] else 'no'} |")


if __name__ == "__main__":
    main()
