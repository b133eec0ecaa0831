#!/usr/bin/env python3
"""Interop client on the official Python MCP SDK (`mcp` 2.x; `--profile everything` passes on 1.30 too).

    python_client.py [--profile example|everything] [--timeout SECONDS] --url http://127.0.0.1:PORT/mcp
    python_client.py [--profile example|everything] [--timeout SECONDS] -- SERVER COMMAND...

It initializes (with sampling and elicitation callbacks), lists the tools and calls each one
with arguments built from its input schema, printing one PASS/FAIL/SKIP line per step; the exit
status is 1 when any step failed, 2 on a usage error. What each profile expects (profiles.json):

  example     the mcpwire example server: `add` a=2,b=3 returns the text {"sum":5} (its structured result); `countdown` n=3
              sends exactly 3 progress notifications; at least one tool asks the client
              (elicitation or sampling) and its result contains the client's answer;
              `countdown` n=100 cancelled at its first progress notification sends no more
              from 300 ms after the cancel to 1.3 s, and the server then answers ping.
  everything  @modelcontextprotocol/server-everything: `get-sum` a=2,b=3 mentions 5;
              `trigger-long-running-operation` (3 steps) sends 3 progress notifications;
              `trigger-sampling-request` and `trigger-elicitation-request` return the answer.
              Tools that reach the network, start timers, need tasks or print the environment
              are skipped (named in the output).

Progress notifications are counted as they arrive from the transport, before the SDK (whose
callbacks stop at the result or the cancel). Every other tool must return a result that is not
an error; a tool whose input schema has a default URL off this machine is skipped under any
profile. Results and schemas are read as wire JSON (`model_dump(by_alias=True)`), so the checks do
not depend on the SDK's field names.
"""

import argparse
import json
import re
import sys
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import anyio
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

try:
    from mcp.client.streamable_http import streamable_http_client
except ImportError:  # mcp 1.x before the rename
    from mcp.client.streamable_http import streamablehttp_client as streamable_http_client

ANSWER = "mcpwire-interop-answer"

# What each --profile expects (shared with ts_client.mjs).
PROFILES = json.loads((Path(__file__).resolve().parent / "profiles.json").read_text())
PROFILES.pop("_comment", None)


def sum_matches(expected, text):
    """Whether TEXT is what the profile's `sum` entry asks for, and what that is."""
    if "equals" in expected:
        return text.strip() == expected["equals"], f"the text {expected['equals']!r}"
    return re.search(expected["matches"], text) is not None, f"text matching /{expected['matches']}/"


FORMATS = {
    "email": "interop@example.com",
    "uri": "http://127.0.0.1:9/",
    "date": "2000-01-01",
    "date-time": "2000-01-01T00:00:00Z",
}


def value_for(schema):
    """A value that satisfies SCHEMA (a JSON Schema of a tool argument or elicitation field)."""
    if not isinstance(schema, dict):
        return ANSWER
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if alternatives:
        choice = next(
            (s for s in alternatives if isinstance(s, dict) and s.get("type") != "null"), alternatives[0]
        )
        return value_for(choice)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "string" and "format" not in schema and "default" not in schema:
        return ANSWER
    if "default" in schema:
        return schema["default"]
    if kind in ("integer", "number"):
        minimum = schema.get("minimum")
        return minimum if isinstance(minimum, (int, float)) else 1
    if kind == "boolean":
        return True
    if kind == "array":
        return [value_for(schema.get("items"))] if schema.get("minItems", 0) > 0 else []
    if kind == "object":
        return object_for(schema, everything=False)
    if kind == "string":
        return FORMATS.get(schema.get("format"), ANSWER)
    return ANSWER


def object_for(schema, everything):
    """An object for an object schema: its required properties, or all of them."""
    properties = schema.get("properties") or {}
    names = list(properties) if everything else schema.get("required") or []
    return {name: value_for(properties.get(name)) for name in names}


LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def off_machine_default(schema):
    """The first URL default in SCHEMA that points off this machine (a server would fetch it
    when the argument is left out; this client sends nothing beyond 127.0.0.1), else None."""
    if isinstance(schema, dict):
        default = schema.get("default")
        if (
            isinstance(default, str)
            and re.match(r"https?://", default, re.IGNORECASE)
            and urlsplit(default).hostname not in LOOPBACK
        ):
            return default
        values = schema.values()
    elif isinstance(schema, list):
        values = schema
    else:
        return None
    return next((url for url in map(off_machine_default, values) if url), None)


def wire(model):
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


def text_of(result, structured=True):
    """The result's text blocks, one a line, and (with STRUCTURED) its structuredContent as JSON."""
    parts = [c.get("text", "") for c in result.get("content") or [] if c.get("type") == "text"]
    if structured and result.get("structuredContent") is not None:
        parts.append(json.dumps(result["structuredContent"]))
    return "\n".join(parts)


