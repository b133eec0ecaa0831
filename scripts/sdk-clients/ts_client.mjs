#!/usr/bin/env node
// ts_client.mjs — interop client on the official TypeScript SDK (@modelcontextprotocol/sdk).
//
//   node ts_client.mjs [--profile example|everything] [--timeout SECONDS] --url http://127.0.0.1:PORT/mcp
//   node ts_client.mjs [--profile example|everything] [--timeout SECONDS] -- SERVER COMMAND...
//
// It initializes (declaring sampling and elicitation), lists the tools and calls each one with
// arguments built from its input schema, printing one PASS/FAIL/SKIP line per step; the exit
// status is 1 when any step failed, 2 on a usage error. What each profile expects (profiles.json):
//
//   example     the mcpwire example server: `add` a=2,b=3 returns the text {"sum":5} (its structured result); `countdown` n=3
//               sends exactly 3 progress notifications; at least one tool asks the client
//               (elicitation or sampling) and its result contains the client's answer;
//               `countdown` n=100 cancelled at its first progress notification sends no more
//               from 300 ms after the cancel to 1.3 s, and the server then answers ping.
//   everything  @modelcontextprotocol/server-everything: `get-sum` a=2,b=3 mentions 5;
//               `trigger-long-running-operation` (3 steps) sends 3 progress notifications;
//               `trigger-sampling-request` and `trigger-elicitation-request` return the answer.
//               Tools that reach the network, start timers, need tasks or print the environment
//               are skipped (named in the output).
//
// Progress notifications are counted as they arrive from the transport, before the SDK (whose
// callbacks stop at the result or the cancel). Every other tool must return a result that is not
// an error; a tool whose input schema has a default URL off this machine is skipped under any
// profile. The SDK is imported from $MCP_INTEROP_NODE_MODULES (the node_modules dir run.sh
// installs into) or, without it, by name.

import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { readFileSync } from "node:fs";

const ANSWER = "mcpwire-interop-answer";

// What each --profile expects (shared with python_client.py).
const PROFILES = JSON.parse(readFileSync(new URL("./profiles.json", import.meta.url), "utf8"));
delete PROFILES._comment;

// Whether TEXT is what the profile's `sum` entry asks for, and what that is.
function sumMatches(expected, text) {
  if ("equals" in expected) return [text.trim() === expected.equals, `the text ${JSON.stringify(expected.equals)}`];
  return [new RegExp(expected.matches).test(text), `text matching /${expected.matches}/`];
}

function usage(message) {
  console.error(`ts_client.mjs: ${message}`);
  console.error("usage: ts_client.mjs [--profile example|everything] [--timeout S] (--url URL | -- COMMAND...)");
  process.exit(2);
}

function parseArgs(argv) {
  const options = { profile: "example", timeout: 30, url: null, command: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      options.command = argv.slice(i + 1);
      break;
    } else if (arg === "--profile" || arg === "--timeout" || arg === "--url") {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[++i];
    } else {
      usage(`unknown argument ${arg}`);
    }
  }
  if (!(options.profile in PROFILES)) usage(`unknown profile ${options.profile}`);
  options.timeout = Number(options.timeout);
  if (!(options.timeout > 0)) usage("--timeout must be a positive number of seconds");
  if ((options.url === null) === (options.command.length === 0)) usage("give either --url or a command after --");
  return options;
}

async function importSdk(subpath) {
  const base = process.env.MCP_INTEROP_NODE_MODULES;
  if (base) {
    return import(pathToFileURL(join(base, "@modelcontextprotocol/sdk/dist/esm", subpath)).href);
  }
  return import(`@modelcontextprotocol/sdk/${subpath}`);
}

// A value that satisfies SCHEMA (a JSON Schema of a tool argument or an elicitation field).
function valueFor(schema) {
  if (!schema || typeof schema !== "object") return ANSWER;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const alternatives = schema.oneOf || schema.anyOf;
  if (Array.isArray(alternatives) && alternatives.length) {
    const choice = alternatives.find((s) => s && s.type !== "null") || alternatives[0];
    return valueFor(choice);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "string" && !schema.format && schema.default === undefined) return ANSWER;
  if (schema.default !== undefined) return schema.default;
  switch (type) {
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return schema.minItems > 0 ? [valueFor(schema.items)] : [];
    case "object":
      return objectFor(schema, false);
    case "string":
      return { email: "interop@example.com", uri: "http://127.0.0.1:9/", date: "2000-01-01", "date-time": "2000-01-01T00:00:00Z" }[schema.format] ?? ANSWER;
    default:
      return ANSWER;
  }
}

