"""Language servers a configuration file adds or changes ([[lsp.servers]]), driving real
servers: a server for files the catalog does not serve, and a built-in replaced by its id."""

from __future__ import annotations

from pathlib import Path

from minitools import Run

PYW = "def launch(count):\n    return count + 1\n\n\nclass Window:\n    pass\n"


async def test_a_configured_server_serves_files_the_catalog_does_not(tmp_path: Path) -> None:
    (tmp_path / "tool.pyw").write_text(PYW)
    (tmp_path / "minitools.toml").write_text(
        '[[lsp.servers]]\nid = "pyw"\ncommand = ["pylsp"]\nlanguages = ["python"]\nextensions = [".pyw"]\n')
    async with Run(tmp_path) as plain:  # without the configuration: no server for .pyw
        refused = await plain.call("lsp", {"action": "symbols", "file": "tool.pyw"})
    assert not refused.ok and ".pyw" in refused.text
    async with Run(tmp_path, config=True) as run:
        symbols = await run.call("lsp", {"action": "symbols", "file": "tool.pyw"})
        status = await run.call("lsp", {"action": "status"})
    assert symbols.ok, symbols.text
    assert {("launch", 1), ("Window", 5)} <= {(s["name"], s["line"]) for s in symbols.data["symbols"]}
    assert "pyw: running root ." in status.text


async def test_a_configured_server_with_a_built_in_id_takes_its_place(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    (tmp_path / "minitools.toml").write_text(
        '[[lsp.servers]]\nid = "basedpyright"\ncommand = ["no-such-language-server"]\nlanguages = ["python"]\n'
        'extensions = [".py"]\nroot_markers = ["pyproject.toml"]\n\n[lsp]\nprefer = { python = ["basedpyright"] }\n')
    async with Run(tmp_path, config=True) as run:
        hover = await run.call("lsp", {"action": "hover", "file": "m.py", "line": 1, "symbol": "f"})
    assert not hover.ok
    assert "basedpyright: no-such-language-server is not installed" in hover.text