def short(text):
    line = " ".join(str(text).split())
    return line if len(line) <= 120 else line[:117] + "..."


class Steps:
    """Prints one line per step and remembers failures."""

    def __init__(self):
        self.failures = 0

    def report(self, ok, step, detail=""):
        if not ok:
            self.failures += 1
        print(f"{'PASS' if ok else 'FAIL'} {step}{': ' + short(detail) if detail else ''}", flush=True)

    @staticmethod
    def skip(step, why):
        print(f"SKIP {step}: {why}", flush=True)


class Answers:
    """The client's side of elicitation and sampling: answers with ANSWER, counts the asks."""

    def __init__(self):
        self.sampling = 0
        self.elicitation = 0

    @property
    def total(self):
        return self.sampling + self.elicitation

    async def sample(self, context, params):
        self.sampling += 1
        return types.CreateMessageResult.model_validate(
            {
                "role": "assistant",
                "content": {"type": "text", "text": ANSWER},
                "model": "mcpwire-interop",
                "stopReason": "endTurn",
            }
        )

    async def elicit(self, context, params):
        self.elicitation += 1
        schema = wire(params).get("requestedSchema") or {}
        return types.ElicitResult.model_validate(
            {"action": "accept", "content": object_for(schema, everything=True)}
        )


class Tap:
    """Sees each message from the server before the SDK does, and notes when progress
    notifications and responses arrived (the SDK stops reporting progress for a request once it
    is answered or cancelled)."""

    def __init__(self):
        self.progress = []
        self.responses = []

    async def pump(self, source, sink):
        async with sink:
            async for item in source:
                if not isinstance(item, Exception):
                    self.note(wire(item.message))
                await sink.send(item)

    def note(self, message):
        if not isinstance(message, dict):
            return
        if message.get("method") == "notifications/progress":
            self.progress.append(anyio.current_time())
        elif "result" in message or "error" in message:
            self.responses.append(anyio.current_time())


@asynccontextmanager
async def connect(options, tap):
    """The streams to the server; what the server sends passes through TAP."""
    if options.url:
        transport = streamable_http_client(options.url)
    else:
        command, *args = options.command
        transport = stdio_client(StdioServerParameters(command=command, args=args))
    async with transport as streams, anyio.create_task_group() as group:
        sink, tapped = anyio.create_memory_object_stream(0)
        group.start_soon(tap.pump, streams[0], sink)
        yield tapped, streams[1]
        group.cancel_scope.cancel()


async def call_tools(session, tools, profile, answers, steps, tap, timeout):
    sum_tool, sum_args = profile["sum"]["tool"], profile["sum"]["args"]
    progress_tool, progress_args = profile["progress"]["tool"], profile["progress"]["args"]
    progress_count = profile["progress"]["count"]
    names = [tool["name"] for tool in tools]
    for name in (sum_tool, progress_tool):
        if name not in names:
            steps.report(False, f"tool {name}", "not listed")
    asking = 0
    for tool in tools:
        name = tool["name"]
        step = f"tools/call {name}"
        if name in profile["skip"]:
            steps.skip(step, profile["skip"][name])
            continue
        url = off_machine_default(tool.get("inputSchema"))
        if url:
            steps.skip(step, f"its default {url} is off this machine")
            continue
        if name == sum_tool:
            args = sum_args
        elif name == progress_tool:
            args = progress_args
        else:
            args = object_for(tool.get("inputSchema") or {}, everything=False)
        progress = []
        wire_before = len(tap.progress)

        async def on_progress(value, total=None, message=None, seen=progress):
            seen.append(value)

        asked_before = answers.total
        try:
            with anyio.fail_after(timeout):
                result = wire(await session.call_tool(name, args, progress_callback=on_progress))
        except TimeoutError:
            steps.report(False, step, f"{json.dumps(args)} -> no result within {timeout}s")
            continue
        except Exception as e:  # noqa: BLE001 - any SDK error fails this step only
            steps.report(False, step, f"{json.dumps(args)} -> {type(e).__name__}: {e}")
            continue
        text = text_of(result)
        if result.get("isError"):
            steps.report(False, step, f"isError: {text}")
        elif name == sum_tool:
            blocks = text_of(result, structured=False)
            ok, wanted = sum_matches(profile["sum"], blocks)
            steps.report(ok, step, f"{json.dumps(args)} -> text {json.dumps(blocks)} (want {wanted})")
        elif name == progress_tool:
            seen = len(tap.progress) - wire_before
            steps.report(
                seen == progress_count,
                step,
                f"{json.dumps(args)} -> {seen} progress notifications (want {progress_count}; "
                f"the SDK's progress callback saw {len(progress)})",
            )
        elif answers.total > asked_before:
            asking += 1
            has = ANSWER in text
            steps.report(
                has, step, f"asked the client; result {'contains' if has else 'lacks'} the answer: {text}"
            )
        else:
            steps.report(True, step, f"{json.dumps(args)} -> {text}")
    steps.report(
        asking > 0,
        "elicitation/sampling",
        f"{asking} tools asked the client (sampling {answers.sampling}, elicitation {answers.elicitation})",
    )


