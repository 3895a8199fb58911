"""The catalog's servers for Perl, Fortran, Dockerfiles and Svelte, each against the real server on a
small project made here (setup/30-lsp.sh installs them: Perl::LanguageServer from apt, fortls from
PyPI, dockerfile-language-server-nodejs and svelte-language-server from npm). A server this machine
lacks skips its test, saying which and what installs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lsp_support import NODE_BIN, write
from minitools.lsp import Supervisor
from minitools.lsp._catalog import BUILT_IN


def needs(server: str, tmp_path: Path) -> None:
    """Skip unless `server` is installed, with the supervisor's own reason."""
    sup = Supervisor(tmp_path, search_path=[NODE_BIN])
    spec = BUILT_IN.spec(server)
    if sup.binary(spec) is None:
        candidate = next(c for c in sup.candidates(tmp_path / "__probe__", spec.languages[0]) if c.server == server)
        pytest.skip(f"{candidate.reason}; setup/30-lsp.sh installs it")


def places(r: Any) -> list[tuple[str, int]]:
    return sorted((loc["file"], loc["line"]) for loc in r.data["locations"])


def project(tmp_path: Path, run_factory: Any, server: str, files: dict[str, str]) -> tuple[Path, Any]:
    """`files` written in a folder of `tmp_path` and a Run on it, once `server` is known installed."""
    needs(server, tmp_path)
    root = write(tmp_path / "project", files)
    return root, run_factory(root)


async def navigated(tmp_path: Path, run_factory: Any, server: str) -> tuple[Path, Any]:
    """A Run on the server's project of NAVIGATION, its definition and references checked first."""
    files, at, place, body, used = NAVIGATION[server]
    root, run = project(tmp_path, run_factory, server, files)
    file, line, symbol = at
    r = await run.call("lsp", {"action": "definition", "file": file, "line": line, "symbol": symbol})
    assert r.ok and r.data["server"] == server, r.text
    assert places(r) == [place] and body in r.text, r.text
    if used is not None:  # the references of what the definition named, asked at the definition
        r = await run.call("lsp", {"action": "references", "file": place[0], "line": place[1], "symbol": symbol})
        assert places(r) == used, r.text
    return root, run


PERL = {
    "cpanfile": "requires 'perl', '5.016';\n",
    "lib/Greeter.pm": "package Greeter;\nuse strict;\nuse warnings;\nuse Exporter 'import';\nour @EXPORT_OK = ('greet');\n\n"
                      "# Greets people.\nsub greet {\n    my ($name) = @_;\n    return \"hello $name\";\n}\n\n"
                      "sub shout {\n    my ($name) = @_;\n    return uc $name;\n}\n\n1;\n",
    "main.pl": "use strict;\nuse warnings;\nuse lib 'lib';\nuse Greeter qw(greet);\n\nmy $who = 'x';\n"
               "print greet($who), \"\\n\";\nprint Greeter->greet('z'), \"\\n\";\n",
    "broken.pl": "use strict;\nmy $x = ;\n",
}


async def test_perl(tmp_path: Path, run_factory: Any) -> None:
    # references are by name, from the server's own parse of every file of the project
    root, run = await navigated(tmp_path, run_factory, "perl-language-server")
    r = await run.call("lsp", {"action": "references", "file": "main.pl", "line": 6, "symbol": "$who"})
    assert places(r) == [("main.pl", 6), ("main.pl", 7)], r.text
    r = await run.call("lsp", {"action": "symbols", "file": "lib/Greeter.pm"})
    assert {("greet", "function", 8), ("shout", "function", 13)} <= {(s["name"], s["kind"], s["line"]) for s in r.data["symbols"]}
    r = await run.call("lsp", {"action": "symbols", "query": "shout"})
    assert [(s["name"], s["file"]) for s in r.data["symbols"]] == [("shout", "lib/Greeter.pm")], r.text
    # diagnostics are `perl -c`'s, run by the server in the project (so `use lib 'lib'` resolves)
    r = await run.call("lsp", {"action": "diagnostics", "file": "broken.pl"})
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(2, "error")] and "syntax error" in r.text, r.text
    r = await run.call("lsp", {"action": "diagnostics", "file": "main.pl"})
    assert r.ok and r.data["diagnostics"] == [], r.text
    (root / "broken.pl").write_text("use strict;\nmy $x = 1;\n")
    r = await run.call("lsp", {"action": "diagnostics", "file": "broken.pl"})
    assert r.ok and r.data["diagnostics"] == [], r.text
    # what the server does not offer is said, and nothing is written
    r = await run.call("lsp", {"action": "hover", "file": "main.pl", "line": 7, "symbol": "greet"})
    assert not r.ok and "does not support hover" in r.text
    r = await run.call("lsp_rename", {"file": "lib/Greeter.pm", "line": 8, "symbol": "greet", "new_name": "hi"})
    assert not r.ok and "rename" in r.text
    assert (root / "main.pl").read_text() == PERL["main.pl"]
    # its parse cache is kept out of the project (the server's default is .vscode/perl-lang in it)
    assert not (root / ".vscode").exists()


