"""Which exceptions stop the program (debugpy): by default only one it does not handle; the
filters as an argument; and the stop says whether the exception is handled and what continue does."""

from __future__ import annotations

from pathlib import Path

from dap_helpers import make_run

PROGRAM = ("try:\n    import a_module_that_is_not_there\nexcept ImportError:\n    pass  # optional, like httpx's click\n\n"
           "value = 1\nraise ValueError('the real problem')\n")


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname='t'\nversion='0'\n")
    (tmp_path / "prog.py").write_text(PROGRAM)
    return tmp_path


async def test_by_default_only_an_uncaught_exception_stops(tmp_path: Path) -> None:
    async with make_run(_project(tmp_path)) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py"})
        assert r.ok and "stopped (exception" in r.text and "prog.py:7" in r.text, r.text
        assert "ValueError" in r.text and "not handled by the program" in r.text, r.text
        await run.call("debug", {"op": "terminate"})


async def test_the_raised_filter_stops_on_a_handled_one_and_says_continue_goes_on(tmp_path: Path) -> None:
    async with make_run(_project(tmp_path)) as run:
        r = await run.call("debug", {"op": "launch", "program": "prog.py", "exception_filters": ["raised"]})
        assert r.ok and "prog.py:2" in r.text and "ModuleNotFoundError" in r.text, r.text
        assert "may be handled by the program" in r.text and "continue goes on" in r.text, r.text
        r = await run.call("debug", {"op": "continue"})
        assert r.ok and "prog.py:7" in r.text, r.text  # on to the real one
        await run.call("debug", {"op": "terminate"})
        bad = await run.call("debug", {"op": "launch", "program": "prog.py", "exception_filters": ["everything"]})
        assert not bad.ok and "no exception filter 'everything'" in bad.text and "uncaught" in bad.text, bad.text
