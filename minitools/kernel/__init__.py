"""Persistent Python and JavaScript kernels for `eval` (docs/tools.md, "eval").

    pool = KernelPool(root, spill_dir=tmp)
    outcome = await pool.run("python", "x = 1\nx + 1", budget=300, grace=5, bridge=call, output=pool.new_output("python", 20000))

`rewrite` turns the IPython idioms (`%pip`, `!ls`, `%%bash`, ...) into plain Python. The
workers (`_pyworker.py`, `_jsworker.js`) run in child processes and speak the framed
protocol on private file descriptors.
"""

from __future__ import annotations

from minitools.kernel._host import Bridge, KernelProcess, KernelStartError, ToolReply
from minitools.kernel._output import CellOutcome, CellOutput, CellStatus, exit_description, text_of
from minitools.kernel._pool import LANGUAGES, Enclosure, KernelBusy, KernelPool, enclosure_prefix, workspace_python
from minitools.kernel._rewrite import rewrite

__all__ = [
    "rewrite",
    "KernelPool",
    "Enclosure",
    "KernelProcess",
    "KernelStartError",
    "KernelBusy",
    "Bridge",
    "ToolReply",
    "CellOutcome",
    "CellStatus",
    "CellOutput",
    "LANGUAGES",
    "enclosure_prefix",
    "workspace_python",
    "exit_description",
    "text_of",
]