async def test_perl_without_the_module_says_so(tmp_path: Path, run_factory: Any) -> None:
    # perl is everywhere; the server is a module of it: status says that the module is missing
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "perl"
    stub.write_text("#!/bin/sh\necho \"Can't locate Perl/LanguageServer.pm in @INC\" >&2\nexit 2\n")
    stub.chmod(0o755)
    root = write(tmp_path / "app", {"main.pl": "print 1;\n"})
    run = run_factory(root, lsp_path=[str(bin_dir)])
    r = await run.call("lsp", {"action": "status"})
    row = next(c for c in r.data["languages"]["perl"] if c["server"] == "perl-language-server")
    assert row["state"] == "no-binary" and "Can't locate Perl/LanguageServer.pm" in row["reason"], r.text
    assert "perl-language-server: no-binary" in r.text
    r = await run.call("lsp", {"action": "symbols", "file": "main.pl"})
    assert not r.ok and "-MPerl::LanguageServer -e 1` exited with 2" in r.text, r.text


FORTRAN = {
    "src/shapes.f90": "module shapes\n  implicit none\n  private\n  public :: area, square\n\n  type :: square\n"
                      "    real :: side\n  end type square\n\ncontains\n\n  !> Returns the area of a square.\n"
                      "  real function area(sq)\n    type(square), intent(in) :: sq\n    area = sq%side * sq%side\n"
                      "  end function area\n\nend module shapes\n",
    "src/main.f90": "program main\n  use shapes, only: area, square\n  implicit none\n  type(square) :: s\n  s%side = 2.0\n"
                    "  print *, area(s)\n  print *, area(s) + 1.0\nend program main\n",
    "src/twice.f90": "program twice\n  implicit none\n  integer :: x\n  real :: x\n  x = 1\nend program twice\n",
}


async def test_fortran(tmp_path: Path, run_factory: Any) -> None:
    # no fpm.toml nor .fortls: most Fortran folders have neither, and the server serves the root
    root, run = await navigated(tmp_path, run_factory, "fortls")
    r = await run.call("lsp", {"action": "hover", "file": "src/main.f90", "line": 6, "symbol": "area"})
    assert "Returns the area of a square." in r.text and "TYPE(square), INTENT(IN) :: sq" in r.text, r.text
    r = await run.call("lsp", {"action": "symbols", "file": "src/shapes.f90"})
    assert {("shapes", "module"), ("square", "class"), ("area", "function")} <= \
        {(s["name"], s["kind"]) for s in r.data["symbols"]}, r.text
    r = await run.call("lsp", {"action": "symbols", "query": "area"})
    assert [(s["name"], s["file"], s["line"]) for s in r.data["symbols"]] == [("area", "src/shapes.f90", 13)], r.text
    r = await run.call("lsp", {"action": "diagnostics", "file": "src/twice.f90"})
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(4, "error")] and "declared twice" in r.text, r.text
    r = await run.call("lsp_rename", {"file": "src/shapes.f90", "line": 13, "symbol": "area", "new_name": "surface"})
    assert r.ok and "6 edits in 2 files" in r.text, r.text
    assert (root / "src" / "main.f90").read_text().count("surface(s)") == 2
    assert "end function surface" in (root / "src" / "shapes.f90").read_text()


DOCKER = {
    "Dockerfile": "FROM debian:12 AS build\nARG VERSION=1.0\nENV APP_HOME=/app\nWORKDIR $APP_HOME\nRUN echo $VERSION\n"
                  "MAINTAINER someone\n\nFROM build\nCOPY --from=build /app /srv\n",
    "web/Dockerfile.prod": "FROM nginx\nrun echo hi\nCMD [\"nginx\"]\n",
}


async def test_dockerfile(tmp_path: Path, run_factory: Any) -> None:
    # a Dockerfile has no extension: it is served by its name (and the server offers no references)
    root, run = await navigated(tmp_path, run_factory, "dockerfile-language-server")
    r = await run.call("lsp", {"action": "definition", "file": "Dockerfile", "line": 9, "symbol": "build"})
    assert places(r) == [("Dockerfile", 1)], r.text
    r = await run.call("lsp", {"action": "hover", "file": "Dockerfile", "line": 4, "symbol": "WORKDIR"})
    assert "Set the working directory" in r.text, r.text
    r = await run.call("lsp", {"action": "symbols", "file": "Dockerfile"})
    assert [s["name"] for s in r.data["symbols"]] == ["FROM", "ARG", "ENV", "WORKDIR", "RUN", "MAINTAINER", "FROM", "COPY"]
    r = await run.call("lsp", {"action": "diagnostics", "file": "Dockerfile"})
    assert [(d["line"], d["severity"]) for d in r.data["diagnostics"]] == [(6, "warning")] and "deprecated" in r.text, r.text
    r = await run.call("lsp_rename", {"file": "Dockerfile", "line": 2, "symbol": "VERSION", "new_name": "APP_VERSION"})
    assert r.ok and "2 edits in 1 file" in r.text, r.text
    assert (root / "Dockerfile").read_text().count("APP_VERSION") == 2
    # Dockerfile.prod is one too; its lower-case instruction has a quick fix, staged for resolve
    r = await run.call("lsp", {"action": "code_actions", "file": "web/Dockerfile.prod", "line": 2})
    assert r.ok and r.data["server"] == "dockerfile-language-server" and "Convert instruction to uppercase" in r.text, r.text
    r = await run.call("lsp_code_action", {"file": "web/Dockerfile.prod", "line": 2, "action": "uppercase"})
    assert r.ok and "+RUN echo hi" in r.text, r.text
    r = await run.call("resolve", {"edit_id": r.data["edit_id"], "action": "accept"})
    assert r.ok and (root / "web" / "Dockerfile.prod").read_text() == "FROM nginx\nRUN echo hi\nCMD [\"nginx\"]\n", r.text


