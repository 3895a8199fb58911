"""`resolve accept` on a tree changed under it since staging: a folder swapped for a symlink out
of the root, a file replaced by a FIFO, a file made read-only, files deleted between the search and
staging. Every case is refused (or counted) with a message that says what to do, nothing is
written, and nothing outside the root is touched."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from minitools import Run
from minitools.match import Searcher


async def _stage(run: Run, pattern: str = "print($A)", rewrite: str = "log($A)") -> str:
    staged = await run.call("ast_edit", {"pattern": pattern, "rewrite": rewrite, "language": "python"})
    assert staged.ok and staged.data["edit_id"], staged.text
    return staged.data["edit_id"]


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    outside.mkdir()
    (root / "pkg" / "a.py").write_text("print(1)\n")
    return root, outside


async def test_a_folder_swapped_for_a_symlink_out_of_the_root_is_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    async with Run(root, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        edit_id = await _stage(run)
        # pkg becomes a symlink to a folder outside the root holding a byte-identical a.py
        shutil.copy(root / "pkg" / "a.py", outside / "a.py")
        shutil.rmtree(root / "pkg")
        os.symlink(outside, root / "pkg")
        refused = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
        assert not refused.ok and "'pkg' is now a symlink" in refused.text and "Nothing was written" in refused.text
        assert (outside / "a.py").read_text() == "print(1)\n"  # nothing written outside the root
        # the edit stays open; once the folder is back, it can be accepted
        os.unlink(root / "pkg")
        (root / "pkg").mkdir()
        shutil.copy(outside / "a.py", root / "pkg" / "a.py")
        accepted = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
        assert accepted.ok, accepted.text
    assert (root / "pkg" / "a.py").read_text() == "log(1)\n"


async def test_a_file_replaced_by_a_fifo_is_refused_without_blocking(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    async with Run(root, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        edit_id = await _stage(run)
        os.unlink(root / "pkg" / "a.py")
        os.mkfifo(root / "pkg" / "a.py")
        refused = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})  # returns: no read blocks
        assert not refused.ok and "a FIFO" in refused.text and "pkg/a.py" in refused.text


async def test_a_read_only_file_is_refused_unless_forced(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    target = root / "pkg" / "a.py"
    async with Run(root, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        edit_id = await _stage(run)
        target.chmod(0o444)
        refused = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
        assert not refused.ok and "read-only (mode 444)" in refused.text and "force" in refused.text
        assert target.read_text() == "print(1)\n"
        forced = await run.call("resolve", {"edit_id": edit_id, "action": "accept", "force": True})
        assert forced.ok, forced.text
    assert target.read_text() == "log(1)\n" and (target.stat().st_mode & 0o777) == 0o444


class _DeletingSearcher(Searcher):
    """Fault injection beside the real searcher: it searches for real, then deletes the files
    it found, as another process might between the search and the staging."""

    def search(self, pattern, paths=None, **kwargs):  # type: ignore[no-untyped-def]
        result = super().search(pattern, paths, **kwargs)
        for m in result.matches:
            (self.root / m.path).unlink(missing_ok=True)
        return result


async def test_files_vanishing_between_search_and_staging_are_counted(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print(1)\n")
    (tmp_path / "b.py").write_text("print(2)\n")
    searcher = _DeletingSearcher(tmp_path)
    async with Run(tmp_path, resources={"lsp": False, "parser": searcher}, strict=True, approve=lambda spec, args: True) as run:
        r = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python"})
    assert r.ok and r.data["replacements"] == 0, r.text
    assert "2 matching files vanished before it could be staged" in r.text and "a.py" in r.text


async def test_a_folder_that_is_a_symlink_out_of_the_root_at_staging_is_never_written(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (outside / "b.py").write_text("print(2)\n")
    os.symlink(outside, root / "linked")
    async with Run(root, resources={"lsp": False}, approve=lambda spec, args: True) as run:
        staged = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python",
                                             "path": "linked/b.py"})
        if staged.ok and staged.data.get("edit_id"):  # staged through the link: accept must refuse it
            accepted = await run.call("resolve", {"edit_id": staged.data["edit_id"], "action": "accept"})
            assert not accepted.ok
        else:
            assert "outside the workspace root" in staged.text, staged.text
        walked = await run.call("ast_edit", {"pattern": "print($A)", "rewrite": "log($A)", "language": "python"})
        assert walked.ok and walked.data["replacements"] == 1, walked.text  # pkg/a.py only: the walk skips the link
    assert (outside / "b.py").read_text() == "print(2)\n"
