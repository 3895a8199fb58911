"""The catalog's servers beyond the first eight languages, each against the real server
(setup/30-lsp.sh installs them from npm, shellcheck from apt): intelephense (PHP, also on Doctrine
ORM's real sources), bash-language-server, yaml-language-server, and the JSON, CSS and HTML servers
of vscode-langservers-extracted. None of them may reach the network: YAML's schema store is off,
a schema is read only from the project."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from corpora import wide
from lsp_support import write

PHP = {
    "src/Greeter.php": "<?php\nnamespace App;\n\n/** Greets people. */\nclass Greeter {\n"
                       "    public function greet(string $name): string {\n        return \"hello \" . $name;\n    }\n}\n",
    "src/main.php": "<?php\nnamespace App;\n\n$g = new Greeter();\necho $g->greet(\"x\");\n$g->nope(1);\n",
}


def places(r: Any) -> list[tuple[str, int]]:
    return sorted((loc["file"], loc["line"]) for loc in r.data["locations"])


async def test_php_without_composer_json(tmp_path: Path, run_factory: Any) -> None:
    # most PHP folders have no composer.json: the server serves from the workspace root
    run = run_factory(write(tmp_path / "site", PHP))
    r = await run.call("lsp", {"action": "definition", "file": "src/main.php", "line": 5, "symbol": "greet"})
    assert r.ok and r.data["server"] == "intelephense", r.text
    # the first query waits for the index the server begins after its first answer
    assert places(r) == [("src/Greeter.php", 6)] and "still" not in r.text, r.text
    r = await run.call("lsp", {"action": "hover", "file": "src/main.php", "line": 4, "symbol": "Greeter"})
    assert "Greets people." in r.text, r.text
    r = await run.call("lsp", {"action": "references", "file": "src/Greeter.php", "line": 6, "symbol": "greet"})
    assert places(r) == [("src/Greeter.php", 6), ("src/main.php", 5)]
    r = await run.call("lsp", {"action": "symbols", "file": "src/Greeter.php"})
    assert {("Greeter", "class"), ("greet", "method")} <= {(s["name"], s["kind"]) for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "diagnostics", "file": "src/main.php"})
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(6, "error")] and "nope" in r.text
    # rename is not in the free server: said, nothing written
    r = await run.call("lsp_rename", {"file": "src/Greeter.php", "line": 6, "symbol": "greet", "new_name": "hi"})
    assert not r.ok and "rename" in r.text
    assert (tmp_path / "site" / "src" / "main.php").read_text() == PHP["src/main.php"]


async def test_php_on_doctrine_orm(tmp_path: Path, run_factory: Any) -> None:
    root = tmp_path / "orm"
    shutil.copytree(wide("php") / "usr" / "share" / "php" / "Doctrine", root / "Doctrine")
    (root / "composer.json").write_text('{"name": "demo/orm", "autoload": {"psr-4": {"Doctrine\\\\ORM\\\\": "Doctrine/ORM/"}}}\n')
    # every call of ParameterTypeInferer::inferType, read from the sources
    calls = sorted((str(p.relative_to(root)), n) for p in root.rglob("*.php")
                   for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                   if re.search(r"ParameterTypeInferer::inferType\(", line))
    assert len(calls) >= 4
    inferer = "Doctrine/ORM/Query/ParameterTypeInferer.php"
    defined = next(n for n, line in enumerate((root / inferer).read_text().splitlines(), 1) if "function inferType" in line)
    run = run_factory(root)
    file, line = calls[0]
    r = await run.call("lsp", {"action": "definition", "file": file, "line": line, "symbol": "inferType"})
    assert r.ok and places(r) == [(inferer, defined)], r.text
    r = await run.call("lsp", {"action": "references", "file": inferer, "line": defined, "symbol": "inferType"})
    assert places(r) == sorted([*calls, (inferer, defined)]), r.text


async def test_bash(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "scripts", {
        "lib.sh": "#!/bin/bash\n# Says hello.\ngreet() {\n  echo \"hello $1\"\n}\n",
        "main.sh": "#!/bin/bash\nsource ./lib.sh\ngreet world\ngreet again\necho $UNQUOTED_PATH\n",
    })
    run = run_factory(root)
    r = await run.call("lsp", {"action": "definition", "file": "main.sh", "line": 3, "symbol": "greet"})
    assert r.ok and r.data["server"] == "bash-language-server" and places(r) == [("lib.sh", 3)], r.text
    r = await run.call("lsp", {"action": "references", "file": "lib.sh", "line": 3, "symbol": "greet"})
    assert places(r) == [("lib.sh", 3), ("main.sh", 3), ("main.sh", 4)]
    r = await run.call("lsp", {"action": "hover", "file": "main.sh", "line": 3, "symbol": "greet"})
    assert "Says hello." in r.text
    r = await run.call("lsp", {"action": "symbols", "file": "lib.sh"})
    assert [(s["name"], s["kind"]) for s in r.data["symbols"]] == [("greet", "function")]
    # shellcheck, run by the server: the unquoted expansion
    r = await run.call("lsp", {"action": "diagnostics", "file": "main.sh"})
    assert [(d["line"], d["code"]) for d in r.data["diagnostics"]] == [(5, "SC2086")], r.text
    r = await run.call("lsp_rename", {"file": "lib.sh", "line": 3, "symbol": "greet", "new_name": "salute"})
    assert r.ok, r.text
    assert (root / "main.sh").read_text().count("salute") == 2 and "salute()" in (root / "lib.sh").read_text()


async def test_bash_on_bash_completion(tmp_path: Path, run_factory: Any) -> None:
    # a real completion script: every use of its own function is found
    source = wide("bash") / "convert.bash"  # ImageMagick's: one helper called by every command
    root = tmp_path / "completions"
    root.mkdir()
    shutil.copy(source, root / source.name)
    text = source.read_text(encoding="utf-8").splitlines()
    defined = next(n for n, line in enumerate(text, 1) if re.match(r"_ImageMagick\(\)", line))
    uses = [n for n, line in enumerate(text, 1) if re.search(r"\b_ImageMagick\b", line)]
    run = run_factory(root)
    r = await run.call("lsp", {"action": "references", "file": source.name, "line": defined, "symbol": "_ImageMagick"})
    assert len(uses) > 5 and r.ok and [n for _, n in places(r)] == uses, r.text


async def test_yaml_syntax_and_a_local_schema(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "conf", {
        "schema.json": '{"type": "object", "properties": {"port": {"type": "integer", "description": "The port."}},'
                       ' "required": ["port"]}\n',
        "app.yaml": "# yaml-language-server: $schema=./schema.json\nport: eighty\n",
        "broken.yml": "items:\n  - a\nbad: [1, 2\n",
    })
    run = run_factory(root)
    r = await run.call("lsp", {"action": "diagnostics", "file": "broken.yml"})
    assert r.ok and r.data["server"] == "yaml-language-server", r.text
    assert [d["severity"] for d in r.data["diagnostics"]] == ["error"]
    r = await run.call("lsp", {"action": "diagnostics", "file": "app.yaml"})
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(2, "error")] and "integer" in r.text.lower(), r.text
    r = await run.call("lsp", {"action": "hover", "file": "app.yaml", "line": 2, "symbol": "port"})
    assert "The port." in r.text, r.text
    r = await run.call("lsp", {"action": "symbols", "file": "broken.yml"})
    assert {"items", "bad"} <= {s["name"] for s in r.data["symbols"]}


async def test_json_css_html(tmp_path: Path, run_factory: Any) -> None:
    root = write(tmp_path / "web", {
        "data.json": '{\n  "name": "demo",\n  "list": [1, 2,]\n}\n',
        "style.css": ".box { color: red; }\n.box:hover { colr: blue; }\n",
        "theme.scss": "$main: red;\n.card { color: $main; }\n",
        "page.html": '<!DOCTYPE html>\n<html>\n<head><title>t</title></head>\n<body>\n<main id="top">hi</main>\n</body>\n</html>\n',
    })
    run = run_factory(root)
    r = await run.call("lsp", {"action": "diagnostics", "file": "data.json"})
    assert r.data["server"] == "vscode-json-language-server"
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(3, "error")] and "comma" in r.text.lower()
    r = await run.call("lsp", {"action": "symbols", "file": "data.json"})
    assert {"name", "list"} <= {s["name"] for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "diagnostics", "file": "style.css"})
    assert [(d["line"], d["code"]) for d in r.data["diagnostics"]] == [(2, "unknownProperties")], r.text
    r = await run.call("lsp", {"action": "hover", "file": "style.css", "line": 1, "symbol": "color"})
    assert "color of an element's text" in r.text
    r = await run.call("lsp", {"action": "definition", "file": "theme.scss", "line": 2, "symbol": "$main"})
    assert places(r) == [("theme.scss", 1)], r.text
    r = await run.call("lsp", {"action": "symbols", "file": "page.html"})
    assert r.data["server"] == "vscode-html-language-server"
    assert {"html", "head", "body", "main#top"} <= {s["name"] for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "hover", "file": "page.html", "line": 5, "symbol": "<main"})
    assert "main" in r.text.lower() and r.data["hover"], r.text


async def test_the_warm_up_starts_no_server_without_a_project(tmp_path: Path, run_factory: Any) -> None:
    # YAML, JSON and the others have no root marker: a warm-up (`minitools mcp` does one at start)
    # would otherwise start them in every folder; they start on their first query
    root = write(tmp_path / "mixed", {"a.yaml": "x: 1\n", "b.json": "{}\n", "c.css": "a {}\n", "d.sh": "echo hi\n"})
    run = run_factory(root)
    await run.ctx.warmups[0]()
    r = await run.call("lsp", {"action": "status"})
    assert r.data["running"] == [], r.text
    r = await run.call("lsp", {"action": "symbols", "file": "a.yaml"})
    assert r.ok and [row["server"] for row in (await run.call("lsp", {"action": "status"})).data["running"]] == \
        ["yaml-language-server"]