// An object for an object schema: the required properties, or every property when ALL is set.
function objectFor(schema, all) {
  const out = {};
  const properties = schema.properties || {};
  const names = all ? Object.keys(properties) : schema.required || [];
  for (const name of names) out[name] = valueFor(properties[name]);
  return out;
}

// The first URL default in SCHEMA that points off this machine: a server would fetch it when the
// argument is left out, and this client sends nothing beyond 127.0.0.1.
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
function offMachineDefault(schema) {
  if (!schema || typeof schema !== "object") return null;
  if (typeof schema.default === "string" && /^https?:\/\//i.test(schema.default)) {
    try {
      if (!LOOPBACK.has(new URL(schema.default).hostname)) return schema.default;
    } catch {
      return schema.default;
    }
  }
  for (const value of Object.values(schema)) {
    const found = typeof value === "object" ? offMachineDefault(value) : null;
    if (found) return found;
  }
  return null;
}

// The result's text blocks, one a line, and (with STRUCTURED) its structuredContent as JSON.
function textOf(result, structured = true) {
  const parts = (result.content || []).filter((c) => c.type === "text").map((c) => c.text);
  if (structured && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}

function short(text) {
  const line = String(text).replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const profile = PROFILES[options.profile];
  const { Client } = await importSdk("client/index.js");
  const types = await importSdk("types.js");
  const timeoutMs = options.timeout * 1000;
  let failures = 0;
  const report = (ok, step, detail) => {
    if (!ok) failures++;
    console.log(`${ok ? "PASS" : "FAIL"} ${step}${detail ? `: ${short(detail)}` : ""}`);
  };
  const asked = { elicitation: 0, sampling: 0 };

  const client = new Client(
    { name: "mcpwire-interop-ts", version: "0.1.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} } } },
  );
  client.setRequestHandler(types.CreateMessageRequestSchema, async () => {
    asked.sampling++;
    return { role: "assistant", content: { type: "text", text: ANSWER }, model: "mcpwire-interop", stopReason: "endTurn" };
  });
  client.setRequestHandler(types.ElicitRequestSchema, async (request) => {
    asked.elicitation++;
    const schema = request.params.requestedSchema || { properties: {} };
    return { action: "accept", content: objectFor(schema, true) };
  });

  let transport;
  if (options.url) {
    const { StreamableHTTPClientTransport } = await importSdk("client/streamableHttp.js");
    transport = new StreamableHTTPClientTransport(new URL(options.url));
  } else {
    const { StdioClientTransport } = await importSdk("client/stdio.js");
    const [command, ...args] = options.command;
    transport = new StdioClientTransport({ command, args, stderr: "inherit" });
  }
  const where = options.url ? `http ${options.url}` : "stdio";
  // Progress notifications as they arrive on the wire. The SDK dispatches notifications a
  // microtask later than responses, so its onprogress callback misses a notification that
  // arrives together with the result; the Protocol calls this handler first, synchronously.
  // Responses are timed too, for the cancellation step.
  const wireProgress = [];
  const wireResponses = [];
  transport.onmessage = (message) => {
    if (message.method === "notifications/progress") wireProgress.push(performance.now());
    else if ("result" in message || "error" in message) wireResponses.push(performance.now());
  };

  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (e) {
    report(false, `initialize (${where})`, e.message);
    return 1;
  }
  const server = client.getServerVersion() || {};
  report(true, `initialize (${where})`, `${server.name} ${server.version}`);

  let tools;
  try {
    ({ tools } = await client.listTools(undefined, { timeout: timeoutMs }));
    report(tools.length > 0, "tools/list", `${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
  } catch (e) {
    report(false, "tools/list", e.message);
    await client.close();
    return 1;
  }

  let askingTools = 0;
  for (const name of [profile.sum.tool, profile.progress.tool]) {
    if (!tools.some((t) => t.name === name)) report(false, `tool ${name}`, "not listed");
  }
  for (const tool of tools) {
    const step = `tools/call ${tool.name}`;
    if (profile.skip[tool.name]) {
      console.log(`SKIP ${step}: ${profile.skip[tool.name]}`);
      continue;
    }
    const url = offMachineDefault(tool.inputSchema);
    if (url) {
      console.log(`SKIP ${step}: its default ${url} is off this machine`);
      continue;
    }
    const isSum = tool.name === profile.sum.tool;
    const isProgress = tool.name === profile.progress.tool;
    const args = isSum ? profile.sum.args : isProgress ? profile.progress.args : objectFor(tool.inputSchema || {}, false);
    const progress = [];
    const wireBefore = wireProgress.length;
    const before = asked.elicitation + asked.sampling;
    let result;
    try {
      result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
        timeout: timeoutMs,
        onprogress: (p) => progress.push(p),
      });
    } catch (e) {
      report(false, step, `${JSON.stringify(args)} -> ${e.message}`);
      continue;
    }
    const text = textOf(result);
    const wasAsked = asked.elicitation + asked.sampling > before;
    if (result.isError) {
      report(false, step, `isError: ${text}`);
    } else if (isSum) {
      const blocks = textOf(result, false);
      const [ok, wanted] = sumMatches(profile.sum, blocks);
      report(ok, step, `${JSON.stringify(args)} -> text ${JSON.stringify(blocks)} (want ${wanted})`);
    } else if (isProgress) {
      const count = profile.progress.count;
      const seen = wireProgress.length - wireBefore;
      report(seen === count, step, `${JSON.stringify(args)} -> ${seen} progress notifications (want ${count}; the SDK's onprogress saw ${progress.length})`);
    } else if (wasAsked) {
      askingTools++;
      report(text.includes(ANSWER), step, `asked the client; result ${text.includes(ANSWER) ? "contains" : "lacks"} the answer: ${text}`);
    } else {
      report(true, step, `${JSON.stringify(args)} -> ${text}`);
    }
  }
  report(askingTools > 0, "elicitation/sampling", `${askingTools} tools asked the client (sampling ${asked.sampling}, elicitation ${asked.elicitation})`);
  if (profile.cancel) await cancelStep(client, profile.cancel, { wireProgress, wireResponses }, report, timeoutMs);

  await client.close();
  return failures ? 1 : 0;
}

// Calls SPEC.tool, cancels it (notifications/cancelled, sent by the SDK on abort) at its first
// progress notification, then expects no progress notification from quiet_ms after the cancel
// to quiet_ms + window_ms, and the server still to answer ping.
async function cancelStep(client, spec, wire, report, timeoutMs) {
  const step = `cancel ${spec.tool}`;
  const controller = new AbortController();
  let cancelledAt = null;
  let finished = false;
  try {
    await client.callTool({ name: spec.tool, arguments: spec.args }, undefined, {
      timeout: timeoutMs,
      signal: controller.signal,
      onprogress: () => {
        if (cancelledAt === null) {
          cancelledAt = performance.now();
          controller.abort("mcpwire interop: cancelled after the first progress notification");
        }
      },
    });
    finished = true;
  } catch (e) {
    if (!controller.signal.aborted) {
      report(false, step, `${JSON.stringify(spec.args)} -> ${e.message} before any progress notification`);
      return;
    }
  }
  if (finished || cancelledAt === null) {
    report(false, step, `${JSON.stringify(spec.args)} finished before it could be cancelled (make it longer in profiles.json)`);
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, spec.quiet_ms + spec.window_ms));
  const from = cancelledAt + spec.quiet_ms;
  const late = wire.wireProgress.filter((at) => at > from).length;
  const responses = wire.wireResponses.filter((at) => at > cancelledAt).length;
  let ping = "answered";
  try {
    await client.ping({ timeout: timeoutMs });
  } catch (e) {
    ping = `failed: ${e.message}`;
  }
  report(
    late === 0 && ping === "answered",
    step,
    `${late} progress notifications ${spec.quiet_ms}-${spec.quiet_ms + spec.window_ms} ms after the cancel (want 0); ` +
      `${responses} replies to the cancelled call; ping ${ping}`,
  );
}

const timer = setTimeout(() => {
  console.log("FAIL run: did not finish within 300 s");
  process.exit(1);
}, 300_000);
timer.unref();
main().then(
  (code) => process.exit(code),
  (e) => {
    console.log(`FAIL run: ${e.stack || e}`);
    process.exit(1);
  },
);
