"""ast_edit and resolve through Run.call, as a model calls them."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from minitools import Run


def approve_all(spec, args):
    return True


def make_project(root: Path) -> dict[str, bytes]:
    files = {
        "a/one.py": b"def f():\n    print('one')\n    print(1,\n          2)\n",
        "b/two.py": b"print('two')\n",
        "c/three.py": b"x = 'print(3)'  # print(3)\n",
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return files


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.py"))}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    make_project(tmp_path)
    return tmp_path


def run_for(root: Path, **kw) -> Run:
    kw.setdefault("approve", approve_all)
    return Run(root, resources={"lsp": False}, **kw)


async def test_propose_stages_nothing_on_disk_then_accept_writes(project):
    before = snapshot(project)
    async with run_for(project) as run:
        proposed = await run.call("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "language": "python"})
        assert proposed.ok, proposed.text
        assert proposed.text.startswith('(proposed) 3 replacements in 2 files … call resolve with edit_id "edit_1"')
        assert "\n-    print('one')\n" in proposed.text and "\n+    log('one')\n" in proposed.text
        assert snapshot(project) == before  # nothing written yet
        data = proposed.data
        assert data["edit_id"] == "edit_1" and data["replacements"] == 3
        assert [(f["file"], f["replacements"]) for f in data["files"]] == [("a/one.py", 2), ("b/two.py", 1)]
        assert data["files"][0]["edits"][1] == {"line": 3, "before": "print(1,\n          2)", "after": "log(1,\n          2)"}
        accepted = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        assert accepted.ok, accepted.text
        assert "accepted edit_1: wrote 3 replacements in 2 files." in accepted.text
        assert accepted.data["written"] == ["a/one.py", "b/two.py"]
    after = snapshot(project)
    assert after["a/one.py"] == b"def f():\n    log('one')\n    log(1,\n          2)\n"
    assert after["b/two.py"] == b"log('two')\n"
    assert after["c/three.py"] == before["c/three.py"]  # strings and comments untouched


async def test_one_file_changed_after_staging_rejects_the_whole_edit(project):
    async with run_for(project) as run:
        await run.call("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "language": "python"})
        (project / "b/two.py").write_bytes(b"print('changed by someone else')\n")
        before = snapshot(project)
        rejected = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        assert not rejected.ok
        assert "edit_1 rejected: b/two.py changed since the edit was staged, so nothing was written" in rejected.text
        assert rejected.data["changed"] == ["b/two.py"]
        assert snapshot(project) == before  # every file byte-identical
        again = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        assert not again.ok and "already rejected: its files changed since it was staged" in again.text


async def test_a_write_failure_half_way_rolls_back(project):
    before = snapshot(project)
    async with run_for(project) as run:
        await run.call("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "language": "python"})
        # b/ becomes immutable: the temporary file for b/two.py cannot be created, after a/one.py was written
        subprocess.run(["chattr", "+i", str(project / "b")], check=True)
        try:
            failed = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        finally:
            subprocess.run(["chattr", "-i", str(project / "b")], check=True)
    assert not failed.ok
    assert "failed while writing b/two.py" in failed.text and "nothing changed" in failed.text
    assert failed.data["restored"] == ["a/one.py"]
    assert snapshot(project) == before
    assert not list(project.rglob("*minitools-tmp"))


async def test_discard_and_unknown_ids(project):
    before = snapshot(project)
    async with run_for(project) as run:
        await run.call("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "language": "python"})
        await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "show($A)", "path": "b/two.py"})
        discarded = await run.call("resolve", {"edit_id": "edit_1", "action": "discard"})
        assert discarded.ok and "discarded edit_1" in discarded.text and "nothing was written" in discarded.text
        used = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        assert not used.ok and 'edit_id "edit_1" was already discarded' in used.text and '"edit_2"' in used.text
        unknown = await run.call("resolve", {"edit_id": "edit_9", "action": "accept"})
        assert not unknown.ok and 'no staged edit has edit_id "edit_9". Open edits: "edit_2".' in unknown.text
        bad_action = await run.call("resolve", {"edit_id": "edit_2", "action": "keep"})
        assert not bad_action.ok and "action" in bad_action.text
    assert snapshot(project) == before


async def test_file_mode_is_kept(project):
    script = project / "b/two.py"
    os.chmod(script, 0o755)
    async with run_for(project) as run:
        await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "show($A)", "path": "b/two.py"})
        assert (await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})).ok
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    assert script.read_bytes() == b"show('two')\n"


async def test_zero_matches_stage_nothing(project):
    async with run_for(project) as run:
        result = await run.call("ast_edit", {"pattern": "nothing_here($A)", "rewrite": "x($A)", "language": "python"})
        assert result.ok and "nothing was staged" in result.text and result.data["edit_id"] is None
        unknown = await run.call("resolve", {"edit_id": "edit_1", "action": "accept"})
        assert not unknown.ok and "Open edits: none" in unknown.text


async def test_unbound_metavariable_and_bad_pattern_are_errors(project):
    async with run_for(project) as run:
        unbound = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($B)", "language": "python"})
        assert not unbound.ok and "uses $B, which the pattern" in unbound.text
        broken = await run.call("ast_edit", {"pattern": "print($A", "rewrite": "log($A)", "language": "python"})
        assert not broken.ok and "unparseable" in broken.text
        outside = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "path": "../x.py"})
        assert not outside.ok and "outside the workspace root" in outside.text


async def test_a_rewrite_that_breaks_the_parse_is_reported(project):
    async with run_for(project) as run:
        result = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "print($A", "path": "b/two.py"})
        assert result.ok
        assert "warning: b/two.py:1 no longer parses after this rewrite" in result.text
        assert result.data["no_longer_parses"][0]["file"] == "b/two.py"


async def test_long_diffs_are_cut_with_the_total(tmp_path):
    (tmp_path / "big.py").write_text("".join(f"print({i})\n" for i in range(2000)))
    async with run_for(tmp_path) as run:
        result = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "path": "big.py"})
        assert result.ok and "diff cut at" in result.text
        assert len(result.text) < 8000
        assert result.data["replacements"] == 2000 and len(result.data["files"][0]["edits"]) == 2000


async def test_write_tier_needs_approval(project):
    before = snapshot(project)
    async with Run(project, resources={"lsp": False}) as run:
        refused = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python"})
        assert not refused.ok and "no approver" in refused.text
        plan = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python"}, surface="plan")
        assert not plan.ok and "not available on the plan surface" in plan.text
        assert "ast_edit" not in {s.name for s in run.tools("plan")}
    assert snapshot(project) == before


async def test_without_a_language_a_reading_that_binds_nothing_is_skipped_with_a_note(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n")
    (tmp_path / "c.yaml").write_text("key: print(3)\n")
    async with run_for(tmp_path) as run:
        proposed = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)"})
        assert proposed.ok and proposed.data["replacements"] == 1, proposed.text
        assert "not searched: 1 yaml file (the pattern binds no $A there)" in proposed.text
        # with the language named, the reading that binds nothing is refused as before
        refused = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "yaml"})
        assert not refused.ok and "does not bind" in refused.text
