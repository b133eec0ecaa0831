// The official TypeScript SDK client (@modelcontextprotocol/sdk 1.x) against the mcp_server
// example over stdio.
//
// usage: node ts_client.mjs NODE_MODULES SERVER_BINARY
//
// Initializes, lists the tools and calls each one; prints one JSON object with what it saw.
// Run by `tests/sdk_clients.rs`.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, server] = process.argv.slice(2);
const sdk = (file) =>
  import(pathToFileURL(join(nodeModules, "@modelcontextprotocol/sdk/dist/esm", file)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { ElicitRequestSchema } = await sdk("types.js");

const client = new Client(
  { name: "ts-interop", version: "0" },
  { capabilities: { elicitation: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async () => ({
  action: "accept",
  content: { name: "Ts" },
}));
await client.connect(new StdioClientTransport({ command: server, args: [] }));

const seen = { progress: [] };
seen.server = client.getServerVersion().name;
const tools = await client.listTools();
seen.tools = tools.tools.map((tool) => tool.name).sort();
const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
seen.add = added.structuredContent;
const counted = await client.callTool(
  { name: "countdown", arguments: { n: 3 } },
  undefined,
  { onprogress: (p) => seen.progress.push([p.progress, p.total]) },
);
seen.countdown = counted.content[0].text;
const greeted = await client.callTool({ name: "greet", arguments: {} });
seen.greet = greeted.content[0].text;
const wrong = await client.callTool({ name: "add", arguments: { a: 1, b: "two" } });
seen.add_wrong_is_error = wrong.isError === true;
await client.close();
console.log(JSON.stringify(seen));