async def run(options):
    profile = PROFILES[options.profile]
    steps, answers, tap = Steps(), Answers(), Tap()
    where = f"http {options.url}" if options.url else "stdio"
    async with (
        connect(options, tap) as (read, write),
        ClientSession(
            read,
            write,
            timedelta(seconds=options.timeout) if _timeout_is_timedelta() else options.timeout,
            sampling_callback=answers.sample,
            elicitation_callback=answers.elicit,
        ) as session,
    ):
        try:
            with anyio.fail_after(options.timeout):
                init = wire(await session.initialize())
        except Exception as e:  # noqa: BLE001
            steps.report(False, f"initialize ({where})", f"{type(e).__name__}: {e}")
            return 1
        info = init.get("serverInfo") or {}
        steps.report(
            True,
            f"initialize ({where})",
            f"{info.get('name')} {info.get('version')}, protocol {init.get('protocolVersion')}",
        )
        try:
            with anyio.fail_after(options.timeout):
                tools = [wire(t) for t in (await session.list_tools()).tools]
        except Exception as e:  # noqa: BLE001
            steps.report(False, "tools/list", f"{type(e).__name__}: {e}")
            return 1
        steps.report(bool(tools), "tools/list", f"{len(tools)} tools: {', '.join(t['name'] for t in tools)}")
        await call_tools(session, tools, profile, answers, steps, tap, options.timeout)
        if "cancel" in profile:
            await cancel_step(session, profile["cancel"], steps, tap, options.timeout)
    return 1 if steps.failures else 0


async def cancel_step(session, spec, steps, tap, timeout):
    """Calls SPEC's tool, cancels it at its first progress notification (the SDK sends
    notifications/cancelled for an abandoned request), then expects no progress notification
    from quiet_ms after the cancel to quiet_ms + window_ms, and the server still to answer ping."""
    step = f"cancel {spec['tool']}"
    first = anyio.Event()
    outcome = {}

    async def on_progress(value, total=None, message=None):
        first.set()

    async def call():
        try:
            await session.call_tool(spec["tool"], spec["args"], progress_callback=on_progress)
            outcome["finished"] = True
        except Exception as e:  # noqa: BLE001 - reported below
            outcome["error"] = f"{type(e).__name__}: {e}"

    async with anyio.create_task_group() as group:
        group.start_soon(call)
        with anyio.move_on_after(timeout):
            await first.wait()
        group.cancel_scope.cancel()
    cancelled_at = anyio.current_time()
    if "error" in outcome or not first.is_set():
        why = outcome.get("error", f"no progress notification within {timeout}s")
        steps.report(False, step, f"{json.dumps(spec['args'])} -> {why}")
        return
    if outcome.get("finished"):
        steps.report(False, step, f"{json.dumps(spec['args'])} finished before it could be cancelled")
        return
    await anyio.sleep((spec["quiet_ms"] + spec["window_ms"]) / 1000)
    start = cancelled_at + spec["quiet_ms"] / 1000
    late = sum(1 for at in tap.progress if at > start)
    replies = sum(1 for at in tap.responses if at > cancelled_at)
    try:
        with anyio.fail_after(timeout):
            await session.send_ping()
        ping = "answered"
    except Exception as e:  # noqa: BLE001
        ping = f"failed: {type(e).__name__}: {e}"
    steps.report(
        late == 0 and ping == "answered",
        step,
        f"{late} progress notifications {spec['quiet_ms']}-{spec['quiet_ms'] + spec['window_ms']} ms "
        f"after the cancel (want 0); {replies} replies to the cancelled call; ping {ping}",
    )


def _timeout_is_timedelta():
    """mcp 1.x takes the session read timeout as a timedelta, 2.x as seconds."""
    import inspect

    annotation = inspect.signature(ClientSession.__init__).parameters["read_timeout_seconds"].annotation
    return "timedelta" in str(annotation)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="example")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument("--url", help="Streamable HTTP endpoint")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- SERVER COMMAND...")
    options = parser.parse_args(argv)
    if options.command[:1] == ["--"]:
        options.command = options.command[1:]
    if bool(options.url) == bool(options.command):
        parser.error("give either --url or a command after --")
    if options.timeout <= 0:
        parser.error("--timeout must be positive")
    return options


async def run_bounded(options):
    with anyio.fail_after(300):
        return await run(options)


def main(argv):
    options = parse_args(argv)
    try:
        return anyio.run(run_bounded, options)
    except Exception as e:  # noqa: BLE001 - report whatever ended the run as one failed step
        print(f"FAIL run: {type(e).__name__}: {e}", flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
