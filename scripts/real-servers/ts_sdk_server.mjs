// ts_sdk_server.mjs — a minimal server on the official TypeScript SDK (@modelcontextprotocol/sdk,
// `McpServer`) with one tool, `add`, for scripts/check-real-servers.sh (the TypeScript twin of the
// six-line Python servers it writes).
//
//   node ts_sdk_server.mjs             # stdio
//   node ts_sdk_server.mjs http PORT   # Streamable HTTP at http://127.0.0.1:PORT/mcp, one
//                                      # transport per session (Mcp-Session-Id), as the SDK's
//                                      # own example does
//
// The SDK is imported from $MCP_SDK_NODE_MODULES (the node_modules dir the script installs into).
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const modules = process.env.MCP_SDK_NODE_MODULES;
if (!modules) {
  console.error("ts_sdk_server.mjs: set MCP_SDK_NODE_MODULES to the node_modules holding the SDK");
  process.exit(2);
}
const sdk = (path) => import(pathToFileURL(join(modules, "@modelcontextprotocol/sdk/dist/esm", path)).href);
const { McpServer } = await sdk("server/mcp.js");
const { StdioServerTransport } = await sdk("server/stdio.js");
const { StreamableHTTPServerTransport } = await sdk("server/streamableHttp.js");
const { isInitializeRequest } = await sdk("types.js");
const { z } = await import(pathToFileURL(join(modules, "zod/index.js")).href);

function newServer() {
  const server = new McpServer({ name: "demo", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Add two numbers.", inputSchema: { a: z.number().int(), b: z.number().int() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  return server;
}

if (process.argv[2] === "http") {
  const port = Number(process.argv[3]);
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (new URL(req.url, "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport && id === undefined && req.method === "POST") {
      // A new session (the transport refuses anything but `initialize` on it), as the SDK's
      // example server and server-everything do.
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
      return;
    }
    // The transport reads and parses the body itself.
    await transport.handleRequest(req, res);
  });
  http.listen(port, "127.0.0.1", () => console.error(`ts_sdk_server: listening on http://127.0.0.1:${port}/mcp`));
} else {
  await newServer().connect(new StdioServerTransport());
}
