"""A rule project: `sgconfig.yml` (ruleDirs, utilDirs, testConfigs), its rule files (YAML or
JSON, several rules a file separated by `---`), its global utility rules and its rule tests.

A project is input like any other: a rule file that is a FIFO or a link to /dev/zero, a file
that is not UTF-8 or is huge, a rule folder that is `/` are refused with a RuleError naming the
path, before anything hangs, exhausts memory or raises."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from minitools.rules._config import RuleConfig, RuleError, UtilRule, read_config, read_util, resolve_globals
from minitools.rules._languages import language_id
from minitools.rules._yaml import YamlError, load_documents

__all__ = ["Project", "RuleTest", "load_project", "load_rule_text", "load_rule_file", "load_tests", "read_documents"]

RULE_SUFFIXES = (".yml", ".yaml", ".json")
MAX_FILE_BYTES = 4 << 20  # a rule file, a utility file, a test file, sgconfig.yml
MAX_WALK_ENTRIES = 100_000  # files and folders a rule, utility or test folder may hold


class RuleTest(NamedTuple):
    id: str
    valid: list[str]
    invalid: list[str]
    file: str


class Project(NamedTuple):
    root: Path  # the folder of sgconfig.yml: `files`/`ignores` globs are relative to it
    rules: list[RuleConfig]
    utils: dict[str, UtilRule]
    test_dirs: list[Path]
    errors: list[tuple[str, str]]  # (rule file, why it cannot run): the other rules still run
    unread: int = 0  # rule files of languages the caller said it does not need, left unread
    # each test folder's snapshot folder (testConfigs' snapshotDir, default __snapshots__, in it)
    snapshot_dirs: tuple[Path, ...] = ()


def read_documents(text: str, where: str) -> list[Any]:
    """The documents of a rule file's text: JSON when it parses as JSON, else YAML."""
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(text)
        except RecursionError:
            raise RuleError(f"{where}: the JSON nests too deep for a rule file") from None
        except ValueError:
            pass
        else:
            return value if isinstance(value, list) else [value]
    try:
        return [d for d in load_documents(text) if d is not None]
    except YamlError as exc:
        raise RuleError(f"{where}: {exc}") from None


def load_rule_text(text: str, where: str, utils: dict[str, UtilRule] | None = None) -> list[RuleConfig]:
    return [read_config(doc, where if k == 0 else f"{where} (rule {k + 1})", utils) for k, doc in enumerate(read_documents(text, where))]


def load_rule_file(path: Path, utils: dict[str, UtilRule] | None = None) -> list[RuleConfig]:
    return load_rule_text(read_project_file(path, "rule file"), str(path), utils)


def read_project_file(path: Path, what: str) -> str:
    """The text of one of a project's files; RuleError, naming it, for what is no regular
    file (a FIFO would block the read, /dev/zero never end it), is over MAX_FILE_BYTES, or is
    not UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once, for fstat to refuse
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise RuleError(f'cannot read the {what} "{path}": {exc.strerror}') from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RuleError(f'the {what} "{path}" is not a regular file (a FIFO, a device or a socket); '
                            "give a file of rules")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise RuleError(f'the {what} "{path}" is larger than {MAX_FILE_BYTES >> 20} MiB; '
                                "rule files need far less")
    except OSError as exc:
        raise RuleError(f'cannot read the {what} "{path}": {exc.strerror}') from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(f'the {what} "{path}" is not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); '
                        "save it as UTF-8") from None


def _files_under(folder: Path) -> list[Path]:
    """The rule files under `folder`, hidden folders left out; RuleError past
    MAX_WALK_ENTRIES entries (`ruleDirs: [/]` would walk the whole file system)."""
    out = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        seen += len(dirnames) + len(filenames)
        if seen > MAX_WALK_ENTRIES:
            raise RuleError(f'the folder "{folder}" holds more than {MAX_WALK_ENTRIES:,} files and folders; '
                            "ruleDirs, utilDirs and testConfigs name folders of rule files")
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if f.endswith(RULE_SUFFIXES)]
    return out


def _dirs(config: Mapping[str, Any], key: str, base: Path, where: str) -> list[Path]:
    value = config.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{where}.{key}: expected a list of folders")
    return [base / v for v in value]


_LANGUAGE_LINE = re.compile(r"""^language:[ \t]*['"]?([A-Za-z0-9_+#-]+)['"]?[ \t]*(?:#.*)?$""", re.M)


