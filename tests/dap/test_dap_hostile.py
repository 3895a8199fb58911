"""Hostile adapters and debuggees behind the real `debug` tool: a stop location in a device, a
FIFO or a file outside the workspace, output that never ends its line, malformed bodies. No
call hangs, none is an internal error, and memory stays bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import PY_PROGRAM, make_run, scripted_run, stopped_at

from minitools.dap import OutputBuffer


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "prog.py").write_text(PY_PROGRAM)
    (root / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    return root


@pytest.mark.timeout(30)
async def test_a_frame_in_a_fifo_is_not_read(tmp_path: Path) -> None:
    # opening a FIFO for reading blocks until a writer comes: the stop must be shown without it
    root = _project(tmp_path)
    os.mkfifo(root / "pipe.py")
    async with scripted_run(root, stopped_at(str(root / "pipe.py"), 3), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok, r.text
        assert "f pipe.py:3 (not a regular file, not read)" in r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "#0 frame 1: f pipe.py:3 (not a regular file, not read)" in r.text, r.text


async def test_a_frame_outside_the_workspace_says_where_and_shows_nothing_of_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("password = hunter2\n")
    (root / "link.py").symlink_to(secret)  # inside by name, outside in fact
    for path, shown in ((str(secret), str(secret)), (str(root / "link.py"), "link.py")):
        async with scripted_run(root, stopped_at(path), tmp_path) as run:
            r = await run.call("debug", {"op": "launch", "program": "prog.py"})
            assert r.ok, r.text
            assert "hunter2" not in r.text
            assert f"f {shown}:1 (outside the workspace, not shown)" in r.text, r.text


async def test_a_frame_in_a_device_is_not_read(tmp_path: Path) -> None:
    # /dev/zero never ends: reading its first line would take all memory
    root = _project(tmp_path)
    async with scripted_run(root, stopped_at("/dev/zero", 2), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "f /dev/zero:2 (outside the workspace, not shown)" in r.text, r.text


async def test_a_frame_in_the_workspace_shows_its_line_from_a_bounded_window(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "big.py").write_text("x = 1\n" + "y = 2\n" * 400_000)  # 2.4 MB: line 300,000 is past the window
    async with scripted_run(root, stopped_at(str(root / "big.py"), 1), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "f big.py:1  | x = 1" in r.text, r.text
    async with scripted_run(root, stopped_at(str(root / "big.py"), 300_000), tmp_path) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and r.text.rstrip().endswith("f big.py:300000."), r.text


@pytest.mark.timeout(60)
def test_output_without_newlines_is_held_bounded_and_joined_once() -> None:
    # 8,000 chunks of 4 KiB on one line: each chunk costs its own length (re-joining the line on
    # every chunk took minutes), and only the line's first characters are held
    buf = OutputBuffer(max_line=2000)
    chunk = "x" * 4096
    for _ in range(8000):
        buf.write("stdout", chunk)
        assert buf.held() <= 2000
    buf.write("stdout", "\nnext line\n")
    lines, dropped = buf.take()
    assert lines == ["x" * 2000 + f"… {8000 * 4096 - 2000:,} more characters on this line", "next line"]
    assert dropped == 0 and buf.held() == 0


DEV_ZERO_PROGRAM = """\
def hit():
    return 1


namespace = {"hit": hit}
exec(compile("def f():\\n    return hit()\\n", "/dev/zero", "exec"), namespace)
namespace["f"]()
"""


async def test_debugpy_with_a_frame_compiled_as_dev_zero(tmp_path: Path) -> None:
    # the real adapter names /dev/zero as a frame's source: the stack is shown, nothing is read
    root = _project(tmp_path)
    (root / "zero.py").write_text(DEV_ZERO_PROGRAM)
    async with make_run(root) as run:
        r = await run.call("debug", {"op": "breakpoints", "file": "zero.py", "lines": [2]})
        r = await run.call("debug", {"op": "launch", "program": "zero.py"})
        assert r.ok and "zero.py:2  | return 1" in r.text, r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and "f /dev/zero:2 (outside the workspace, not shown)" in r.text, r.text
