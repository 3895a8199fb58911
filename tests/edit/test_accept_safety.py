"""`resolve accept` on a tree changed under it since staging: a folder swapped for a symlink out
of the root, a file replaced by a FIFO, a file made read-only, files deleted between the search and
staging. Every case is refused (or counted) with a message that says what to do, nothing is
written, and nothing outside the root is touched."""

from __future__ import annotations

import asyncio
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


def _commit(root: Path, files: list[tuple[str, bytes | None, bytes | None]]) -> None:
    from minitools.edits import EditStore, StagedEdit, StagedFile

    staged = [StagedFile(root / rel, rel, before, after, 1) for rel, before, after in files]
    EditStore.commit(StagedEdit("e", staged, ""), root)


def test_an_edit_creates_files_in_new_folders_and_deletes_files(tree: tuple[Path, Path]) -> None:
    """A server's file operations (a code action's new file, a rename's moved file) accepted as
    the other files are: reached by descriptor, folders made one by one, the new file with the
    mode the umask gives."""
    root, _ = tree
    os.chmod(root / "pkg" / "a.py", 0o640)
    _commit(root, [("pkg/new/deep/b.py", None, b"b = 1\n"), ("pkg/a.py", b"print(1)\n", None),
                   ("c.py", None, b"")])
    assert (root / "pkg" / "new" / "deep" / "b.py").read_bytes() == b"b = 1\n"
    assert not (root / "pkg" / "a.py").exists() and (root / "c.py").read_bytes() == b""
    umask = os.umask(0)
    os.umask(umask)
    assert (root / "pkg" / "new" / "deep" / "b.py").stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_failed_write_removes_what_it_made_and_restores_what_it_deleted(tree: tuple[Path, Path],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from minitools.edits import _staging

    root, _ = tree
    os.chmod(root / "pkg" / "a.py", 0o640)
    (root / "keep.py").write_bytes(b"k = 1\n")
    real = _staging._replace

    def failing(t: object, data: bytes) -> None:
        if getattr(t, "name", "") == "z.py":
            raise OSError(28, "No space left on device")
        real(t, data)  # type: ignore[arg-type]

    monkeypatch.setattr(_staging, "_replace", failing)
    with pytest.raises(_staging.WriteFailed) as failed:
        # written in order, deletions last: new/b.py and keep.py are written, then z.py fails
        _commit(root, [("new/b.py", None, b"b\n"), ("pkg/a.py", b"print(1)\n", None), ("keep.py", b"k = 1\n", b"k = 2\n"),
                       ("new/z.py", None, b"z\n")])
    assert failed.value.display == "new/z.py" and not failed.value.unrestored
    assert not (root / "new").exists()  # the folder it made is gone again
    assert (root / "keep.py").read_bytes() == b"k = 1\n" and (root / "pkg" / "a.py").read_bytes() == b"print(1)\n"
    assert (root / "pkg" / "a.py").stat().st_mode & 0o777 == 0o640


def test_a_file_to_create_that_exists_by_now_is_stale(tree: tuple[Path, Path]) -> None:
    from minitools.edits import StaleEdit

    root, _ = tree
    (root / "pkg" / "b.py").write_bytes(b"mine\n")
    with pytest.raises(StaleEdit):
        _commit(root, [("pkg/b.py", None, b"theirs\n"), ("pkg/a.py", b"print(1)\n", None)])
    assert (root / "pkg" / "b.py").read_bytes() == b"mine\n" and (root / "pkg" / "a.py").exists()


def test_a_folder_to_make_that_turns_into_a_symlink_out_of_the_root_is_not_followed(
        tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from minitools.edits import _staging

    root, outside = tree
    real = _staging._make_folders

    def racing(t: object, made: list[tuple[int, str]]) -> None:
        if not (root / "pkg" / "gen").exists():
            os.symlink(outside, root / "pkg" / "gen")  # between the check and the write
        real(t, made)  # type: ignore[arg-type]

    monkeypatch.setattr(_staging, "_make_folders", racing)
    with pytest.raises(_staging.WriteFailed):
        _commit(root, [("pkg/a.py", b"print(1)\n", b"print(2)\n"), ("pkg/gen/out.py", None, b"x\n")])
    assert list(outside.iterdir()) == [] and (root / "pkg" / "a.py").read_bytes() == b"print(1)\n"
    # and a folder that is a symlink already at the check is refused before anything is written
    with pytest.raises(_staging.UnsafeEdit, match="'gen' is now a symlink"):
        _commit(root, [("pkg/a.py", b"print(1)\n", b"print(2)\n"), ("pkg/gen/out.py", None, b"x\n")])
    assert list(outside.iterdir()) == [] and (root / "pkg" / "a.py").read_bytes() == b"print(1)\n"


async def test_an_accept_rejected_as_stale_is_said_to_be_rejected_later(tree: tuple[Path, Path]) -> None:
    # it was recorded as "accepted" when taken, so a second resolve said it had been accepted
    root, _ = tree
    async with Run(root, approve=lambda s, a: True, resources={"lsp": False}) as run:
        edit_id = await _stage(run)
        (root / "pkg" / "a.py").write_text("print(2)\n")
        first = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
        again = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
    assert not first.ok and "changed since the edit was staged" in first.text
    assert not again.ok and f'"{edit_id}" was already rejected: its files changed since it was staged' in again.text, again.text
    assert "accepted" not in again.text


async def test_accepts_at_once_write_one_edit_whole_and_say_what_became_of_each(tree: tuple[Path, Path]) -> None:
    # two edits of one file accepted at once could both find it unchanged and write in turn (the
    # commit runs in a thread); the same edit accepted twice at once was "already accepted" when
    # its first accept had not written anything yet
    root, _ = tree
    for i in range(20):
        (root / "pkg" / f"m{i}.py").write_text("print(1)\n" * 50)
    async with Run(root, approve=lambda s, a: True, resources={"lsp": False}) as run:
        ids = [await _stage(run, rewrite=f"log{n}($A)") for n in range(4)]
        calls = [run.call("resolve", {"edit_id": edit_id, "action": "accept"}) for edit_id in ids for _ in range(2)]
        results = await asyncio.gather(*calls)
    accepted = [r for r in results if r.ok]
    assert len(accepted) == 1, [r.text[:80] for r in results]
    winner = accepted[0].data["edit_id"]
    rewrite = f"log{ids.index(winner)}"
    for path in (root / "pkg").iterdir():
        assert set(path.read_text().split()) == {f"{rewrite}(1)"}, path
    for r in results:
        assert r.ok or "changed since the edit was staged" in r.text or "being accepted by another resolve call" in r.text, r.text


async def test_an_accept_cancelled_before_it_writes_leaves_the_edit_open(tree: tuple[Path, Path],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the edit was taken and recorded as accepted, then the cancel dropped it: neither open nor written
    root, _ = tree
    async with Run(root, approve=lambda s, a: True, resources={"lsp": False}) as run:
        edit_id = await _stage(run)
        waiting = asyncio.Event()

        async def slow_baseline(paths: list[str]) -> None:
            waiting.set()
            await asyncio.sleep(60)

        monkeypatch.setattr(run.ctx.diagnostics, "before_write", slow_baseline)
        call = asyncio.ensure_future(run.call("resolve", {"edit_id": edit_id, "action": "accept"}))
        await asyncio.wait_for(waiting.wait(), 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        monkeypatch.undo()
        again = await run.call("resolve", {"edit_id": edit_id, "action": "accept"})
    assert again.ok and (root / "pkg" / "a.py").read_text() == "log(1)\n", again.text
