from __future__ import annotations

import asyncio

import pytest

from minitools import Run, Tier, Tool, ToolResult, ToolSpec
from notes_tools import note_tools


async def test_root_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(ValueError, match="does not exist; pass an existing directory"):
        Run(tmp_path / "nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is not a directory"):
        Run(tmp_path / "file")


async def test_conversation_id_and_close_is_idempotent(notes_root):
    run = Run(notes_root, tools=note_tools(notes_root))
    assert run.conversation_id.startswith("conv-")
    async with run:
        pass
    await run.close()
    result = await run.call("read_note", {"name": "a"})
    assert not result.ok and "closed" in result.text


async def test_unknown_tool_lists_the_surface(notes_root):
    async with Run(notes_root, tools=note_tools(notes_root)) as run:
        result = await run.call("nope", {})
        assert not result.ok
        assert "unknown tool 'nope'" in result.text and "read_note" in result.text


async def test_bad_arguments_are_refused_and_change_nothing(notes_root):
    async with Run(notes_root, approve=lambda s, a: True, tools=note_tools(notes_root)) as run:
        missing = await run.call("write_note", {"name": "a.txt"})
        assert not missing.ok and "argument text is required" in missing.text
        wrong = await run.call("write_note", {"name": "a.txt", "text": 5})
        assert not wrong.ok and "argument text expected string, got 5" in wrong.text
        extra = await run.call("write_note", {"name": "a.txt", "text": "t", "mode": "w"})
        assert not extra.ok and "mode" in extra.text
        not_object = await run.call("write_note", ["a.txt"])  # type: ignore[arg-type]
        assert not not_object.ok and "JSON object" in not_object.text
    assert not (notes_root / "a.txt").exists()


