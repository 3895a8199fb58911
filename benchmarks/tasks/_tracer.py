"""Run a Python program under a line tracer and print the value of an expression the first time
a line is reached with a condition true: the ground truth of a value task.

    python _tracer.py '{"file": ..., "line": N, "condition": ..., "expr": ...}' program.py [args...]
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from types import FrameType
from typing import Any


def main() -> None:
    spec = json.loads(sys.argv[1])
    target, line = os.path.realpath(spec["file"]), spec["line"]
    condition = compile(spec["condition"], "<condition>", "eval")
    expr = compile(spec["expr"], "<expr>", "eval")
    done = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal done
        if done:
            return None
        if event == "line" and frame.f_lineno == line and eval(condition, frame.f_globals, frame.f_locals):  # noqa: S307
            done = True
            print("@@TRACED", repr(eval(expr, frame.f_globals, frame.f_locals)), flush=True)  # noqa: S307
            sys.settrace(None)
            return None
        return local

    def call(frame: FrameType, event: str, arg: Any) -> Any:
        if done:
            return None
        return local if os.path.realpath(frame.f_code.co_filename) == target else None

    sys.argv = sys.argv[2:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
    sys.settrace(call)
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.settrace(None)


if __name__ == "__main__":
    main()
