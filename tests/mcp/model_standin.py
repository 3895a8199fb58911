"""A stand-in model API on loopback for the real-host tests: it answers the Anthropic Messages API
(Claude Code) and the OpenAI Responses API (Codex) with a scripted sequence of tool calls, and
records what the host hands back to the model after each call.

A step names the tool by the end of its name (hosts prefix MCP tools: `mcp__minitools__eval`) and
gives its arguments; after the last step the model answers with plain text and the turn ends.
Requests that offer none of the scripted tools (a host's side calls: titles, summaries) get a
short text answer and are not counted.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Step:
    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        self.tool = tool
        self.arguments = arguments


class StandIn:
    """The scripted model. `results[i]` is what the host sent back for step i: a list of blocks
    ({"type": "text", "text": ...} / {"type": "image", ...}) or a string."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.results: list[Any] = []
        self.tool_names: list[str] = []  # the tools the host offered on its main requests
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # Which step comes next ---------------------------------------------------------------

    def _pick(self, offered: list[str]) -> tuple[Step | None, str | None]:
        """The next step and the host's full name for its tool; (None, None) when done."""
        done = len(self.results)
        if done >= len(self.steps):
            return None, None
        step = self.steps[done]
        name = next((n for n in offered if n == step.tool or n.endswith("__" + step.tool)), None)
        return step, name

    # Anthropic Messages ------------------------------------------------------------------

    def anthropic(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The content blocks of the reply and its stop reason."""
        offered = [t.get("name", "") for t in body.get("tools") or []]
        if not any(n.endswith("__" + s.tool) for s in self.steps for n in offered):
            return [{"type": "text", "text": "ok"}], "end_turn"
        with self._lock:
            self.tool_names = offered
            answered = {block.get("tool_use_id"): block.get("content")
                        for message in body.get("messages") or [] if isinstance(message.get("content"), list)
                        for block in message["content"] if isinstance(block, dict) and block.get("type") == "tool_result"}
            self.results = [answered[key] for key in sorted(answered)]  # the ids count up with the steps
            step, name = self._pick(offered)
            if step is None or name is None:
                return [{"type": "text", "text": "All done."}], "end_turn"
            call = {"type": "tool_use", "id": f"toolu_{len(self.results):04d}", "name": name, "input": step.arguments}
            return [call], "tool_use"

    # OpenAI Responses ----------------------------------------------------------------------

    def responses(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The output items of the reply."""
        offered = []
        for tool in body.get("tools") or []:
            if isinstance(tool, dict) and tool.get("type") == "namespace":  # Codex groups a server's tools
                offered += [f"{tool.get('name')}__{t.get('name')}" for t in tool.get("tools") or []]
            elif isinstance(tool, dict):
                offered.append(tool.get("name", ""))
        if not any(n.endswith("__" + s.tool) or n == s.tool for s in self.steps for n in offered):
            return [_message("ok")]
        with self._lock:
            self.tool_names = offered
            answered = {item.get("call_id"): item.get("output") for item in body.get("input") or []
                        if isinstance(item, dict) and item.get("type") == "function_call_output"}
            self.results = [answered[key] for key in sorted(answered)]  # the ids count up with the steps
            step, name = self._pick(offered)
            if step is None or name is None:
                return [_message("All done.")]
            n = len(self.results)
            call = {"type": "function_call", "id": f"fc_{n:04d}", "call_id": f"call_{n:04d}", "name": name,
                    "arguments": json.dumps(step.arguments)}
            namespace, _, tool = name.rpartition("__")
            if namespace.startswith("mcp__"):  # a namespaced tool is called by its own name, in its namespace
                call.update(name=tool, namespace=namespace)
            return [call]

    # HTTP ------------------------------------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # model lists and the like: nothing to offer
                self._json(200, {"data": [], "models": []})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                standin.requests.append({"path": path, "body": body})
                if path.endswith("/messages/count_tokens"):
                    self._json(200, {"input_tokens": 10})
                elif path.endswith("/messages"):
                    blocks, stop = standin.anthropic(body)
                    if body.get("stream"):
                        self._sse(_anthropic_events(blocks, stop, body.get("model", "stand-in")))
                    else:
                        self._json(200, _anthropic_message(blocks, stop, body.get("model", "stand-in")))
                elif path.endswith("/responses"):
                    items = standin.responses(body)
                    self._sse(_responses_events(items, body.get("model", "stand-in")))
                else:
                    self._json(404, {"error": {"type": "not_found", "message": path}})

            def _json(self, status: int, obj: Any) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, events: list[tuple[str, dict[str, Any]]]) -> None:
                data = b"".join(f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode() for name, payload in events)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _message(text: str) -> dict[str, Any]:
    return {"type": "message", "id": "msg_text", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def _anthropic_message(blocks: list[dict[str, Any]], stop: str, model: str) -> dict[str, Any]:
    return {"id": "msg_standin", "type": "message", "role": "assistant", "model": model, "content": blocks,
            "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 10}}


def _anthropic_events(blocks: list[dict[str, Any]], stop: str, model: str) -> list[tuple[str, dict[str, Any]]]:
    start = _anthropic_message([], None, model)  # type: ignore[arg-type]
    start["stop_reason"] = None
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": start})]
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": dict(block, input={})}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                   "delta": {"type": "text_delta", "text": block["text"]}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 10}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _responses_events(items: list[dict[str, Any]], model: str) -> list[tuple[str, dict[str, Any]]]:
    response = {"id": "resp_standin", "object": "response", "model": model, "status": "in_progress", "output": []}
    events: list[tuple[str, dict[str, Any]]] = [("response.created", {"type": "response.created", "response": response})]
    for i, item in enumerate(items):
        events.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": i, "item": item}))
        events.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": i, "item": item}))
    done = dict(response, status="completed", output=items,
                usage={"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 10,
                       "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 20})
    events.append(("response.completed", {"type": "response.completed", "response": done}))
    return events
