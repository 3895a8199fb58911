"""Grammars: where each language's compiled tree-sitter grammar loads from.

The loader prefers `vendored_grammars/` (a trimmed offline bundle written by
`minitools grammars vendor LANG…`, with a manifest of source version and sha256), then
`tree-sitter-language-pack` 0.13.0, the last release that bundles its grammars
(docs/reference.md, "Grammars"). `grammar_source(lang)` says which one a language uses.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from _thread import _local as _ThreadLocal  # threading.local, without the threading module
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import tree_sitter

from minitools.match._catalog import language_row

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "GrammarError",
    "GrammarSource",
    "VENDORED_DIR",
    "available_languages",
    "has_grammar",
    "grammar_source",
    "load_language",
    "UnsafeSource",
    "check_safe",
    "parse_source",
    "parse_watched",
    "parser_for",
    "vendor_grammars",
]

# vendored_grammars/ sits at the repository (or deployment) root, beside the package;
# MINITOOLS_GRAMMARS points elsewhere for a deployment that ships its bundle apart.
# Paths here are strings (os.path): pathlib costs a search's start-up some milliseconds.
VENDORED_DIR = os.environ.get("MINITOOLS_GRAMMARS") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "vendored_grammars")
MANIFEST = "manifest.json"
PACK = "tree-sitter-language-pack"


class GrammarError(LookupError):
    """No grammar for a language: not vendored and not in an installed language pack."""


class GrammarSource(NamedTuple):
    language: str
    origin: str  # "vendored" or "pack"
    location: str  # file the grammar was (or would be) loaded from
    version: str | None


@cache
def _manifest() -> dict[str, dict[str, str]]:
    path = os.path.join(VENDORED_DIR, MANIFEST)
    if not os.path.exists(path):  # no bundle: json stays unloaded
        return {}
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return {entry["language"]: entry for entry in data.get("grammars", [])}


def _pack_dir() -> str | None:
    try:
        spec = importlib.util.find_spec("tree_sitter_language_pack")
    except (ImportError, ValueError):  # a broken or blocked install: as if absent
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return str(next(iter(spec.submodule_search_locations)))


def _pack_version() -> str | None:
    try:
        from importlib.metadata import version

        return version(PACK)
    except Exception:  # noqa: BLE001 - metadata missing: a vendored copy of the pack without dist-info
        return None


def _load_extension(language: str, path: str) -> tree_sitter.Language:
    # The pack's bindings are extension modules exporting PyInit_<language>; loading one
    # under a private package name keeps it out of the pack's namespace and sys.modules.
    loader = importlib.machinery.ExtensionFileLoader(f"_minitools_grammar.{language}", path)
    spec = importlib.util.spec_from_file_location(f"_minitools_grammar.{language}", path, loader=loader)
    if spec is None:
        raise GrammarError(f"cannot load grammar {language!r} from {path}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return tree_sitter.Language(module.language())


@cache
def load_language(language: str) -> tree_sitter.Language:
    """The tree-sitter Language for `language` (a language-pack id), vendored first."""
    found = _locate(language)
    if found is not None and os.path.exists(found[1]):
        # the vendored file, or the pack's binding itself: importing the pack would load three
        # other grammars first
        return _load_extension(language, found[1])
    try:
        import tree_sitter_language_pack as pack
    except ImportError as exc:
        raise GrammarError(
            f"no grammar for {language!r}: it is not in {VENDORED_DIR} and {PACK} is not installed"
        ) from exc
    try:
        return pack.get_language(language)  # type: ignore[arg-type]
    except (LookupError, ValueError, AttributeError) as exc:
        raise GrammarError(f"no grammar for {language!r} in {PACK}; run `minitools grammars list` to see the languages") from exc


# grammars the pack loads without a file of their own under bindings/ (a fact of the pack's
# build, not of the languages)
_WITHOUT_BINDING = frozenset({"csharp", "embeddedtemplate", "yaml"})


def available_languages() -> list[str]:
    """Every language id a grammar can be loaded for (vendored or pack)."""
    names = set(_manifest())
    pack = _pack_dir()
    if pack is not None:
        bindings = os.path.join(pack, "bindings")
        names.update(n.split(".")[0] for n in (os.listdir(bindings) if os.path.isdir(bindings) else ()) if n.endswith(".so"))
        names.update(_WITHOUT_BINDING)
    return sorted(names)


def has_grammar(language: str) -> bool:
    """Whether a grammar can be loaded for `language`: `available_languages()` without listing
    the pack (a search's start-up asks about one language)."""
    return _locate(language) is not None


def _locate(language: str) -> tuple[str, str] | None:
    # where `language` loads from, without the pack's version: reading the installed
    # distributions' metadata costs a search's start-up some 20 ms. A vendored grammar is
    # <language>.abi3.so, as `vendor_grammars` names it: the manifest (and json) is read only
    # when that file is there
    vendored = os.path.join(VENDORED_DIR, f"{language}.abi3.so")
    if os.path.exists(vendored):
        entry = _manifest().get(language)
        if entry is not None and os.path.join(VENDORED_DIR, entry["file"]) == vendored:
            return "vendored", vendored
    pack = _pack_dir()
    if pack is not None:
        path = os.path.join(pack, "bindings", f"{language}.abi3.so")
        if os.path.exists(path) or language in _WITHOUT_BINDING:
            return "pack", path
    return None


def grammar_source(language: str) -> GrammarSource | None:
    """Where `language` loads from, or None when it is nowhere."""
    found = _locate(language)
    if found is None:
        return None
    origin, path = found
    if origin == "vendored":
        return GrammarSource(language, origin, path, _manifest()[language].get("version"))
    return GrammarSource(language, origin, path, _pack_version())


def _sha256(path: Path) -> str:
    import hashlib  # vendoring only: kept off the search's start-up

    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def vendor_grammars(languages: list[str], dest: Path | None = None) -> list[dict[str, str]]:
    """Copy the compiled grammars of `languages` out of the installed pack into `dest`
    (default `vendored_grammars/`) and merge them into its manifest. Returns the entries written."""
    import json  # vendoring only: these three are kept off the search's start-up
    import shutil
    from pathlib import Path

    dest = Path(dest or VENDORED_DIR)
    pack_dir = _pack_dir()
    if pack_dir is None:
        raise GrammarError(f"{PACK} is not installed; install it to vendor grammars from it")
    pack = Path(pack_dir)
    dest.mkdir(parents=True, exist_ok=True)
    manifest_path = dest / MANIFEST
    try:
        existing = json.loads(manifest_path.read_text(encoding="utf-8")).get("grammars", [])
    except (OSError, ValueError):
        existing = []
    entries = {e["language"]: e for e in existing}
    written = []
    for language in languages:
        source = pack / "bindings" / f"{language}.abi3.so"
        if not source.exists():
            raise GrammarError(f"{PACK} has no compiled grammar for {language!r} (looked for {source})")
        target = dest / source.name
        shutil.copyfile(source, target)
        entry = {
            "language": language,
            "file": target.name,
            "source": PACK,
            "version": _pack_version() or "unknown",
            "sha256": _sha256(target),
        }
        entries[language] = entry
        written.append(entry)
    body = {"grammars": [entries[k] for k in sorted(entries)]}
    manifest_path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    load_language.cache_clear()
    _manifest.cache_clear()
    return written


_local = _ThreadLocal()


def parser_for(language: str) -> tree_sitter.Parser:
    """A Parser for `language`, one per thread: a Parser must not parse in two threads at once."""
    parsers: dict[str, tree_sitter.Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = tree_sitter.Parser(load_language(language))
    return parser


class UnsafeSource(ValueError):
    """Source the language's parser would crash on, found before it is parsed: YAML whose
    block collections nest deeper than the grammar's scanner can hold (match/_yaml_nesting.py)."""

    skip_reason = "nested too deep to parse"  # how a search counts the files it skips for this


def parse_source(language: str, source: bytes) -> tree_sitter.Tree:
    """`source` parsed as `language`; UnsafeSource, before any parsing, for text that
    would crash the grammar's parser."""
    check_safe(language, source)
    return parser_for(language).parse(source)


def check_safe(language: str, source: bytes) -> None:
    """UnsafeSource when parsing `source` as `language` would crash the process."""
    if not language_row(language).deep_blocks_crash:
        return
    # loaded for such a grammar only: a search in another language does not pay its start-up
    from minitools.match._yaml_nesting import YAML_MAX_NESTING, yaml_nesting

    if yaml_nesting(source) > YAML_MAX_NESTING:
        raise UnsafeSource(f"YAML nested more than {YAML_MAX_NESTING} levels deep, past what its parser reads "
                           "without crashing")


def parse_watched(language: str, source: bytes, stop: Callable[[], bool]) -> tree_sitter.Tree | None:
    """`source` parsed as `language`, the parser asking `stop()` as it goes; None once it
    says True (what was built is let go): for a parse that could outrun a search's budget. A
    tree built that way reads its nodes' text back through a callback, so when the watched
    parse finishes the source is parsed again, plainly: the watch is for the rare parse near
    the budget's end, not for every file. UnsafeSource as parse_source raises it."""
    check_safe(language, source)
    parser = parser_for(language)
    try:
        watched = parser.parse(lambda offset, _point: source[offset:] if offset else source,
                               progress_callback=lambda _offset, _error: stop())
    except ValueError:  # cancelled: the binding's "Parsing failed"
        if not stop():
            raise
        parser.reset()  # the next parse starts afresh, not where this one stopped
        return None
    del watched
    return parser.parse(source)
