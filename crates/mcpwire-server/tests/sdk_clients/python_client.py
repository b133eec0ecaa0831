"""The official Python SDK client (`mcp` 2.x) against the mcp_server example over stdio.

usage: python_client.py SERVER_BINARY handshake|discover

Initializes (`initialize`, or `server/discover` for 2026-07-28), lists the tools and calls
each one; prints one JSON object with what it saw. Run by `tests/sdk_clients.rs`.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp import types
from mcp_types import InputRequiredResult


async def answer_elicitation(context, params):
    return types.ElicitResult(action="accept", content={"name": "Py"})


async def call_answering(session, name, arguments):
    """`call_tool` that, under 2026-07-28, answers the elicitations of an input-required
    result and retries with them and the request state; returns the final result and how
    many retries it took."""
    result = await session.call_tool(name, arguments, allow_input_required=True)
    retries = 0
    while isinstance(result, InputRequiredResult):
        retries += 1
        requests = result.input_requests or {}
        answers = {key: await answer_elicitation(None, request.params) for key, request in requests.items()}
        result = await session.call_tool(
            name,
            arguments,
            input_responses=answers,
            request_state=result.request_state,
            allow_input_required=True,
        )
    return result, retries


async def main(server: str, mode: str) -> None:
    seen = {"progress": []}

    async def on_progress(progress, total, message):
        seen["progress"].append([progress, total])

    params = StdioServerParameters(command=server, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=answer_elicitation) as session:
            if mode == "discover":
                result = await session.discover()
                seen["version"] = result.supported_versions[0]
            else:
                result = await session.initialize()
                seen["version"] = result.protocol_version
            tools = await session.list_tools()
            seen["tools"] = sorted(tool.name for tool in tools.tools)
            added = await session.call_tool("add", {"a": 2, "b": 3})
            seen["add"] = added.structured_content
            counted = await session.call_tool("countdown", {"n": 3}, progress_callback=on_progress)
            seen["countdown"] = counted.content[0].text
            greeted, retries = await call_answering(session, "greet", {})
            seen["greet"] = greeted.content[0].text
            seen["greet_retries"] = retries
            wrong = await session.call_tool("add", {"a": 1, "b": "two"})
            seen["add_wrong_is_error"] = wrong.is_error
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
