// `minitools mcp` through the official TypeScript SDK's v2 client (@modelcontextprotocol/client),
// in the generation argv[2] names: "legacy" (initialize, 2025-11-25) or "auto" (it probes
// server/discover and speaks 2026-07-28). Prints one JSON line: what the client saw.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [mode, root, ...server] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: server[0], args: server.slice(1), cwd: root, env: process.env });
const client = new Client({ name: "ts-sdk-test", version: "1.0.0" },
  { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } });
const asked = [];
client.setRequestHandler("elicitation/create", async (request) => {
  asked.push(request.params.message);
  const [property] = Object.keys(request.params.requestedSchema?.properties ?? {});
  return { action: "accept", content: property ? { [property]: "blue" } : {} };
});
await client.connect(transport);
const { tools } = await client.listTools();
const search = await client.callTool({ name: "ast_grep", arguments: { pattern: "print($$$A)", language: "python" } });
const answer = await client.callTool({ name: "ask_user", arguments: {
  question: "Which colour?", options: [{ label: "red" }, { label: "blue" }] } });
const failed = await client.callTool({ name: "eval", arguments: { code: "1/0", description: "divide by zero on purpose" } });
console.log(JSON.stringify({
  version: client.getNegotiatedProtocolVersion?.() ?? null,
  tools: tools.map((t) => t.name),
  search: search.content[0].text, searchError: search.isError,
  answer: answer.content[0].text, asked,
  failed: failed.content[0].text, failedError: failed.isError,
}));
await client.close();