def _of_other_language(text: str, languages: frozenset[str]) -> bool:
    """Whether a rule file is one rule whose top-level `language:` line names a language
    outside `languages` (a file of several rules, or with no such line, is read in full)."""
    if re.search(r"^---", text, re.M):
        return False
    found = _LANGUAGE_LINE.findall(text)
    if len(found) != 1:
        return False
    language = language_id(found[0])
    return language is not None and language not in languages


def load_project(config_path: Path, languages: frozenset[str] | None = None) -> Project:
    """The rules, utilities and test folders an sgconfig.yml names. Every rule is read (and
    checked) before any runs; a rule file that cannot run is listed in `errors` and left
    out, and a rule id given twice is an error. With `languages` (a scan that knows its
    files), a one-rule file of another language is not read: its rule could not run."""
    where = str(config_path)
    docs = read_documents(read_project_file(config_path, "project configuration"), where)
    config = docs[0] if docs else {}
    if not isinstance(config, Mapping):
        raise RuleError(f"{where}: expected an object with ruleDirs (and utilDirs, testConfigs)")
    base = config_path.parent
    utils: dict[str, UtilRule] = {}
    for folder in _dirs(config, "utilDirs", base, where):
        for path in _files_under(folder):
            for doc in read_documents(read_project_file(path, "utility file"), str(path)):
                util = read_util(doc, str(path))
                if util.id in utils:
                    raise RuleError(f'{path}: the utility id "{util.id}" is given twice')
                utils[util.id] = util
    resolve_globals(utils)
    rules: list[RuleConfig] = []
    errors: list[tuple[str, str]] = []
    unread = 0
    seen: dict[str, str] = {}
    for folder in _dirs(config, "ruleDirs", base, where):
        if not folder.is_dir():
            raise RuleError(f'{where}: the rule folder "{folder}" does not exist')
        for path in _files_under(folder):
            try:
                text = read_project_file(path, "rule file")
                if languages is not None and _of_other_language(text, languages):
                    unread += 1
                    continue
                loaded = load_rule_text(text, str(path), utils)
            except RuleError as exc:
                errors.append((str(path), str(exc)))
                continue
            for rule in loaded:
                if rule.id in seen:
                    raise RuleError(f'{path}: the rule id "{rule.id}" is also used in {seen[rule.id]}')
                seen[rule.id] = str(path)
                rules.append(rule)
    tests = config.get("testConfigs") or []
    if not isinstance(tests, list):
        raise RuleError(f"{where}.testConfigs: expected a list of objects with testDir")
    test_dirs = []
    snapshot_dirs = []
    for k, t in enumerate(tests):
        if not isinstance(t, Mapping) or not isinstance(t.get("testDir"), str):
            raise RuleError(f"{where}.testConfigs[{k}]: expected an object with testDir")
        if not isinstance(t.get("snapshotDir", ""), str):
            raise RuleError(f"{where}.testConfigs[{k}].snapshotDir: expected a folder's path")
        test_dirs.append(base / t["testDir"])
        snapshot_dirs.append(base / t["testDir"] / (t.get("snapshotDir") or "__snapshots__"))
    return Project(base, rules, utils, test_dirs, errors, unread, tuple(snapshot_dirs))


def load_tests(folders: list[Path]) -> list[RuleTest]:
    """The rule tests in `folders` (snapshot folders left out): id, valid and invalid snippets."""
    out = []
    for folder in folders:
        for path in _files_under(folder):
            if "__snapshots__" in path.parts:
                continue
            for doc in read_documents(read_project_file(path, "rule test file"), str(path)):
                if not isinstance(doc, Mapping) or not isinstance(doc.get("id"), str):
                    raise RuleError(f"{path}: a rule test is an object with id, valid and invalid")
                valid = doc.get("valid") or []
                invalid = doc.get("invalid") or []
                if not isinstance(valid, list) or not isinstance(invalid, list):
                    raise RuleError(f"{path}: valid and invalid are lists of code snippets")
                out.append(RuleTest(doc["id"], [str(v) for v in valid], [str(v) for v in invalid], str(path)))
    return out
