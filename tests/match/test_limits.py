"""Search cost bounded by its input: dense files, deep nesting, huge patterns. Each search runs
in a process of its own, whose peak resident memory (ru_maxrss) its parent reports with its
answer: every case must end with a clear result in bounded memory. No timings: speed is
benchmarks/bench_match.py's business (docs/tools.md, "Limits")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from minitools.match import MAX_PATTERN_BYTES, MAX_PATTERN_DEPTH, Searcher, compile_pattern

# The child: runs one ast_grep call through a real Run and prints its result (texts cut short).
_TOOL_CALL = """
import asyncio, json, sys
from pathlib import Path
from minitools import Run

async def main():
    async with Run(Path(sys.argv[1])) as run:
        r = await run.call("ast_grep", json.loads(sys.argv[2]))
    for m in (r.data or {}).get("matches", []):
        m["text"] = m["text"][:200]
    return {"ok": r.ok, "text": r.text, "data": r.data}

print(json.dumps(asyncio.run(main())))
"""

# Runs a command and reports its peak memory as its parent sees it (RUSAGE_CHILDREN): a process
# forked from pytest itself would start from pytest's own peak (Linux keeps the high-water mark
# across exec), this small one's children do not.
_COMMAND = """
import json, resource, subprocess, sys
done = subprocess.run(json.loads(sys.argv[1]), input=sys.stdin.buffer.read(), capture_output=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
out = done.stdout if len(done.stdout) < 4 << 20 else done.stdout[-20000:]
sys.stdout.write(json.dumps({"code": done.returncode, "stdout": out.decode("utf-8", "replace"),
                             "stdout_bytes": len(done.stdout), "stderr": done.stderr[-4000:].decode("utf-8", "replace"),
                             "peak_mb": peak}))
"""


def _command(argv: list[str], stdin: bytes = b"") -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _COMMAND, json.dumps(argv)], input=stdin, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _tool(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    out = _command([sys.executable, "-c", _TOOL_CALL, str(root), json.dumps(args)])
    assert out["code"] == 0, out["stderr"]
    result: dict[str, Any] = json.loads(out["stdout"])
    result["peak_mb"] = out["peak_mb"]
    return result


def _dense(path: Path, size: int) -> int:
    """A one-line file of `print(1), ` repeated to `size` bytes: one `print($A)` match each."""
    count = size // len("print(1), ")
    path.write_text("print(1), " * count + "\n")
    return count


@pytest.mark.parametrize(("size", "peak_mb"), [(256 << 10, 150), (1 << 20, 300)])
def test_a_dense_file_is_counted_whole_and_only_the_page_is_built(tmp_path: Path, size: int, peak_mb: int) -> None:
    count = _dense(tmp_path / "dense.py", size)
    out = _tool(tmp_path, {"pattern": "print($A)", "language": "python", "max_results": 50})
    assert out["ok"], out["text"]
    assert out["text"].startswith(f"{count} matches of \"print($A)\"")
    assert out["data"]["total"] == count and out["data"]["exact"] and len(out["data"]["matches"]) == 50
    assert "showing 1-50 of" in out["text"]
    assert out["peak_mb"] < peak_mb, out["peak_mb"]


def test_the_cli_without_a_cap_prints_every_match_of_a_dense_file_in_bounded_memory(tmp_path: Path) -> None:
    count = _dense(tmp_path / "dense.py", 1 << 20)
    out = _command([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path / "dense.py"),
                    "--json=stream"])
    assert out["code"] == 0, out["stderr"]
    last = json.loads(out["stdout"].splitlines()[-1])
    assert last["text"] == "print(1)" and last["start"] == {"line": 1, "column": (count - 1) * 10 + 1}
    # every match printed: about 370 bytes of JSON each, some 37 MB in all, streamed
    assert out["stdout_bytes"] > count * 300
    assert out["peak_mb"] < 300, out["peak_mb"]


def test_the_forked_cli_streams_every_match_in_order_in_bounded_memory(tmp_path: Path) -> None:
    # twelve dense files: the one-shot search forks, and the children hand their matches over
    # file by file as the parent prints them (all of them at once took some 210 MB)
    counts = [_dense(tmp_path / f"d{k:02}.py", 128 << 10) for k in range(12)]
    out = _command([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path), "--json=stream"])
    assert out["code"] == 0, out["stderr"]
    assert out["stdout_bytes"] > sum(counts) * 300  # every match printed
    last = json.loads(out["stdout"].splitlines()[-1])
    assert last["file"] == "d11.py" and last["start"] == {"line": 1, "column": (counts[-1] - 1) * 10 + 1}
    assert out["peak_mb"] < 130, out["peak_mb"]


def test_a_file_just_under_the_skip_cap_ends_with_a_total_that_says_at_least(tmp_path: Path) -> None:
    count = _dense(tmp_path / "dense.py", (4 << 20) - 100)
    out = _tool(tmp_path, {"pattern": "print($A)", "language": "python", "max_results": 50})
    assert out["ok"], out["text"]
    data = out["data"]
    # counting past the page stops at a bound: a lower bound, said so, and the page is there
    assert not data["exact"] and data["truncated"] and 50 < data["total"] < count
    assert out["text"].startswith(f"at least {data['total']} matches of \"print($A)\"")
    assert f"showing 1-50 of at least {data['total']}" in out["text"] and len(data["matches"]) == 50
    assert out["peak_mb"] < 1000, out["peak_mb"]  # the tree of a dense 4 MiB file is most of it


def test_a_dense_file_s_parse_stops_at_the_memory_budget_instead_of_building_its_tree(tmp_path: Path) -> None:
    # the tree of a dense 4 MiB file alone takes some 600 MB: the parse itself is watched
    _dense(tmp_path / "dense.py", (4 << 20) - 100)
    out = _command([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path),
                    "--memory-budget", "100M", "--json=stream"])
    assert out["code"] == 1 and out["stdout_bytes"] == 0, out["stderr"]  # the parse never finished: nothing found
    assert "stopped after 100 MB: narrow the path or the pattern, or raise --memory-budget" in out["stderr"]
    assert out["peak_mb"] < 250, out["peak_mb"]


def test_nested_matches_share_the_source_instead_of_copying_it(tmp_path: Path) -> None:
    depth = 50_000
    (tmp_path / "nested.py").write_text("(" * depth + "x" + ")" * depth + "\n")
    out = _tool(tmp_path, {"pattern": "($A)", "language": "python", "max_results": 3})
    assert out["ok"], out["text"]
    assert out["data"]["total"] == depth
    # what the model reads is an excerpt: a line of 100,000 characters is cut
    first = out["text"].splitlines()[1]
    assert first.startswith("nested.py:1: ((((") and first.endswith("…") and len(first) < 300
    assert out["data"]["matches"][0]["end_byte"] == 2 * depth + 1
    assert out["peak_mb"] < 200, out["peak_mb"]


def test_a_pattern_nesting_500_levels_compiles_and_matches(tmp_path: Path) -> None:
    pattern = "print(" + "+".join(["x"] * 500) + ")"
    (tmp_path / "deep.py").write_text(f"{pattern}\nprint(x + x)\n")
    out = _tool(tmp_path, {"pattern": pattern, "language": "python"})
    assert out["ok"], out["text"]
    assert out["data"]["total"] == 1 and out["data"]["matches"][0]["start"] == {"line": 1, "column": 1}
    assert out["peak_mb"] < 200, out["peak_mb"]


def test_a_pattern_deeper_than_the_limit_is_refused_naming_it() -> None:
    pattern = "print(" + "+".join(["x"] * (MAX_PATTERN_DEPTH + 50)) + ")"
    with pytest.raises(ValueError, match=f"nests more than {MAX_PATTERN_DEPTH} levels deep, the limit for a pattern"):
        compile_pattern(pattern, "python")


def test_a_10_mb_pattern_through_serve_is_refused_at_once(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing to search\n")
    pattern = "print(" + "+".join(["x"] * 5_000_000) + ")"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "call", "params": {"tool": "ast_grep",
                                                                 "args": {"pattern": pattern, "language": "python"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "call", "params": {"tool": "ast_grep",
                                                                 "args": {"pattern": "print($A)", "language": "python"}}},
    ]
    script = "".join(json.dumps(line) + "\n" for line in lines).encode()
    out = _command([sys.executable, "-m", "minitools", "serve", "--root", str(tmp_path)], script)
    assert out["code"] == 0, out["stderr"]
    answers = {a["id"]: a for a in map(json.loads, out["stdout"].splitlines())}
    refused = answers[1]["result"]
    assert not refused["ok"]
    assert f"bytes, over the {MAX_PATTERN_BYTES >> 10} KiB limit for a pattern" in refused["text"]
    assert refused["text"].startswith("pattern \"print(x+x+") and len(refused["text"]) < 400
    assert answers[2]["result"]["ok"]  # the server goes on
    assert out["peak_mb"] < 200, out["peak_mb"]


def test_a_search_out_of_time_ends_with_what_it_found_and_says_so(tmp_path: Path) -> None:
    for k in range(3):
        (tmp_path / f"m{k}.py").write_text("print(1)\n")
    with Searcher(tmp_path, workers=1, max_seconds=0) as searcher:
        result = searcher.search(compile_pattern("print($A)", "python"))
    assert result.stopped == "stopped after 0 s" and result.total < 3


def test_the_cli_says_when_a_budget_stopped_the_search(tmp_path: Path) -> None:
    _dense(tmp_path / "dense.py", 256 << 10)
    done = subprocess.run([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path),
                           "--memory-budget", "1K"], capture_output=True, text=True, timeout=120)
    assert "stopped after 1 KB: narrow the path or the pattern, or raise --memory-budget" in done.stderr
    bad = subprocess.run([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path),
                          "--memory-budget", "lots"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "'lots' is not a size: write bytes, or a number with K, M or G (4M)" in bad.stderr


def test_the_file_size_cap_is_configurable(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("print(1)\n" * 200)
    with Searcher(tmp_path, workers=1, max_file_bytes=1000) as searcher:
        result = searcher.search(compile_pattern("print($A)", "python"))
    assert result.total == 0 and result.skipped == {"oversized": 1}


def test_a_rewrite_the_budget_cut_short_changes_nothing(tmp_path: Path) -> None:
    _dense(tmp_path / "dense.py", 64 << 10)
    before = (tmp_path / "dense.py").read_text()
    done = subprocess.run([sys.executable, "-m", "minitools.commands.ast_grep", "print($A)", str(tmp_path),
                           "--rewrite", "log($A)", "--apply", "--time-budget", "0.0001"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "finding the matches to rewrite (the search's budget)" in done.stderr
    assert "nothing was changed" in done.stderr and (tmp_path / "dense.py").read_text() == before


def _expanding_rule(tmp_path: Path) -> str:
    """A `replace` whose `by` is `$0` 5,000 times, over a 100 KB capture: 477 MB of text for
    one match (2.9 GB of memory before its size counted)."""
    (tmp_path / "a.py").write_text('x = "' + "a" * 100_000 + '"\n')
    by = "$0" * 5000
    return ("id: r\nlanguage: python\nrule:\n  kind: string_content\n  pattern: $S\ntransform:\n  T:\n"
            f'    replace:\n      source: $S\n      replace: "a+"\n      by: "{by}"\nfix: $T\n')


def test_a_transformation_that_would_build_gigabytes_stops_the_search_saying_so(tmp_path: Path) -> None:
    rule = _expanding_rule(tmp_path)
    result = _tool(tmp_path, {"rule": rule})
    assert result["ok"], result["text"]
    assert ("stopped where a rule's transformation would make a text of 477 MB (more than 16 MB): these are the "
            "matches found until then") in result["text"]
    assert result["peak_mb"] < 200, result["peak_mb"]
    (tmp_path / "r.yml").write_text(rule)
    out = _command([sys.executable, "-m", "minitools", "ast-grep", "scan", "--rule", str(tmp_path / "r.yml"),
                    "--root", str(tmp_path), str(tmp_path)])
    assert out["code"] == 0, out["stderr"]
    assert "a.py: stopped where a rule's transformation would make a text of 477 MB" in out["stderr"]
    assert out["peak_mb"] < 200, out["peak_mb"]