SVELTE = {
    "package.json": '{"name": "app", "private": true}\n',
    "src/math.ts": "/** Doubles a number. */\nexport function double(n: number): number {\n  return n * 2;\n}\n",
    "src/Counter.svelte": "<script lang=\"ts\">\n  import { double } from './math';\n  export let start: number = 0;\n"
                          "  let count = start;\n  function increment(): void {\n    count = double(count) + 1;\n  }\n</script>\n\n"
                          "<button on:click={increment}>{count}</button>\n<p>{undefinedThing}</p>\n",
    "src/App.svelte": "<script lang=\"ts\">\n  import Counter from './Counter.svelte';\n  import { double } from './math';\n"
                      "  const n: number = double(2);\n</script>\n\n<Counter start={n} />\n",
}


async def test_svelte(tmp_path: Path, run_factory: Any) -> None:
    # the script's TypeScript is answered by the server's own TypeScript service, across files
    root, run = await navigated(tmp_path, run_factory, "svelte-language-server")
    r = await run.call("lsp", {"action": "definition", "file": "src/App.svelte", "line": 7, "symbol": "Counter"})
    assert places(r) == [("src/Counter.svelte", 1)], r.text
    # the markup's use of a script function is a reference
    r = await run.call("lsp", {"action": "references", "file": "src/Counter.svelte", "line": 5, "symbol": "increment"})
    assert places(r) == [("src/Counter.svelte", 5), ("src/Counter.svelte", 10)], r.text
    r = await run.call("lsp", {"action": "symbols", "file": "src/Counter.svelte"})
    assert {("increment", "function"), ("count", "variable")} <= {(s["name"], s["kind"]) for s in r.data["symbols"]}, r.text
    # svelte's own check and TypeScript's, on the markup's undefined name
    r = await run.call("lsp", {"action": "diagnostics", "file": "src/Counter.svelte"})
    assert sorted((d["line"], d["severity"], d["code"]) for d in r.data["diagnostics"]) == \
        [(11, "error", "2304"), (11, "warning", "missing-declaration")], r.text
    r = await run.call("lsp", {"action": "hover", "file": "src/Counter.svelte", "line": 10, "symbol": "increment"})
    assert "(local function) increment(): void" in r.text, r.text
    r = await run.call("lsp", {"action": "code_actions", "file": "src/Counter.svelte", "line": 11})
    assert "Disable missing-declaration for this line" in r.text, r.text
    r = await run.call("lsp_rename", {"file": "src/Counter.svelte", "line": 4, "symbol": "count", "new_name": "total"})
    assert r.ok and "4 edits in 1 file" in r.text, r.text
    text = (root / "src" / "Counter.svelte").read_text()
    assert "let total = start;" in text and "{total}</button>" in text and "count" not in text


# server -> its project, a definition asked (file, line, symbol), where it leads, a line of the body
# shown, and the references of that symbol (None: the server offers none)
NAVIGATION: dict[str, tuple[dict[str, str], tuple[str, int, str], tuple[str, int], str, list[tuple[str, int]] | None]] = {
    "perl-language-server": (PERL, ("main.pl", 7, "greet"), ("lib/Greeter.pm", 8), 'return "hello $name";',
                             [("lib/Greeter.pm", 8), ("main.pl", 7), ("main.pl", 8)]),
    "fortls": (FORTRAN, ("src/main.f90", 6, "area"), ("src/shapes.f90", 13), "area = sq%side * sq%side",
               [("src/main.f90", 2), ("src/main.f90", 6), ("src/main.f90", 7),
                ("src/shapes.f90", 4), ("src/shapes.f90", 13), ("src/shapes.f90", 16)]),
    "dockerfile-language-server": (DOCKER, ("Dockerfile", 5, "VERSION"), ("Dockerfile", 2), "ARG VERSION=1.0", None),
    "svelte-language-server": (SVELTE, ("src/Counter.svelte", 6, "double"), ("src/math.ts", 2),
                               "export function double(n: number): number", None),
}
