"""`minitools mcp` on the wire in the 2026-07-28 generation (no initialize: server/discover and a
revision in every request's _meta) and both generations on one build, one per connection."""

from __future__ import annotations

from typing import Any

import minitools

MODERN = "2026-07-28"


def meta(capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN,
                      "io.modelcontextprotocol/clientCapabilities": capabilities or {},
                      "io.modelcontextprotocol/clientInfo": {"name": "line-client", "version": "1"}}}


async def test_discover_then_calls_with_the_revision_in_meta(line_client):
    found = (await line_client.request("server/discover", meta()))["result"]
    assert found["resultType"] == "complete" and found["supportedVersions"][0] == MODERN
    assert "2025-11-25" in found["supportedVersions"]
    assert found["_meta"]["io.modelcontextprotocol/serverInfo"]["version"] == minitools.__version__
    assert found["ttlMs"] > 0 and found["cacheScope"] == "private"
    listing = (await line_client.request("tools/list", meta()))["result"]
    names = [tool["name"] for tool in listing["tools"]]
    assert names == sorted(names) and "ast_grep" in names and "ask_user" not in names
    assert listing["resultType"] == "complete" and listing["ttlMs"] > 0 and listing["cacheScope"] == "private"
    again = (await line_client.request("tools/list", meta()))["result"]
    assert again == listing  # the same list in the same order
    call = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": "print($$$A)"},
                                                     **meta()}))["result"]
    assert call["resultType"] == "complete" and call["isError"] is False
    assert "hello.py:2" in call["content"][0]["text"]
    ping = (await line_client.request("ping", meta()))["result"]
    assert ping["resultType"] == "complete" and set(ping) == {"resultType", "_meta"}
    assert await line_client.close() == 0


async def test_a_call_without_discover_takes_the_generation_from_its_meta(line_client):
    call = (await line_client.request("tools/call", {"name": "ast_grep", "arguments": {"pattern": 3}, **meta()}))
    assert call["result"]["resultType"] == "complete" and call["result"]["isError"] is True
    assert "pattern" in call["result"]["content"][0]["text"]


async def test_the_other_generation_on_the_same_connection_is_refused_with_what_to_do(line_client):
    await line_client.request("server/discover", meta())
    bare = await line_client.request("tools/list", {})
    assert bare["error"]["code"] == -32602 and "io.modelcontextprotocol/protocolVersion" in bare["error"]["message"]
    handshake = await line_client.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    assert handshake["error"]["code"] == -32022
    assert handshake["error"]["data"] == {"requested": "2025-11-25", "supported": [MODERN]}
    # the connection still works in its own generation
    assert (await line_client.request("tools/list", meta()))["result"]["tools"]


async def test_an_unknown_revision_in_meta_names_the_supported_ones(line_client):
    wrong = dict(meta())
    wrong["_meta"] = {**wrong["_meta"], "io.modelcontextprotocol/protocolVersion": "2031-01-01"}
    refused = await line_client.request("server/discover", wrong)
    assert refused["error"]["code"] == -32022 and "'2031-01-01'" in refused["error"]["message"]
    assert refused["error"]["data"] == {"requested": "2031-01-01", "supported": [MODERN]}
    # nothing was set: the handshake generation is still open to this connection
    reply = await line_client.initialize("2025-11-25")
    assert reply["result"]["protocolVersion"] == "2025-11-25" and "resultType" not in reply["result"]


async def test_an_initialized_session_refuses_a_per_request_revision(line_client):
    await line_client.initialize("2025-11-25")
    mixed = await line_client.request("tools/list", meta())
    assert mixed["error"]["code"] == -32600 and "initialized at 2025-11-25" in mixed["error"]["message"]
    plain = (await line_client.request("tools/list"))["result"]
    assert "resultType" not in plain and plain["tools"]


async def test_ask_user_asks_through_input_required_and_the_retry_answers(line_client):
    can_ask = meta({"elicitation": {"form": {}}})
    names = [t["name"] for t in (await line_client.request("tools/list", can_ask))["result"]["tools"]]
    assert "ask_user" in names  # the client declared elicitation in this request's capabilities
    args = {"question": "Which database?", "options": [{"label": "postgres"}, {"label": "sqlite"}]}
    first = (await line_client.request("tools/call", {"name": "ask_user", "arguments": args, **can_ask}))["result"]
    assert first["resultType"] == "input_required" and "content" not in first
    ((key, question),) = first["inputRequests"].items()
    assert question["method"] == "elicitation/create" and question["params"]["message"] == "Which database?"
    assert question["params"]["requestedSchema"]["properties"]["choice"]["enum"] == ["postgres", "sqlite"]
    assert line_client.server_requests == []  # nothing was sent to the client as a request of its own
    wrong_tool = await line_client.request("tools/call", {"name": "eval", "arguments": {"code": "1", "description": "x"},
                                                          "requestState": first["requestState"], **can_ask})
    assert wrong_tool["error"]["code"] == -32602 and "belongs to a call of ask_user" in wrong_tool["error"]["message"]
    answered = (await line_client.request("tools/call", {
        "name": "ask_user", "arguments": args, "requestState": first["requestState"],
        "inputResponses": {key: {"action": "accept", "content": {"choice": "sqlite"}}}, **can_ask}))["result"]
    assert answered["resultType"] == "complete" and '"sqlite"' in answered["content"][0]["text"]
    again = await line_client.request("tools/call", {"name": "ask_user", "arguments": args,
                                                     "requestState": first["requestState"], **can_ask})
    assert again["error"]["code"] == -32602 and "used already" in again["error"]["message"]
    stray = await line_client.request("tools/call", {"name": "ask_user", "arguments": args,
                                                     "inputResponses": {key: {"action": "decline"}}, **can_ask})
    assert stray["error"]["code"] == -32602 and "requestState" in stray["error"]["message"]
