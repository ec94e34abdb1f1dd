// An MCP server over stdio as the official TypeScript SDK's users write one: `McpServer` with
// `registerTool` and zod schemas, which the SDK turns into each tool's `inputSchema` with zod's
// own converter (zod 4's `toJSONSchema`, draft-07). The schemas use what zod users reach for
// (optional and nullable fields, enums, nested objects, arrays of objects, unions,
// discriminated unions, records, defaults, string formats, regexes, bounds), so that
// agentkit's client is tested on the JSON Schema zod emits, not on schemas written by hand.
//
// Every tool but `calls` echoes what it was sent, as one JSON text block:
//   {"tool": name, "arguments": <as they arrived on the wire>, "parsed": <after zod>}
// `calls` answers {"calls": n}: how many `tools/call` requests for the other tools reached
// the server, counted as they arrive, before the SDK validates them, so that a test can tell
// that a call refused by the client never reached it.
//
// Usage: node zod-server.mjs   (agentkit's tests/mcp/tests/mcp_foreign_schemas.rs starts it)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const server = new McpServer({ name: "zod-server", version: "1.0.0" });

let received = 0;
let lastArguments = null;

const echo = (tool) => async (parsed) => ({
  content: [
    {
      type: "text",
      text: JSON.stringify({ tool, arguments: lastArguments, parsed }),
    },
  ],
});

// Nested objects, string formats and bounds, a regex, optional and nullable fields.
server.registerTool(
  "create_user",
  {
    description: "Creates a user.",
    inputSchema: {
      name: z.string().min(1).max(40),
      email: z.string().email(),
      id: z.string().uuid(),
      age: z.number().int().min(0).max(150).optional(),
      nickname: z.string().nullable().optional(),
      address: z.object({
        street: z.string(),
        city: z.string(),
        zip: z
          .string()
          .regex(/^[0-9]{5}$/)
          .optional(),
      }),
    },
  },
  echo("create_user"),
);

// An enum with a default, a bounded integer with a default, a union of two types.
server.registerTool(
  "forecast",
  {
    description: "Forecasts the weather at a station.",
    inputSchema: {
      station: z.union([z.string(), z.number()]),
      units: z.enum(["metric", "imperial"]).default("metric"),
      days: z.number().int().min(1).max(14).default(3),
    },
  },
  echo("forecast"),
);

// A discriminated union, an array of objects, a record.
server.registerTool(
  "draw",
  {
    description: "Draws a shape through points.",
    inputSchema: {
      shape: z.discriminatedUnion("type", [
        z.object({ type: z.literal("circle"), radius: z.number().positive() }),
        z.object({
          type: z.literal("rect"),
          width: z.number().positive(),
          height: z.number().positive(),
        }),
      ]),
      points: z
        .array(z.object({ x: z.number(), y: z.number(), label: z.string().optional() }))
        .min(1)
        .max(10),
      weights: z.record(z.string(), z.number()).optional(),
      tags: z.array(z.string()).max(3).default([]),
    },
  },
  echo("draw"),
);

server.registerTool(
  "calls",
  {
    description: "How many calls to the other tools reached this server.",
    inputSchema: {},
  },
  async () => ({ content: [{ type: "text", text: JSON.stringify({ calls: received }) }] }),
);

const transport = new StdioServerTransport();
// Set before `connect`, which keeps it and runs it ahead of the SDK's own handling: every
// call is seen as it arrives, even one the SDK's validation would refuse.
transport.onmessage = (message) => {
  if (message.method === "tools/call" && message.params?.name !== "calls") {
    received += 1;
    lastArguments = message.params?.arguments ?? null;
  }
};
await server.connect(transport);
