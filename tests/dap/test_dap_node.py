"""The node adapter (minitools' own, over the V8 inspector) driven through the `debug` tool as a
model would, on real node 20 programs: CommonJS, ESM, an async function awaiting a timer, an
uncaught and a caught exception, a program that starts a child, and node dying under a session."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dap_helpers import gone, make_run, process_name
from minitools import Run

pytestmark = [pytest.mark.timeout(120), pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/ installs it)")]

PROG = """\
function total(items) {
  let acc = 0;
  for (const x of items) {
    acc += x;
  }
  return acc;
}

const numbers = Array.from({ length: 120 }, (_, i) => i);
const info = { name: "minitools", tags: ["a", "b"], nested: { deep: 1 } };
const result = total(numbers);
console.log("result", result);
if (process.argv[2] === "boom") {
  throw new TypeError("boom from the program");
}
console.log("done", process.argv[2] || "", process.env.GREETING || "", process.cwd());
"""

LIB_MJS = """\
export function greet(name) {
  const text = `hello ${name}`;
  return text;
}
"""
MAIN_MJS = """\
import { greet } from "./lib.mjs";
const who = "esm";
const said = greet(who);
await new Promise((resolve) => setTimeout(resolve, 10));
console.log(said);
"""
ASYNC_JS = """\
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function work(n) {
  const before = n * 2;
  await sleep(20);
  const after = before + 1;
  return after;
}
async function outer() {
  const got = await work(20);
  return got;
}
outer().then((v) => console.log("async", v));
"""
CAUGHT_JS = """\
function risky() {
  throw new RangeError("handled");
}
try { risky(); } catch (e) { console.log("caught", e.message); }
console.log("after");
"""


@pytest.fixture
def jsproject(tmp_path: Path) -> Path:
    (tmp_path / "package.json").write_text('{"name": "t", "version": "0.0.0"}\n')
    (tmp_path / "prog.js").write_text(PROG)
    (tmp_path / "lib.mjs").write_text(LIB_MJS)
    (tmp_path / "main.mjs").write_text(MAIN_MJS)
    (tmp_path / "async.js").write_text(ASYNC_JS)
    (tmp_path / "caught.js").write_text(CAUGHT_JS)
    return tmp_path


async def debug(run: Run, **args: Any) -> Any:
    return await run.call("debug", args)


async def test_adapters_lists_node_and_why_not(jsproject: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    async with make_run(jsproject) as run:
        r = await debug(run, op="adapters")
        row = next(a for a in r.data["adapters"] if a["id"] == "node")
        assert row["usable"] and row["markers"] == ["package.json"], r.text
        assert row["command"][1:4] == ["-m", "minitools.inspector", "--runtime"] and row["command"][4].endswith("node")
    bare = tmp_path_factory.mktemp("bare")
    async with make_run(bare) as run:
        r = await debug(run, op="adapters")
        row = next(a for a in r.data["adapters"] if a["id"] == "node")
        assert not row["usable"] and row["reason"] == "no root marker (package.json)", r.text


async def test_commonjs_breakpoint_stack_scopes_variables_evaluate(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        assert (await debug(run, op="breakpoints", file="prog.js", lines=[4])).ok
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok, r.text
        assert "breakpoint prog.js:4: verified" in r.text and "stopped (breakpoint)" in r.text, r.text
        assert "at total prog.js:4  | acc += x;" in r.text, r.text
        stack = await debug(run, op="stack")
        assert [(f["name"], f["line"]) for f in stack.data["frames"]] == [("total", 4), ("(anonymous)", 11)], stack.text
        assert "node:internal" not in stack.text  # node's own frames are hidden
        top, module = (f["id"] for f in stack.data["frames"])
        r = await debug(run, op="evaluate", expression="acc + 1000 + items.length", frame_id=top)
        assert r.ok and r.data["result"] == "1120", r.text
        r = await debug(run, op="evaluate", expression="nosuch + 1", frame_id=top)
        assert not r.ok and "ReferenceError: nosuch is not defined" in r.text, r.text
        scopes = await debug(run, op="scopes", frame_id=module)
        assert [s["name"] for s in scopes.data["scopes"]][:1] == ["Local"] and "Global" in scopes.text, scopes.text
        local = await debug(run, op="variables", reference=scopes.data["scopes"][0]["reference"])
        assert 'name: "minitools"' in local.text and "info: Object" in local.text, local.text
        info = next(v for v in local.data["variables"] if v["name"] == "info")
        children = await debug(run, op="variables", reference=info["reference"])
        assert {v["name"]: v["value"] for v in children.data["variables"]} == {
            "name": '"minitools"', "tags": 'Array(2) ["a", "b"]', "nested": "{deep: 1}"}, children.text
        # an array of 120 items pages 50 at a time
        numbers = await debug(run, op="evaluate", expression="numbers", frame_id=module)
        page = await debug(run, op="variables", reference=numbers.data["reference"])
        assert [v["name"] for v in page.data["variables"]] == [str(i) for i in range(50)]
        assert page.data["more"] > 0 and "call variables with start=50" in page.text
        page2 = await debug(run, op="variables", reference=numbers.data["reference"], start=50)
        assert page2.data["variables"][0] == {"name": "50", "value": "50", "type": "number", "reference": 0}
        # a huge array is sliced in node: its first 10,000 items, never one message of them all
        huge = await debug(run, op="evaluate", expression="Array.from({length: 250000}, (_, i) => i * 3)", frame_id=module)
        assert huge.data["result"].startswith("Array(250000) [0, 3, 6"), huge.text
        page = await debug(run, op="variables", reference=huge.data["reference"], start=9990)
        assert [(v["name"], v["value"]) for v in page.data["variables"]] == [(str(i), str(i * 3)) for i in range(9990, 10000)]
        assert (await debug(run, op="breakpoints", file="prog.js", lines=[])).ok
        r = await debug(run, op="continue")
        assert r.ok and "ended with exit code 0" in r.text, r.text
        out = await debug(run, op="output")
        assert "result 7140" in out.text and "done" in out.text, out.text
        assert "Debugger" not in out.text  # node's words to the debugger are not the program's output
        pids = (await debug(run, op="terminate")).data["pids"]
    assert len(pids) == 2 and all(gone(p) for p in pids)


async def test_launch_with_args_env_and_cwd(jsproject: Path) -> None:
    (jsproject / "work").mkdir()
    async with make_run(jsproject) as run:
        r = await debug(run, op="launch", program="prog.js", args=["first"], env={"GREETING": "hi there"}, cwd="work")
        assert r.ok and "ended with exit code 0" in r.text, r.text
        assert f"done first hi there {jsproject.resolve() / 'work'}" in r.text, r.text
        r = await debug(run, op="terminate")
        r = await debug(run, op="launch", program="prog.js", cwd="nosuch")
        assert not r.ok and "nosuch" in r.text, r.text


async def test_condition_hit_count_and_log_point(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="prog.js", lines=[{"line": 4, "condition": "x === 37"}])
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok and "prog.js:4 if x === 37: verified" in r.text, r.text
        assert (await debug(run, op="evaluate", expression="x")).data["result"] == "37"
        await debug(run, op="terminate")

        await debug(run, op="breakpoints", file="prog.js", lines=[{"line": 4, "hit_condition": "5"}])
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok and "stopped (breakpoint)" in r.text, r.text
        assert (await debug(run, op="evaluate", expression="x")).data["result"] == "4"  # the fifth hit
        r = await debug(run, op="continue")  # ">= 5" is the default reading of "5": the next hit stops too
        assert (await debug(run, op="evaluate", expression="x")).data["result"] == "5", r.text
        await debug(run, op="terminate")

        await debug(run, op="breakpoints", file="prog.js", lines=[{"line": 4, "log_message": "x is {x}, `acc` {acc * 2}",
                                                                   "hit_condition": "%40"}])
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok and "ended with exit code 0" in r.text, r.text
        out = r.text + (await debug(run, op="output")).text
        assert "x is 39, `acc` 1482" in out and "x is 79, `acc` 6162" in out and "x is 0" not in out, out
        await debug(run, op="terminate")

        # a message is text as the program would print it; one that throws says so and goes on
        await debug(run, op="breakpoints", file="prog.js", lines=[{"line": 11, "log_message": 'tags "{info.tags.join(",")}"'},
                                                                  {"line": 12, "log_message": "{info.nope.deeper}"}])
        r = await debug(run, op="launch", program="prog.js")
        out = r.text + (await debug(run, op="output")).text
        assert 'tags "a,b"' in out and "[log point failed: TypeError: Cannot read properties of undefined" in out, out
        assert "ended with exit code 0" in r.text, r.text

        await debug(run, op="terminate")
        r = await debug(run, op="breakpoints", file="prog.js", lines=[{"line": 4, "hit_condition": "often"},
                                                                  {"line": 6, "condition": "acc ==="},
                                                                  {"line": 11, "log_message": "{acc +}"}])
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok and "NOT verified — hit condition 'often' is not understood" in r.text, r.text
        # V8 would read a condition that does not compile as false: it is refused instead
        assert "prog.js:6 if acc ===: NOT verified — the condition 'acc ===' is not JavaScript (SyntaxError" in r.text, r.text
        assert "prog.js:11 logs '{acc +}': NOT verified — the log message" in r.text, r.text
        assert "ended with exit code 0" in r.text, r.text


async def test_a_program_that_does_not_parse(jsproject: Path) -> None:
    (jsproject / "bad.js").write_text("const a = ;\n")
    async with make_run(jsproject) as run:
        r = await debug(run, op="launch", program="bad.js")
        assert r.ok and "stopped (exception: SyntaxError: Unexpected token ';')" in r.text, r.text
        r = await debug(run, op="continue")
        assert "ended with exit code 1" in r.text, r.text
        assert "bad.js:1" in (await debug(run, op="output")).text


async def test_step_in_over_out(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="prog.js", lines=[11])
        r = await debug(run, op="launch", program="prog.js")
        assert "prog.js:11" in r.text, r.text
        await debug(run, op="breakpoints", file="prog.js", lines=[])
        r = await debug(run, op="step_in")
        assert r.ok and "stopped (step)" in r.text and "at total prog.js:2" in r.text, r.text
        r = await debug(run, op="step_over")
        assert "at total prog.js:3" in r.text, r.text
        r = await debug(run, op="step_out")
        assert "prog.js:11" in r.text or "prog.js:12" in r.text, r.text
        r = await debug(run, op="step_over")
        assert "prog.js:12" in r.text or "prog.js:13" in r.text, r.text


async def test_esm_module_breakpoint_in_an_imported_file(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="lib.mjs", lines=[3])
        r = await debug(run, op="launch", program="main.mjs")
        assert r.ok and "at greet lib.mjs:3  | return text;" in r.text, r.text
        stack = await debug(run, op="stack")
        assert [(f["file"].rsplit("/", 1)[-1], f["line"]) for f in stack.data["frames"]][:2] == [("lib.mjs", 3), ("main.mjs", 3)]
        assert (await debug(run, op="evaluate", expression="text")).data["result"] == '"hello esm"'
        r = await debug(run, op="continue")
        assert "ended with exit code 0" in r.text and "hello esm" in (await debug(run, op="output")).text


async def test_async_function_awaiting_a_timer(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="async.js", lines=[6])
        r = await debug(run, op="launch", program="async.js")
        assert r.ok and "at work async.js:6  | return after;" in r.text, r.text
        r = await debug(run, op="evaluate", expression="[before, after]")
        assert r.data["result"] == "Array(2) [40, 41]", r.text
        # after the await, the code that awaited it: a label frame, then its frames
        stack = await debug(run, op="stack")
        assert [(f["name"], f["line"]) for f in stack.data["frames"]] == [
            ("work", 6), ("[await]", 0), ("outer", 9), ("(anonymous)", 12)], stack.text
        caller = stack.data["frames"][2]["id"]
        r = await debug(run, op="scopes", frame_id=caller)
        assert not r.ok and f"frame {caller} is code that awaited the stopped one" in r.text, r.text
        r = await debug(run, op="continue")
        assert "ended with exit code 0" in r.text and "async 41" in (await debug(run, op="output")).text


async def test_uncaught_exception_stops_and_ends_the_program(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        r = await debug(run, op="launch", program="prog.js", args=["boom"])
        assert r.ok and "stopped (exception: TypeError: boom from the program)" in r.text, r.text
        assert "at (anonymous) prog.js:14" in r.text and "is not handled by the program" in r.text, r.text
        r = await debug(run, op="continue")
        assert "ended with exit code 1" in r.text, r.text
        out = await debug(run, op="output")
        assert "TypeError: boom from the program" in out.text, out.text


async def test_caught_exceptions_stop_only_with_the_all_filter(jsproject: Path) -> None:
    async with make_run(jsproject) as run:
        r = await debug(run, op="launch", program="caught.js")
        assert "ended with exit code 0" in r.text and "caught handled" in r.text, r.text
        await debug(run, op="terminate")
        r = await debug(run, op="launch", program="caught.js", exception_filters=["all"])
        assert "stopped (exception: RangeError: handled)" in r.text and "caught.js:2" in r.text, r.text
        assert "continue goes on from here" in r.text, r.text
        r = await debug(run, op="continue")
        assert "ended with exit code 0" in r.text, r.text
        await debug(run, op="terminate")
        r = await debug(run, op="launch", program="caught.js", exception_filters=["raised"])
        assert not r.ok and "no exception filter 'raised'; its filters are: all, uncaught" in r.text, r.text


async def test_pause_a_running_program_and_its_child_ends_with_the_session(jsproject: Path) -> None:
    (jsproject / "spin.js").write_text(
        'const { spawn } = require("child_process");\n'
        'const child = spawn("sleep", ["300"], { stdio: "ignore" });\n'
        'globalThis.sleeper = child.pid;\n'
        'globalThis.ticks = 0;\n'
        'setInterval(() => {\n'
        '  globalThis.ticks += 1;\n'
        '}, 5);\n')
    async with make_run(jsproject, debug_timeout=3.0) as run:
        r = await debug(run, op="launch", program="spin.js")
        assert not r.ok and "timed out" in r.text, r.text  # it runs on: launch waits for a first stop
        r = await debug(run, op="pause")
        # an idle program pauses in node's timer dispatch: those frames are named, not hidden
        assert r.ok and "stopped (pause)" in r.text and "[node:internal/timers:" in r.text, r.text
        r = await debug(run, op="pause")  # stopped already: it says so again
        assert r.ok and "stopped (pause)" in r.text, r.text
        sleeper = int((await debug(run, op="evaluate", expression="sleeper")).data["result"])
        ticks = int((await debug(run, op="evaluate", expression="ticks")).data["result"])
        assert ticks > 0 and not gone(sleeper)
        await debug(run, op="breakpoints", file="spin.js", lines=[6])
        r = await debug(run, op="continue")
        assert "at (anonymous) spin.js:6" in r.text, r.text
        pids = (await debug(run, op="terminate")).data["pids"]
    assert all(gone(p) for p in [*pids, sleeper])


async def test_node_killed_mid_session_is_reported(jsproject: Path) -> None:
    import os
    import signal

    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="prog.js", lines=[4])
        assert (await debug(run, op="launch", program="prog.js")).ok
        session = run.ctx.resources["debug"].slot(run.conversation_id).session
        os.kill(session.debuggee_pid, signal.SIGKILL)
        for _ in range(200):
            if "ended" in (r := await debug(run, op="status")).text:
                break
            await asyncio.sleep(0.05)
        assert "the program has ended with exit code -9" in r.text, r.text
        r = await debug(run, op="stack")
        assert not r.ok and "the program has ended" in r.text, r.text


GEOMETRY_TS = """\
export interface Point {
  x: number;
  y: number;
}

