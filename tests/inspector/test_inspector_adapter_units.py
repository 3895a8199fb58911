"""The node adapter's pure parts: source maps (whole, and under hypothesis: whatever arrives is a
map or ValueError), log point messages (run by real node), hit conditions, value rendering and
the output pipes."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minitools.inspector._breakpoints import log_expression, parse_hit_condition
from minitools.inspector._output import OutputPipe
from minitools.inspector._sourcemap import load_for, parse
from minitools.inspector._values import render

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def vlq(value: int) -> str:
    """Base64 VLQ as the source map format writes it (the inverse of what is tested)."""
    n = (-value << 1) | 1 if value < 0 else value << 1
    out = ""
    while True:
        digit, n = n & 31, n >> 5
        out += B64[digit | (32 if n else 0)]
        if not n:
            return out


def mappings(lines: list[list[tuple[int, int, int, int]]]) -> str:
    """Absolute (generated column, source, original line, original column) segments per line,
    written relative as the format wants."""
    prev_src = prev_line = prev_col = 0
    groups = []
    for segs in lines:
        prev_gen, parts = 0, []
        for gen, src, line, col in segs:
            parts.append("".join(vlq(v) for v in (gen - prev_gen, src - prev_src, line - prev_line, col - prev_col)))
            prev_gen, prev_src, prev_line, prev_col = gen, src, line, col
        groups.append(",".join(parts))
    return ";".join(groups)


def test_a_map_read_both_ways(tmp_path: Path) -> None:
    # generated line 0 maps nowhere (tsc's "use strict"), line 1 to a.ts:2, line 2 to a.ts:4 and b.ts:0
    text = json.dumps({"version": 3, "sources": ["../src/a.ts", "../src/b.ts"], "sourceRoot": "",
                       "mappings": mappings([[], [(0, 0, 2, 0), (4, 0, 2, 6)], [(0, 0, 4, 0), (10, 1, 0, 2)]])})
    smap = parse(text, tmp_path / "dist")
    a, b = str(tmp_path / "src" / "a.ts"), str(tmp_path / "src" / "b.ts")
    assert smap.sources == [a, b]
    assert smap.original(0, 0) is None
    assert smap.original(1, 5) == (a, 2) and smap.original(2, 12) == (b, 0) and smap.original(2, 3) == (a, 4)
    assert smap.generated(a, 2) == (1, 0)
    assert smap.generated(a, 3) == (2, 0)  # a line without code: the next that has some
    assert smap.generated(b, 0) == (2, 10) and smap.generated("/elsewhere.ts", 0) is None


def test_maps_named_by_file_and_by_data_url(tmp_path: Path) -> None:
    text = json.dumps({"version": 3, "sources": ["x.ts"], "mappings": "AAAA"})
    (tmp_path / "x.js.map").write_text(text)
    by_file = load_for((tmp_path / "x.js").as_uri(), "x.js.map")
    assert by_file is not None and by_file.sources == [str(tmp_path / "x.ts")]
    import base64

    inline = "data:application/json;base64," + base64.b64encode(text.encode()).decode()
    by_data = load_for((tmp_path / "x.js").as_uri(), inline)
    assert by_data is not None and by_data.original(0, 0) == (str(tmp_path / "x.ts"), 0)
    assert load_for((tmp_path / "x.js").as_uri(), "missing.map") is None
    (tmp_path / "bad.map").write_text('{"version": 3, "sources": ["x.ts"], "mappings": "A!"}')
    assert load_for((tmp_path / "x.js").as_uri(), "bad.map") is None


@pytest.mark.parametrize("text, why", [
    ("not json", "not JSON"), ('{"version": 2, "mappings": ""}', "version 3"), ("[]", "version 3"),
    ('{"version": 3, "sources": [], "mappings": "AAAA"}', "out of range"),
    ('{"version": 3, "sources": ["a"], "mappings": "g"}', "cut short"),
    ('{"version": 3, "sources": ["a"], "mappings": "gggggggggggggggA"}', "too long"),
])
def test_a_bad_map_is_a_value_error_that_says_why(text: str, why: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=why):
        parse(text, tmp_path)


segment = st.tuples(st.integers(0, 500), st.integers(0, 2), st.integers(0, 300), st.integers(0, 80))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(segment, max_size=6).map(lambda segs: sorted(set(segs))), max_size=20))
def test_encoded_segments_read_back(lines: list[list[tuple[int, int, int, int]]]) -> None:
    text = json.dumps({"version": 3, "sources": ["a.ts", "b.ts", "c.ts"], "mappings": mappings(lines)})
    smap = parse(text, Path("/p"))
    for number, segs in enumerate(lines):
        for gen in {s[0] for s in segs}:
            _, src, line, _ = [s for s in segs if s[0] == gen][-1]  # of segments at one column, the last counts
            assert smap.original(number, gen) == (smap.sources[src], line)
        if segs:
            first = segs[0]
            found = smap.generated(smap.sources[first[1]], first[2], look_ahead=0)
            assert found is not None and found <= (number, first[0])


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=B64 + ",;!{}\"", max_size=200), st.lists(st.text(max_size=5), max_size=3))
def test_any_mappings_parse_or_raise_value_error(text: str, sources: list[str]) -> None:
    try:
        smap = parse(json.dumps({"version": 3, "sources": sources, "mappings": text}), Path("/p"))
    except ValueError as exc:
        assert str(exc).startswith("source map: ")
    else:
        assert len(smap.lines) == text.count(";") + 1


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/ installs it)")
def test_log_messages_as_node_reads_them() -> None:
    cases = {
        "x is {x}": "x is 3",
        "sum {x + y} of {x} and {y}": "sum 7 of 3 and 4",
        "`tick` $x \\n {{literal}}": "`tick` $x \\n {literal}",
        "dollar ${x}": "dollar $3",
        "unclosed {x": "unclosed {x",
        "empty {} braces": "empty {} braces",
    }
    program = "const x = 3, y = 4;\n" + "".join(f"console.log({log_expression(m)});\n" for m in cases)
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=30, check=True).stdout
    assert out.splitlines() == list(cases.values())


def test_hit_conditions() -> None:
    allows = {text: [h for h in range(1, 13) if parse_hit_condition(text).allows(h)]
              for text in ("3", ">=3", "==3", "=3", ">10", "<3", "<=2", "%4", " 5 ")}
    assert allows == {"3": list(range(3, 13)), ">=3": list(range(3, 13)), "==3": [3], "=3": [3], ">10": [11, 12],
                      "<3": [1, 2], "<=2": [1, 2], "%4": [4, 8, 12], " 5 ": list(range(5, 13))}
    for bad in ("often", "3x", ">=", "-1", ""):
        with pytest.raises(ValueError, match=f"hit condition {bad!r} is not understood; write a count such as 3"):
            parse_hit_condition(bad)


def test_values_render_as_javascript_reads() -> None:
    # RemoteObjects as node 20 sends them (Runtime.evaluate with generatePreview)
    assert render({"type": "number", "value": 42, "description": "42"}) == "42"
    assert render({"type": "number", "unserializableValue": "NaN", "description": "NaN"}) == "NaN"
    assert render({"type": "string", "value": 'say "hi"'}) == '"say \\"hi\\""'
    assert render({"type": "undefined"}) == "undefined"
    assert render({"type": "object", "subtype": "null", "value": None}) == "null"
    assert render({"type": "bigint", "unserializableValue": "12n", "description": "12n"}) == "12n"
    assert render({"type": "function", "className": "Function", "description": "function total(items) {\n  return 1;\n}",
                   "objectId": "1"}) == "ƒ total(items)"
    assert render({"type": "function", "className": "Function", "description": "(a) => a + 1", "objectId": "1"}) == "(a) => a + 1"
    assert render({"type": "object", "subtype": "array", "className": "Array", "description": "Array(2)", "objectId": "1",
                   "preview": {"type": "object", "subtype": "array", "description": "Array(2)", "overflow": False,
                               "properties": [{"name": "0", "type": "string", "value": "a"},
                                              {"name": "1", "type": "number", "value": "2"}]}}) == 'Array(2) ["a", 2]'
    assert render({"type": "object", "className": "Object", "description": "Object", "objectId": "1",
                   "preview": {"type": "object", "description": "Object", "overflow": True,
                               "properties": [{"name": "a", "type": "object", "value": "Object"},
                                              {"name": "b", "type": "object", "subtype": "null", "value": "null"}]}}) \
        == "{a: Object, b: null, …}"
    assert render({"type": "object", "subtype": "error", "className": "TypeError", "objectId": "1",
                   "description": "TypeError: bad\n    at f (/p.js:1:1)"}) == "TypeError: bad"
    assert render({"type": "string", "value": "x" * 1000}).endswith("…")


async def test_output_pipes_drop_the_inspector_lines_and_keep_utf8_whole() -> None:
    got: list[tuple[str, str]] = []
    err = OutputPipe("stderr", lambda c, t: got.append((c, t)), filter_inspector=True)
    for chunk in (b"Debugger listening on ws://127.0.0.1:1/x\nFor help, see: https://nodejs.org/en/docs/inspector\n",
                  b"Debugger attached.\nreal warn", b"ing \xc3", b"\xa9\nWaiting for the debugger to disconnect...\n",
                  b"last words without a newline", b""):
        err.feed(chunk)
    assert "".join(t for _, t in got) == "real warning é\nlast words without a newline"
    assert err.ended.done()
    got.clear()
    out = OutputPipe("stdout", lambda c, t: got.append((c, t)))
    for chunk in (b"caf\xc3", b"\xa9 Debugger attached.\n", b""):
        out.feed(chunk)
    assert got == [("stdout", "caf"), ("stdout", "é Debugger attached.\n")]
    await asyncio.sleep(0)


class _Client:
    """What the adapter needs of its DAP server, recording the events it sends."""

    def __init__(self) -> None:
        self.handlers: dict[str, object] = {}
        self.events: list[tuple[str, dict[str, object] | None]] = []

    def send_event(self, event: str, body: dict[str, object] | None = None) -> None:
        self.events.append((event, body))


async def test_console_events_past_the_queue_bound_are_dropped_and_said_once() -> None:
    from minitools.inspector._adapter import NodeAdapter
    from minitools.inspector._events import MAX_QUEUED
    from minitools.inspector._session import CDPEvent

    client = _Client()
    adapter = NodeAdapter(client, "node")  # type: ignore[arg-type]
    for _ in range(MAX_QUEUED + 500):
        adapter._take(CDPEvent("Runtime.consoleAPICalled", {"type": "log", "args": []}))
    adapter._take(CDPEvent("Debugger.scriptParsed", {"scriptId": "1", "url": "file:///p.js"}))
    assert adapter._events.qsize() == MAX_QUEUED + 1  # every event but console ones is kept
    notes = [body for event, body in client.events if event == "output"]
    assert len(notes) == 1 and "console output is dropped" in str(notes[0])
    assert set(client.handlers) >= {"launch", "attach", "setBreakpoints", "evaluate", "disconnect"}
