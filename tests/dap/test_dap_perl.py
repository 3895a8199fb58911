"""Perl::LanguageServer's debug adapter (apt libperl-languageserver-perl, setup/40-dap.sh) through
the `debug` tool, on a Perl program made here: the adapter listens on a port minitools gives it,
and the program run under `perl -d` connects back to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dap_helpers import launch_with, make_run, terminate_all
from minitools.dap import Adapter, DebugSupervisor, Detection, adapter_by_id, adapter_for_program, detect

PROGRAM = """\
use strict;
use warnings;

sub total {
    my ($items) = @_;
    my $sum = 0;
    for my $i (@$items) {
        $sum += $i;
    }
    return $sum;
}

my @list = (4, 5, 6);
my $label = 'numbers';
my $t = total(\\@list);
print "total $t\\n";
print STDERR "done\\n";
"""


@pytest.fixture
def perl_project(tmp_path: Path) -> Path:
    adapter = adapter_by_id("perl")
    assert adapter is not None
    (tmp_path / "cpanfile").write_text("requires 'perl', '5.016';\n")
    det = detect(tmp_path, adapter)
    if not det.usable:
        pytest.skip(f"the perl adapter is not usable here: {det.reason} (setup/40-dap.sh installs libperl-languageserver-perl)")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "sum.pl").write_text(PROGRAM)
    return tmp_path


async def test_perl_breakpoint_stack_variables_evaluate_step(perl_project: Path) -> None:
    async with make_run(perl_project) as run:
        r = await launch_with(run, "bin/sum.pl", [8])
        assert r.ok, r.text
        assert "perl" in r.text and "bin/sum.pl:8" in r.text and "$sum += $i;" in r.text, r.text
        r = await run.call("debug", {"op": "stack"})
        assert r.ok and [f["name"] for f in r.data["frames"]][:1] == ["total"], r.text
        assert "bin/sum.pl:15" in r.text, r.text  # the caller's line
        scopes = await run.call("debug", {"op": "scopes", "frame_id": r.data["frames"][0]["id"]})
        assert [s["name"] for s in scopes.data["scopes"]][:1] == ["Locals"], scopes.text
        r = await run.call("debug", {"op": "variables", "reference": scopes.data["scopes"][0]["reference"]})
        assert r.ok, r.text
        values = {v["name"]: v["value"] for v in r.data["variables"]}
        assert values.get("$i") == "4" and values.get("$sum") == "0" and values.get("$items") == "[4,5,6]", r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "$sum + $i * 10"})
        assert r.ok and r.data["result"] == "40", r.text
        # a step over the loop's body is the next turn of the loop (perl -d stops on the body again)
        r = await run.call("debug", {"op": "step_over"})
        assert r.ok and "bin/sum.pl:8" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "$i"})
        assert r.ok and r.data["result"] == "5", r.text
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "bin/sum.pl:8" in r.text, r.text  # the breakpoint, on the third turn
        r = await run.call("debug", {"op": "evaluate", "expression": "$sum"})
        assert r.ok and r.data["result"] == "9", r.text
        # the adapter's stepOut would end the program unanswered: refused, the program still stopped
        r = await run.call("debug", {"op": "step_out"})
        assert not r.ok and "refused with the perl adapter" in r.text and "set a breakpoint after the call" in r.text, r.text
        await run.call("debug", {"op": "breakpoints", "file": "bin/sum.pl", "lines": [16]})
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "bin/sum.pl:16" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "$t"})
        assert r.ok and r.data["result"] == "15", r.text
        await run.call("debug", {"op": "breakpoints", "file": "bin/sum.pl", "lines": []})
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "ended" in r.text and "exit code 0" in r.text, r.text
        out = await run.call("debug", {"op": "output"})
        assert "total 15" in out.text and "done" in out.text, out.text
        await terminate_all(run)


async def test_perl_step_in_conditional_breakpoint_and_terminate_mid_run(perl_project: Path) -> None:
    async with make_run(perl_project) as run:
        r = await launch_with(run, "bin/sum.pl", [15])
        assert r.ok and "bin/sum.pl:15" in r.text, r.text
        r = await run.call("debug", {"op": "step_in"})
        assert r.ok and "total bin/sum.pl:5" in r.text, r.text
        await run.call("debug", {"op": "breakpoints", "file": "bin/sum.pl", "lines": [{"line": 8, "condition": "$i == 6"}]})
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "bin/sum.pl:8" in r.text, r.text
        r = await run.call("debug", {"op": "evaluate", "expression": "$sum"})
        assert r.ok and r.data["result"] == "9", r.text  # 4 + 5: it stopped on the third turn only
        # the program is stopped at a breakpoint: terminate ends it, and the adapter
        await terminate_all(run)


def test_perl_adapter_is_found_by_program_and_needs_its_module(tmp_path: Path) -> None:
    adapter = adapter_by_id("perl")
    assert adapter is not None
    (tmp_path / "t.pl").write_text("print 1;\n")
    # perl on PATH proves nothing: the probe loads the module, and its failure is the reason given
    det = detect(tmp_path, adapter, probe=lambda argv: (False, f"{' '.join(argv)} exited with 2: Can't locate Perl/LanguageServer.pm"))
    assert not det.usable and "no root marker (cpanfile" in det.reason and "Can't locate Perl/LanguageServer.pm" in det.reason
    assert adapter_for_program(tmp_path / "t.pl") is adapter and adapter_for_program(tmp_path / "x.t") is adapter


async def test_an_adapter_that_exits_before_it_listens_is_said_with_its_stderr(tmp_path: Path) -> None:
    # the listen transport retries its connection while the adapter starts, and stops at its exit
    adapter = Adapter(id="gone", binaries=("sh",), args=(), markers=(), suffixes=(".x",), transport="listen")
    det = Detection(adapter, markers=["m"], command=["sh", "-c", "echo 'no port {port} for you' >&2; exit 3"])
    with pytest.raises(OSError, match=r"gone exited with 3; stderr: .*no port \d+ for you"):
        await DebugSupervisor().start_adapter(det, tmp_path)