export function norm(p: Point): number {
  const squared: number = p.x * p.x + p.y * p.y;
  return Math.sqrt(squared);
}
"""
MAIN_TS = """\
import { norm, Point } from "./geometry";

type Label = string;

const points: Point[] = [{ x: 3, y: 4 }, { x: 6, y: 8 }];
for (const p of points) {
  const label: Label = `(${p.x}, ${p.y})`;
  console.log(label, norm(p));
}
"""
TSC = Path(__file__).resolve().parents[2] / "node_modules" / ".bin" / "tsc"


@pytest.fixture
def tsproject(jsproject: Path) -> Path:
    if not TSC.exists():
        pytest.skip("typescript is not installed in node_modules (setup/30-lsp.sh installs it)")
    (jsproject / "src").mkdir()
    (jsproject / "src" / "geometry.ts").write_text(GEOMETRY_TS)
    (jsproject / "src" / "main.ts").write_text(MAIN_TS)
    (jsproject / "tsconfig.json").write_text('{"compilerOptions": {"target": "es2020", "module": "commonjs", "sourceMap": true, '
                                             '"outDir": "dist", "rootDir": "src", "strict": true}}\n')
    subprocess.run([str(TSC), "-p", str(jsproject)], check=True, timeout=120)
    return jsproject


async def test_typescript_breakpoints_and_frames_in_ts_lines(tsproject: Path) -> None:
    async with make_run(tsproject) as run:
        await debug(run, op="breakpoints", file="src/geometry.ts", lines=[8])
        await debug(run, op="breakpoints", file="src/main.ts", lines=[{"line": 7, "condition": "p.x === 6"}])
        r = await debug(run, op="launch", program="dist/main.js")
        assert r.ok, r.text
        assert "breakpoint src/geometry.ts:8: verified" in r.text and "src/main.ts:7 if p.x === 6: verified" in r.text, r.text
        # the first norm() call comes before the condition holds on main.ts:7
        assert "at norm src/geometry.ts:8  | return Math.sqrt(squared);" in r.text, r.text
        stack = await debug(run, op="stack")
        assert [(f["file"].rsplit("/", 1)[-1], f["line"]) for f in stack.data["frames"]] == [("geometry.ts", 8), ("main.ts", 8)]
        assert (await debug(run, op="evaluate", expression="squared")).data["result"] == "25"
        r = await debug(run, op="continue")
        assert "at (anonymous) src/main.ts:7" in r.text, r.text
        assert (await debug(run, op="evaluate", expression="p.y")).data["result"] == "8"
        r = await debug(run, op="step_over")
        assert "src/main.ts:8" in r.text, r.text
        await debug(run, op="breakpoints", file="src/geometry.ts", lines=[])
        await debug(run, op="breakpoints", file="src/main.ts", lines=[])
        r = await debug(run, op="continue")
        assert "ended with exit code 0" in r.text, r.text
        assert "(6, 8) 10" in (await debug(run, op="output")).text


async def test_typescript_without_compiled_output_says_why_not_bound(jsproject: Path) -> None:
    (jsproject / "lone.ts").write_text("const a: number = 1;\nconsole.log(a);\n")
    async with make_run(jsproject) as run:
        await debug(run, op="breakpoints", file="lone.ts", lines=[2])
        r = await debug(run, op="launch", program="prog.js")
        assert r.ok and "lone.ts:2: NOT verified — no compiled JavaScript names lone.ts in its source map" in r.text, r.text


SERVER_JS = """\
const http = require("http");
let hits = 0;
const server = http.createServer((req, res) => {
  hits += 1;
  res.end(`hit ${hits}\\n`);
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
"""


def _start_server(root: Path, *node_args: str) -> tuple[subprocess.Popen[bytes], int]:
    (root / "server.js").write_text(SERVER_JS)
    proc = subprocess.Popen(["node", *node_args, "server.js"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    return proc, port


def _get(port: int) -> str:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
        return str(answer.read().decode())


async def _request_stops_at_the_handler(run: Run, port: int, hit: int = 1) -> None:
    r = await debug(run, op="breakpoints", file="server.js", lines=[5])
    assert "server.js:5: verified" in r.text, r.text
    request = asyncio.get_running_loop().run_in_executor(None, _get, port)
    r = await debug(run, op="continue")  # the program runs: continue waits for its next stop
    assert r.ok and "stopped (breakpoint)" in r.text and "server.js:5  | res.end(`hit ${hits}\\n`);" in r.text, r.text
    assert (await debug(run, op="evaluate", expression="hits")).data["result"] == str(hit)
    if hit == 1:  # attached, what the program logs with console is its output
        await debug(run, op="evaluate", expression='console.log("said while attached")')
        assert "said while attached" in (await debug(run, op="output")).text
    stack = await debug(run, op="stack")
    assert stack.data["frames"][0]["name"] == "(anonymous)" and "node:internal" not in stack.text
    await debug(run, op="breakpoints", file="server.js", lines=[])
    r = await debug(run, op="continue")  # the server answers and waits for more: no next stop comes
    assert not r.ok and "timed out" in r.text, r.text
    assert await asyncio.wait_for(request, 30) == f"hit {hit}\n"


async def test_attach_by_pid_to_an_http_server(jsproject: Path) -> None:
    # --inspect-port=0: the inspector SIGUSR1 opens takes a free port, not 9229 (tests run side by side)
    proc, port = _start_server(jsproject, "--inspect-port=127.0.0.1:0")
    try:
        async with make_run(jsproject, debug_timeout=3.0) as run:
            r = await debug(run, op="attach", pid=proc.pid)
            assert r.ok and f"attached process {proc.pid} (node) with node" in r.text and "state: running" in r.text, r.text
            await _request_stops_at_the_handler(run, port)
            await debug(run, op="terminate")
        assert proc.wait(timeout=10) is not None  # the process attached to ends with the session
    finally:
        proc.kill()
        proc.communicate()


async def test_attach_by_inspector_port(jsproject: Path) -> None:
    proc, port = _start_server(jsproject, "--inspect=127.0.0.1:0")
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().decode()
        inspector = int(line.split("ws://127.0.0.1:", 1)[1].split("/", 1)[0])
        async with make_run(jsproject, debug_timeout=3.0) as run:
            r = await debug(run, op="attach", port=port, adapter="node")  # the HTTP server is no inspector
            assert not r.ok and f"port {port} answered GET /json/list" in r.text, r.text
            r = await debug(run, op="attach", port=inspector)  # debugpy by default: the error says what to try
            assert not r.ok and f"if port {inspector} is a process started with node --inspect=PORT, attach with adapter node" in r.text, r.text
            r = await debug(run, op="attach", port=inspector, adapter="node")
            assert r.ok and f"attached port {inspector} with node" in r.text, r.text
            await _request_stops_at_the_handler(run, port, hit=2)  # the server took the GET /json/list above as its first request
            await debug(run, op="terminate")
        assert proc.wait(timeout=10) is not None
    finally:
        proc.kill()
        proc.communicate()


async def test_attach_by_pid_to_a_process_that_is_gone_or_not_node(jsproject: Path) -> None:
    proc = subprocess.Popen(["node", "-e", "0"])
    proc.wait()
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        async with make_run(jsproject) as run:
            r = await debug(run, op="attach", pid=proc.pid, adapter="node")
            assert not r.ok and f"no process {proc.pid}" in r.text, r.text
            # SIGUSR1 would end a process that is not node: it is not sent
            r = await debug(run, op="attach", pid=sleeper.pid, adapter="node")
            assert not r.ok and f"process {sleeper.pid} runs sleep, not node; SIGUSR1 would end it" in r.text, r.text
            assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()


KILLED_HOST = """
import asyncio, sys
from pathlib import Path
from minitools import Run

async def main(root):
    run = Run(Path(root), approve=lambda spec, args: True)
    await run.call("debug", {"op": "breakpoints", "file": "spawns.js", "lines": [3]})
    result = await run.call("debug", {"op": "launch", "program": "spawns.js"})
    assert result.ok and "stopped" in result.text, result.text
    print("started", flush=True)
    await asyncio.sleep(600)

asyncio.run(main(sys.argv[1]))
"""


async def test_the_program_and_its_child_die_with_a_host_killed_with_sigkill(jsproject: Path) -> None:
    import os
    import sys

    from minitools.transport import descendants

    (jsproject / "spawns.js").write_text('const { spawn } = require("child_process");\n'
                                         'const child = spawn("sleep", ["3000"], { stdio: "ignore", detached: true });\n'
                                         'console.log(child.pid);\n')
    host = await asyncio.create_subprocess_exec(sys.executable, "-c", KILLED_HOST, str(jsproject), stdout=asyncio.subprocess.PIPE)
    try:
        assert host.stdout is not None
        assert await asyncio.wait_for(host.stdout.readline(), 60) == b"started\n"
        tree = descendants(host.pid)
        watched = [p for p in tree if process_name(p).split(" ")[0].endswith("/node") or process_name(p).startswith("sleep 3000")]
        assert len(watched) == 2, [(p, process_name(p)) for p in tree]
    finally:
        host.kill()
        await host.wait()
    for _ in range(200):
        if all(gone(p) for p in watched):
            break
        await asyncio.sleep(0.05)
    left = [(p, process_name(p)) for p in watched if not gone(p)]
    for pid, _ in left:
        os.kill(pid, 9)
    # the sleep left node's process group (detached): the reaper node runs under takes it anyway
    assert not left, f"outlived their host's SIGKILL: {left}"


APP_TS = """\
interface Item {
  name: string;
  price: number;
}

function total(items: Item[]): number {
  let sum: number = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}

const items: Item[] = [{ name: "pen", price: 2 }, { name: "book", price: 12 }];
const result: number = total(items);
console.log("total", result);
"""
NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"


async def test_a_ts_program_through_ts_node(jsproject: Path) -> None:
    if not (NODE_MODULES / "ts-node" / "package.json").is_file():
        pytest.skip("ts-node is not installed in node_modules (setup/30-lsp.sh installs it)")
    (jsproject / "app.ts").write_text(APP_TS)
    (jsproject / "tsconfig.json").write_text('{"compilerOptions": {"module": "commonjs", "target": "es2020", "strict": true}}\n')
    async with make_run(jsproject) as run:
        r = await debug(run, op="launch", program="app.ts")
        assert not r.ok and "it needs ts-node in the project's node_modules" in r.text and "npm install --save-dev ts-node" in r.text, r.text
        (jsproject / "node_modules").symlink_to(NODE_MODULES)
        # a top-level line (ts-node compiles the module and node runs it at once) and one in a function
        await debug(run, op="breakpoints", file="app.ts", lines=[9, 16])
        r = await debug(run, op="launch", program="app.ts")
        assert r.ok and "through node_modules/ts-node (-r ts-node/register/transpile-only)" in r.text, r.text
        assert "at total app.ts:9  | sum += item.price;" in r.text, r.text
        assert (await debug(run, op="evaluate", expression="item")).data["result"] == '{name: "pen", price: 2}'
        await debug(run, op="breakpoints", file="app.ts", lines=[16])
        r = await debug(run, op="continue")
        assert "at (anonymous) app.ts:16  | console.log(" in r.text, r.text
        assert (await debug(run, op="evaluate", expression="result")).data["result"] == "14"
        r = await debug(run, op="continue")
        assert "ended with exit code 0" in r.text and "total 14" in (await debug(run, op="output")).text, r.text


async def test_function_breakpoint_threads_and_an_explicit_exit_code(jsproject: Path) -> None:
    (jsproject / "quits.js").write_text('console.log("leaving");\nprocess.exit(3);\n')
    async with make_run(jsproject) as run:
        r = await debug(run, op="breakpoints", file="prog.js", lines=[{"function": "total"}])
        assert r.ok, r.text
        r = await debug(run, op="launch", program="prog.js")
        # node takes no function breakpoints by name: the parser's first line of the body is used
        assert "function total: a line breakpoint on prog.js:2" in r.text and "at total prog.js:2  | let acc = 0;" in r.text, r.text
        threads = await debug(run, op="threads")
        session = run.ctx.resources["debug"].slot(run.conversation_id).session
        assert threads.data["threads"] == [{"id": 1, "name": f"node {session.debuggee_pid}"}], threads.text
        await debug(run, op="terminate")
        r = await debug(run, op="launch", program="quits.js")
        assert "ended with exit code 3" in r.text and "leaving" in r.text, r.text
