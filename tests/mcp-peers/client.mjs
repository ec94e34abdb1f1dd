// The official MCP TypeScript SDK client, scripted: connects to a server, lists its tools,
// makes the given calls, and prints one JSON document on stdout:
//   {"server": {...}, "tools": [...], "calls": [{"result": {...}} | {"error": {"code", "message"}}]}
// so that the Rust tests assert on what the official client saw.
//
// Usage:
//   node client.mjs stdio '<calls JSON>' <command> [args...]
//   node client.mjs http  '<calls JSON>' <url>
// where <calls JSON> is [{"name": "...", "arguments": {...}}, ...].
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, callsJson, ...target] = process.argv.slice(2);
const calls = JSON.parse(callsJson);
// Bounded waits: a hung server fails the run instead of hanging it.
const options = { timeout: 10_000 };

let transport;
if (mode === "stdio") {
  const [command, ...args] = target;
  transport = new StdioClientTransport({ command, args, stderr: "inherit" });
} else if (mode === "http") {
  transport = new StreamableHTTPClientTransport(new URL(target[0]));
} else {
  console.error(`unknown mode '${mode}'`);
  process.exit(2);
}

const client = new Client({ name: "agentkit-tests", version: "0.0.0" });
await client.connect(transport, options);
const { tools } = await client.listTools(undefined, options);
const results = [];
for (const call of calls) {
  try {
    results.push({ result: await client.callTool(call, undefined, options) });
  } catch (error) {
    results.push({ error: { code: error.code ?? null, message: String(error.message) } });
  }
}
console.log(JSON.stringify({ server: client.getServerVersion(), tools, calls: results }));
await client.close();
