// The official MCP TypeScript SDK client, scripted: connects to a server, lists its tools,
// makes the given calls, and prints one JSON document on stdout:
//   {"server": {...}, "tools": [...],
//    "calls": [{"result": {...}, "progress"?: [...]} | {"error": {"code", "message"}}],
//    "progressNotifications": [...], "wire": [...], "errors": [...]}
// so that the Rust tests assert on what the official client saw.
//
// Usage:
//   node client.mjs stdio '<calls JSON>' <command> [args...]
//   node client.mjs http  '<calls JSON>' <url>
// where <calls JSON> is [{"name": "...", "arguments": {...}, "_meta"?: {...}, "progress"?: true}
// | {"pause": true}, ...].
//
// A call with "progress": true asks for progress (the SDK's `onprogress`, which sends a
// `progressToken`); its entry lists the `params` of each notification the SDK handed to it, in
// order. "progressNotifications" lists every `notifications/progress` that reached the client,
// asked for or not, in arrival order; "wire" every log message (`notifications/message`) and
// every call's result, in arrival order, on whichever stream they came ("log: <data>",
// "result: <first text>"); "errors" what the SDK reported (such as a progress
// notification for a token it does not know, one arriving after its call's result).
//
// A {"pause": true} step is no call: the client prints "paused" on stderr and waits for a line
// on stdin before it goes on, so that a test can act between two calls (stop a server behind
// a load balancer, say) while the client stays connected.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createInterface } from "node:readline";

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
const errors = [];
client.onerror = (error) => errors.push(String(error?.message ?? error));
await client.connect(transport, options);
// Every progress notification on the wire, before the SDK routes it to a call; every log
// message and call result, in the order they arrived.
const progressNotifications = [];
const wire = [];
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message?.method === "notifications/progress") {
    progressNotifications.push(message.params);
  }
  if (message?.method === "notifications/message") {
    wire.push(`log: ${message.params?.data}`);
  }
  if (Array.isArray(message?.result?.content)) {
    wire.push(`result: ${message.result.content[0]?.text}`);
  }
  deliver?.(message, extra);
};
const { tools } = await client.listTools(undefined, options);
const results = [];
let pauses;
let lines;
for (const { progress: asks, pause, ...call } of calls) {
  if (pause) {
    pauses ??= createInterface({ input: process.stdin });
    lines ??= pauses[Symbol.asyncIterator]();
    console.error("paused");
    await lines.next();
    continue;
  }
  const progress = [];
  const callOptions = asks ? { ...options, onprogress: (p) => progress.push(p) } : options;
  try {
    const result = await client.callTool(call, undefined, callOptions);
    results.push(asks ? { result, progress } : { result });
  } catch (error) {
    results.push({ error: { code: error.code ?? null, message: String(error.message) } });
  }
}
console.log(
  JSON.stringify({
    server: client.getServerVersion(),
    tools,
    calls: results,
    progressNotifications,
    wire,
    errors,
  }),
);
await client.close();
if (pauses) {
  // A stdin still open (the test's end of the pipe) would keep node running.
  pauses.close();
  process.stdin.destroy();
}
