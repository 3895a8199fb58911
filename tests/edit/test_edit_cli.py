"""`minitools ast-grep … --rewrite T [--apply]` for people and scripts."""

from __future__ import annotations

import subprocess
import sys


def ast_grep(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "minitools", "ast-grep", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_rewrite_previews_then_apply_writes(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\nx = 'print(2)'\n")
    preview = ast_grep("print($A)", "--rewrite", "log($A)", "a.py", cwd=tmp_path)
    assert preview.returncode == 0, preview.stderr
    assert "-print(1)\n+log(1)\n" in preview.stdout
    assert (tmp_path / "a.py").read_text() == "print(1)\nx = 'print(2)'\n"
    applied = ast_grep("print($A)", "a.py", "--rewrite", "log($A)", "--apply", cwd=tmp_path)
    assert applied.returncode == 0 and "applied 1 replacements in 1 files" in applied.stderr
    assert (tmp_path / "a.py").read_text() == "log(1)\nx = 'print(2)'\n"
    none = ast_grep("print($A)", "--rewrite", "log($A)", "a.py", cwd=tmp_path)
    assert none.returncode == 1 and none.stdout == ""


def test_rewrite_usage_errors(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n")
    unbound = ast_grep("print($A)", "--rewrite", "log($B)", "a.py", cwd=tmp_path)
    assert unbound.returncode == 2 and "uses $B" in unbound.stderr
    apply_alone = ast_grep("print($A)", "--apply", "a.py", cwd=tmp_path)
    assert apply_alone.returncode == 2 and "--apply needs --rewrite" in apply_alone.stderr
    assert (tmp_path / "a.py").read_text() == "print(1)\n"


def test_apply_never_writes_through_a_symlinked_file_that_leaves_the_root(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.py").write_text("print(1)\n")
    (root / "link_out.py").symlink_to("../outside/secret.py")
    refused = ast_grep("print($A)", "--rewrite", "log($A)", "--apply", "link_out.py", cwd=root)
    assert refused.returncode != 0
    assert '"link_out.py"' in refused.stderr and "outside the root" in refused.stderr
    assert (outside / "secret.py").read_text() == "print(1)\n"
    # named as itself, the outside file is the user's to rewrite
    named = ast_grep("print($A)", "--rewrite", "log($A)", "--apply", str(outside / "secret.py"), cwd=root)
    assert named.returncode == 0, named.stderr
    assert (outside / "secret.py").read_text() == "log(1)\n"
    # a search (no write) still reads through the link
    found = ast_grep("log($A)", "link_out.py", cwd=root)
    assert found.returncode == 0 and "log(1)" in found.stdout


def test_a_language_whose_reading_binds_nothing_is_skipped_not_the_rewrite(tmp_path):
    # in YAML `print($A)` is one plain scalar that binds nothing: the rewrite goes on in the
    # languages where it binds $A, as ast-grep's does; a $B bound nowhere is still refused
    (tmp_path / "a.py").write_text("print(1)\n")
    (tmp_path / "b.js").write_text("print(2);\n")
    (tmp_path / "c.yaml").write_text("key: print(3)\n")
    preview = ast_grep("print($A)", "--rewrite", "log($A)", ".", cwd=tmp_path)
    assert preview.returncode == 0, preview.stderr
    assert "+log(1)\n" in preview.stdout and "+log(2);\n" in preview.stdout and "c.yaml" not in preview.stdout
    unbound = ast_grep("print($A)", "--rewrite", "log($B)", ".", cwd=tmp_path)
    assert unbound.returncode == 2 and "uses $B" in unbound.stderr
