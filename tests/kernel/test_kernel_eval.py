"""eval through Run.call, as a model calls it: real interpreters, real commands."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from conftest import cell
from minitools import Run, Tier, Tool, ToolResult, ToolSpec


async def test_state_persists_and_last_expression_is_returned(run: Run) -> None:
    r = await run.call("eval", cell("import math\nx = 40\nprint('side effect')\nx + 2"))
    assert r.ok, r.text
    assert "side effect" in r.text and "Out: 42" in r.text
    r = await run.call("eval", cell("x * math.floor(1.5)"))
    assert "Out: 40" in r.text
    r = await run.call("eval", cell("x + 1;"))
    assert r.ok and "Out:" not in r.text


async def test_stdout_and_stderr_in_order_and_trimmed_traceback(run: Run) -> None:
    r = await run.call("eval", cell("import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')\n1/0"))
    assert not r.ok
    assert r.text.index("one") < r.text.index("two") < r.text.index("three")
    assert "ZeroDivisionError" in r.text and "<cell" in r.text
    assert "_pyworker" not in r.text


async def test_top_level_await(run: Run) -> None:
    r = await run.call("eval", cell("import asyncio\nawait asyncio.sleep(0)\n'done'"))
    assert r.ok and "Out: 'done'" in r.text


async def test_future_imports_carry_to_later_cells(run: Run) -> None:
    # as in an interactive interpreter (codeop): a cell's `from __future__` stays on
    r = await run.call("eval", cell("from __future__ import annotations"))
    assert r.ok, r.text
    r = await run.call("eval", cell("def f(x: NotDefinedAnywhere) -> None: ...\nf.__annotations__"))
    assert r.ok, r.text
    assert "'x': 'NotDefinedAnywhere'" in r.text


async def test_description_of_any_length_labels_the_cell(run: Run) -> None:
    # a short description, or a long one, runs the cell; the label is the description, shortened
    short = await run.call("eval", {"code": "x = 1", "description": "set x"})
    assert short.ok and short.data["label"] == "set x", short.text
    long = "load the file, group the rows by user and month, then " * 4
    r = await run.call("eval", {"code": "x + 1", "description": long})
    assert r.ok and "Out: 2" in r.text
    assert r.data["label"].endswith("…") and len(r.data["label"]) <= 80 and r.data["label"].startswith("load the file")
    empty = await run.call("eval", {"code": "y = 2", "description": "  "})
    assert not empty.ok and "empty" in empty.text and "Nothing was run" in empty.text
    unbound = await run.call("eval", {"code": "y"})
    assert not unbound.ok and "description" in unbound.text


async def test_idioms_against_real_commands(run: Run, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    r = await run.call("eval", cell("%cd sub\n!echo hi > made.txt\nfiles = !ls\nfiles"))
    assert r.ok, r.text
    assert (tmp_path / "sub" / "made.txt").exists()
    assert "made.txt" in r.text
    r = await run.call("eval", cell("%pwd"))
    assert str(tmp_path / "sub") in r.text
    r = await run.call("eval", cell("%%bash\necho from-bash $((1+2))\n"))
    assert "from-bash 3" in r.text
    r = await run.call("eval", cell("%env MT_TEST=yes\nimport os\nos.environ['MT_TEST']"))
    assert "'yes'" in r.text
    r = await run.call("eval", cell("%timeit -n 5 -r 2 sum(range(10))"))
    assert r.ok and "per loop" in r.text
    r = await run.call("eval", cell("%%timeit -n 2 -r 2\nsum(range(5))\n"))
    assert r.ok and "per loop" in r.text
    r = await run.call("eval", cell("%time sum(range(3))"))
    assert "Wall time" in r.text and "Out: 3" in r.text
    r = await run.call("eval", cell("%ls"))
    assert "made.txt" in r.text
    r = await run.call("eval", cell("%nosuchmagic x"))
    assert not r.ok and "unknown magic %nosuchmagic" in r.text


async def test_display_and_rich_reprs(run: Run) -> None:
    code = (
        "class Both:\n"
        "    def _repr_mimebundle_(self, include=None, exclude=None):\n"
        "        return {'text/markdown': '**bundle wins**'}\n"
        "    def _repr_markdown_(self):\n"
        "        return 'method loses'\n"
        "display(Both())\n"
        "class Html:\n"
        "    def _repr_html_(self):\n"
        "        return '<b>html</b>'\n"
        "Html()"
    )
    r = await run.call("eval", cell(code))
    assert r.ok, r.text
    assert "**bundle wins**" in r.text and "method loses" not in r.text
    assert "<b>html</b>" in r.text


async def test_pandas_frame_is_a_bounded_table(run: Run) -> None:
    pytest.importorskip("pandas")
    r = await run.call("eval", cell("import pandas as pd\ndf = pd.DataFrame({'a': range(1000), 'b': range(1000)})\ndf"))
    assert r.ok, r.text
    assert "| a" in r.text or " a " in r.text
    assert "1000 rows" in r.text
    assert "999" not in r.text.split("rows")[0] or len(r.text) < 4000


async def test_matplotlib_figures_come_back_as_png(run: Run) -> None:
    pytest.importorskip("matplotlib")
    r = await run.call("eval", cell("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.figure()\nplt.bar([1], [2]);"))
    assert r.ok, r.text
    assert len(r.images) == 2
    assert all(mime == "image/png" and blob.startswith(b"\x89PNG") for mime, blob in r.images)
    r = await run.call("eval", cell("len(plt.get_fignums())"))
    assert "Out: 0" in r.text and not r.images


async def test_input_fails_fast_with_a_clear_message(run: Run) -> None:
    r = await run.call("eval", cell("input('name? ')"))
    assert not r.ok and "stdin is /dev/null" in r.text


async def test_huge_output_is_capped_with_full_text_in_a_file(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, kernel_max_output=2000) as run:
        r = await run.call("eval", cell("for i in range(20000):\n    print('line', i)"))
        assert r.ok
        assert len(r.text) < 4000
        assert "line 0" in r.text and "line 19999" in r.text
        path = r.data["output_file"]
        full = Path(path).read_text()
        assert "line 10000\n" in full and full.count("\n") == 20000


async def test_reset_discards_state(run: Run) -> None:
    await run.call("eval", cell("kept = 1"))
    r = await run.call("eval", cell("kept", reset=True))
    assert not r.ok and "NameError" in r.text and "reset" in r.text


async def test_crash_is_reported_and_next_cell_is_fresh(run: Run) -> None:
    await run.call("eval", cell("before = 1"))
    r = await run.call("eval", cell("print('last words')\nimport os\nos._exit(7)"))
    assert not r.ok and r.data["status"] == "died"
    assert "KERNEL DIED" in r.text and "exit code 7" in r.text and "last words" in r.text
    r = await run.call("eval", cell("'before' in dir()"))
    assert "STATE LOST" in r.text and "Out: False" in r.text


async def test_segfault_is_reported(run: Run) -> None:
    r = await run.call("eval", cell("import ctypes\nctypes.string_at(0)"))
    assert not r.ok and "SIGSEGV" in r.text and "STATE LOST" in r.text


async def test_budget_interrupt_keeps_state_and_kill_loses_it(tmp_path: Path) -> None:
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False},
                   kernel_budget=1, kernel_interrupt_grace=1) as run:
        await run.call("eval", cell("survivor = 5"))
        r = await run.call("eval", cell("import time\ntime.sleep(60)"))
        assert not r.ok and r.data["status"] == "interrupted" and "state is kept" in r.text
        r = await run.call("eval", cell("survivor"))
        assert "Out: 5" in r.text
        r = await run.call("eval", cell("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)"))
        assert not r.ok and r.data["status"] == "killed" and "STATE LOST" in r.text
        r = await run.call("eval", cell("'survivor' in dir()"))
        assert "Out: False" in r.text and "STATE LOST" in r.text


def _host_tools(log: list[str]) -> list[Tool]:
    import asyncio

    async def echo(args: object) -> ToolResult:
        return ToolResult(ok=True, text=f"echo {args['word']}", data={"word": args["word"]})

    async def slow(args: object) -> ToolResult:
        await asyncio.sleep(2.5)
        return ToolResult(ok=True, text="slow done")

    async def danger(args: object) -> ToolResult:
        log.append("danger ran")
        return ToolResult(ok=True, text="should not run")

    obj = {"type": "object", "properties": {"word": {"type": "string", "description": "w"}}, "additionalProperties": False}
    none = {"type": "object", "properties": {}, "additionalProperties": False}
    return [
        Tool(ToolSpec("echo", Tier.READ, "echo a word", obj), echo),
        Tool(ToolSpec("slow", Tier.READ, "takes a while", none), slow),
        Tool(ToolSpec("danger", Tier.WRITE, "writes things", none), danger),
    ]


async def test_bridge_calls_tools_through_the_run(tmp_path: Path) -> None:
    log: list[str] = []
    approve = lambda spec, args: spec.name != "danger"  # noqa: E731
    async with Run(tmp_path, approve=approve, resources={"lsp": False}, tools=_host_tools(log), kernel_budget=1) as run:
        r = await run.call("eval", cell("r = tool('echo', {'word': 'hi'})\nprint(r)\nr.data['word']"))
        assert r.ok, r.text
        assert "echo hi" in r.text and "Out: 'hi'" in r.text
        r = await run.call("eval", cell("tool('danger', {})"))
        assert not r.ok and "ToolCallError" in r.text and log == []
        r = await run.call("eval", cell("tool('echo', {'nope': 1})"))
        assert not r.ok and "ToolCallError" in r.text
        # the budget (1 s) is suspended while the 2.5 s bridge call is in flight
        r = await run.call("eval", cell("tool('slow')"))
        assert r.ok and r.data["status"] == "ok", r.text
        assert "slow done" in r.text


async def test_close_kills_every_kernel(tmp_path: Path) -> None:
    run = Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False})
    r = await run.call("eval", cell("import os\nos.getpid()"))
    pid = int(r.data["result"]["text/plain"])
    os.kill(pid, 0)
    await run.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_venv_local_interpreter_and_pip(tmp_path: Path) -> None:
    import subprocess
    import zipfile

    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run([sys.executable, "-m", "venv", str(ws / ".venv")], check=True)

    def wheel(version: str) -> Path:
        path = tmp_path / f"v{version}" / f"mtprobe-{version}-py3-none-any.whl"
        path.parent.mkdir()
        info = f"mtprobe-{version}.dist-info"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("mtprobe.py", f"VERSION = '{version}'\n")
            z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: mtprobe\nVersion: {version}\n")
            z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
            z.writestr(f"{info}/top_level.txt", "mtprobe\n")
            z.writestr(f"{info}/RECORD", "")
        return path

    one, two = wheel("1.0"), wheel("2.0")
    async with Run(ws, approve=lambda s, a: True, resources={"lsp": False}) as run:
        r = await run.call("eval", cell("import sys\nsys.executable"))
        assert str(ws / ".venv" / "bin" / "python") in r.text
        r = await run.call("eval", cell(f"%pip install -q --no-index {one}\nimport mtprobe\nmtprobe.VERSION"))
        assert r.ok and "Out: '1.0'" in r.text, r.text
        r = await run.call("eval", cell(f"%pip install -q --no-index {two}\nimport mtprobe\nmtprobe.VERSION"))
        assert r.ok and "Out: '2.0'" in r.text, r.text


async def test_kernel_runs_under_the_enclosure_prefix(tmp_path: Path) -> None:
    class Enclosure:
        prefix: ClassVar[list[str]] = ["env", "MT_ENCLOSED=object"]

    for enclosure, expected in ((["env", "MT_ENCLOSED=list"], "list"), (Enclosure(), "object")):
        async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, enclosure=enclosure) as run:
            r = await run.call("eval", cell("import os\nos.environ.get('MT_ENCLOSED')"))
            assert r.ok and f"Out: '{expected}'" in r.text, r.text


async def test_eval_from_inside_a_cell_is_refused_not_deadlocked(run: Run) -> None:
    r = await run.call("eval", cell("tool('eval', {'code': '1', 'description': 'nested call from inside a cell'})"))
    assert not r.ok and "ToolCallError" in r.text and "busy" in r.text
    r = await run.call("eval", cell("'still alive'"))
    assert r.ok and "still alive" in r.text


async def test_a_cell_calls_ast_grep_through_the_bridge(run: Run, tmp_path: Path) -> None:
    if "ast_grep" not in run.registry.names():
        pytest.skip("ast_grep is not registered in this build")
    (tmp_path / "m.py").write_text("print(1)\nprint('two')\nlen([])\n")
    r = await run.call("eval", cell("r = tool('ast_grep', {'pattern': 'print($A)', 'path': '.', 'language': 'python'})\nprint(r)\nlen(r['data']['matches'])"))
    assert r.ok, r.text
    assert "m.py" in r.text
    assert r.data["bridge_calls"] == 1 and "Out: 2" in r.text


async def test_kernel_messages_are_traced_as_send_and_recv(tmp_path: Path) -> None:
    # one vocabulary for every wire: an auditor filtering on "recv" sees the kernel's replies too
    seen: list[tuple[str, str, object]] = []
    async with Run(tmp_path, approve=lambda spec, args: True, resources={"lsp": False},
                   trace=lambda direction, peer, message: seen.append((direction, peer, message))) as run:
        r = await run.call("eval", cell("6 * 7"))
        assert r.ok, r.text
    kernel = [(d, m) for d, p, m in seen if p == "kernel:python" and isinstance(m, dict)]
    assert any(d == "send" and m.get("type") == "execute" for d, m in kernel), kernel
    assert any(d == "recv" and m.get("type") == "result" for d, m in kernel), kernel
    assert not any(d == "receive" for d, _p, _m in seen)