async def test_null_for_an_optional_argument_means_absent(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n")
    async with Run(tmp_path, resources={"lsp": False}) as run:
        found = await run.call("ast_grep", {"pattern": "print($A)", "language": "python", "path": None,
                                            "max_results": None})
        assert found.ok and found.data["total"] == 1, found.text
        required = await run.call("ast_grep", {"pattern": None})
        assert not required.ok and "argument pattern" in required.text


async def test_a_choice_in_another_case_is_the_choice(tmp_path):
    (tmp_path / "a.ts").write_text("foo(1,);\n")
    async with Run(tmp_path, resources={"lsp": False}) as run:
        folded = await run.call("ast_grep", {"pattern": "foo($A)", "language": "typescript", "strictness": " Relaxed"})
        unknown = await run.call("ast_grep", {"pattern": "foo($A)", "language": "typescript", "strictness": "loose"})
    assert folded.ok and "strictness relaxed" in folded.text, folded.text
    assert not unknown.ok and 'argument strictness "loose" is not one of "smart", "relaxed"' in unknown.text


async def test_write_tool_is_refused_on_plan_and_readonly(notes_root):
    async with Run(notes_root, approve=lambda s, a: True, tools=note_tools(notes_root)) as run:
        for surface in ("plan", "readonly"):
            result = await run.call("write_note", {"name": "a.txt", "text": "t"}, surface=surface)
            assert not result.ok
            assert f"not available on the {surface} surface" in result.text
        assert (await run.call("read_note", {"name": "a.txt"}, surface="plan")).text.startswith("no note")
    assert not (notes_root / "a.txt").exists()


async def test_approval_allow_deny_and_fail_closed(notes_root):
    seen = []

    def approve(spec, args):
        seen.append((spec.name, dict(args)))
        return args["name"] != "secret.txt"

    async with Run(notes_root, approve=approve, tools=note_tools(notes_root)) as run:
        assert (await run.call("write_note", {"name": "a.txt", "text": "hello"})).ok
        denied = await run.call("write_note", {"name": "secret.txt", "text": "x"})
        assert not denied.ok and "was not approved" in denied.text and "Nothing was done" in denied.text
        assert (await run.call("read_note", {"name": "a.txt"})).ok  # read never asks
    assert seen == [("write_note", {"name": "a.txt", "text": "hello"}), ("write_note", {"name": "secret.txt", "text": "x"})]
    assert (notes_root / "a.txt").read_text() == "hello"
    assert not (notes_root / "secret.txt").exists()

    async with Run(notes_root, tools=note_tools(notes_root)) as run:
        closed = await run.call("write_note", {"name": "b.txt", "text": "x"})
        assert not closed.ok and "write_note is a write-tier tool and this run has no approver" in closed.text
    assert not (notes_root / "b.txt").exists()
    async with Run(notes_root) as run:
        closed = await run.call("eval", {"code": "1", "description": "one"})
        assert not closed.ok and "eval is an exec-tier tool and this run has no approver" in closed.text


@pytest.mark.parametrize("strict", [False, True])
async def test_an_approver_that_raises_fails_closed(notes_root, strict):
    def broken(spec, args):
        raise RuntimeError("policy service unreachable")

    async with Run(notes_root, approve=broken, tools=note_tools(notes_root), strict=strict) as run:
        result = await run.call("write_note", {"name": "a.txt", "text": "t"})
    assert not result.ok and "the approver failed (RuntimeError: policy service unreachable)" in result.text
    assert result.data == {"approved": False}
    assert not (notes_root / "a.txt").exists()


async def test_async_approver(notes_root):
    async def approve(spec, args):
        await asyncio.sleep(0)
        return "not on Fridays"

    async with Run(notes_root, approve=approve, tools=note_tools(notes_root)) as run:
        result = await run.call("write_note", {"name": "a.txt", "text": "x"})
        assert not result.ok and "not on Fridays" in result.text


async def test_permission_card_through_the_question_port(notes_root):
    cards = []
    answers = iter([{"choices": ["allow once"]}, {"choices": ["deny"]}, {"choices": ["allow for this run"]}, {"skipped": True}])

    def person(card):
        cards.append(card)
        return next(answers)

    async with Run(notes_root, questions=person, tools=note_tools(notes_root)) as run:
        assert (await run.call("write_note", {"name": "1.txt", "text": "x"})).ok
        denied = await run.call("write_note", {"name": "2.txt", "text": "x"})
        assert not denied.ok and "denied" in denied.text
        assert (await run.call("write_note", {"name": "3.txt", "text": "x"})).ok
        # allowed for this run: no more cards
        assert (await run.call("write_note", {"name": "4.txt", "text": "x"})).ok
    assert len(cards) == 3
    assert cards[0]["kind"] == "permission"
    assert cards[0]["question"] == "Allow `write_note` to change files?"
    assert "name='1.txt'" in cards[0]["context"]
    assert [o["label"] for o in cards[0]["options"]] == ["allow once", "allow for this run", "deny"]
    assert sorted(p.name for p in notes_root.iterdir()) == ["1.txt", "3.txt", "4.txt"]


async def test_strict_mode_reraises_a_bug_and_lenient_mode_reports_it(notes_root):
    async with Run(notes_root, strict=True, tools=note_tools(notes_root)) as run:
        with pytest.raises(RuntimeError, match="kaput"):
            await run.call("boom", {})
    async with Run(notes_root, strict=False, tools=note_tools(notes_root)) as run:
        result = await run.call("boom", {})
        assert not result.ok and "internal error" in result.text and "kaput" in result.text


async def test_non_parallel_safe_tools_are_serialised(notes_root):
    active = 0
    peak = 0

    def make(name, parallel_safe):
        async def handler(args):
            nonlocal active, peak
            active += 1
            peak = max(peak, active)
            await asyncio.sleep(0.05)
            active -= 1
            return ToolResult(ok=True, text=name)
        return Tool(ToolSpec(name, Tier.EXEC, "d", {"type": "object", "properties": {}}, parallel_safe=parallel_safe), handler)

    async with Run(notes_root, approve=lambda s, a: True, tools=[make("serial", False), make("free", True)]) as run:
        await asyncio.gather(*(run.call("serial", {}) for _ in range(4)))
        assert peak == 1
        peak = 0
        await asyncio.gather(*(run.call("free", {}) for _ in range(4)))
        assert peak == 4


async def test_a_serialised_tool_can_call_back_into_the_run(notes_root):
    # The eval bridge: a non-parallel-safe tool calling another one must not deadlock.
    holder: dict = {}

    async def outer(args):
        inner = await holder["run"].ctx.call("inner", {}, "full")
        return ToolResult(ok=inner.ok, text="outer saw " + inner.text)

    async def inner(args):
        return ToolResult(ok=True, text="inner")

    tools = [Tool(ToolSpec(n, Tier.EXEC, "d", {"type": "object", "properties": {}}, parallel_safe=False), h)
             for n, h in (("outer", outer), ("inner", inner))]
    async with Run(notes_root, approve=lambda s, a: True, tools=tools) as run:
        holder["run"] = run
        result = await asyncio.wait_for(run.call("outer", {}), 5)
        assert result.text == "outer saw inner"


async def test_paths_outside_the_root_are_refused(notes_root, tmp_path_factory):
    from minitools import ToolError

    outside = tmp_path_factory.mktemp("outside")
    (notes_root / "inside.txt").write_text("x")
    (notes_root / "link").symlink_to(outside)
    async with Run(notes_root) as run:
        assert run.ctx.resolve_path("inside.txt") == run.root / "inside.txt"
        for bad in ("../x", str(outside), "link/anything"):
            with pytest.raises(ToolError, match="outside the workspace root"):
                run.ctx.resolve_path(bad, must_exist=False)
        with pytest.raises(ToolError, match=r'"missing\.txt" does not exist'):
            run.ctx.resolve_path("missing.txt")


async def test_disabled_resource_is_not_wired(notes_root):
    async with Run(notes_root, resources={"parser": False, "lsp": False, "debug": False, "kernels": False}) as run:
        names = {s.name for s in run.tools()}
        assert not names & {"ast_grep", "ast_edit", "lsp", "debug", "eval"}
