"""A server on the official Python SDK 2.x (`mcp.server.mcpserver.MCPServer`) for
scripts/client-interop/run.sh: tools that answer plainly, fail, log and report progress, ask
the client for a sample and for a form, a resource, a template, a prompt with a required
argument, and completions.

    python python_server.py               # stdio
    python python_server.py http PORT     # Streamable HTTP on 127.0.0.1:PORT/mcp
"""

import sys

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import Completion, SamplingMessage, TextContent

app = MCPServer("mcpwire-interop-python")


@app.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@app.tool()
def fail(reason: str) -> str:
    """Always fails: the result is a tool error."""
    raise ValueError(f"failing as asked: {reason}")


@app.tool()
async def progress(steps: int, ctx: Context) -> str:
    """Logs and reports progress `steps` times (at most 5)."""
    steps = max(1, min(steps, 5))
    for step in range(steps):
        await ctx.info(f"step {step + 1} of {steps}")
        await ctx.report_progress(step + 1, steps, f"step {step + 1}")
    return f"{steps} steps done"


@app.tool()
async def sample(topic: str, ctx: Context) -> str:
    """Asks the client's model about `topic` (sampling/createMessage)."""
    result = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"Say something about {topic}."))],
        max_tokens=50,
    )
    content = result.content
    text = content.text if isinstance(content, TextContent) else str(content)
    return f"the model said: {text}"


class Contact(BaseModel):
    name: str
    email: str = "someone@example.com"
    subscribe: bool = False


@app.tool()
async def ask(ctx: Context) -> str:
    """Asks the user for a contact (elicitation/create, form mode)."""
    answer = await ctx.elicit("Who should we contact?", Contact)
    if answer.action == "accept":
        return f"accepted: {answer.data.name} <{answer.data.email}> subscribe={answer.data.subscribe}"
    return f"the user chose {answer.action}"


@app.resource("demo://greeting", mime_type="text/plain")
def greeting() -> str:
    """A fixed greeting."""
    return "Hello from the Python SDK."


@app.resource("demo://item/{item_id}", mime_type="application/json")
def item(item_id: str) -> str:
    """One item by id."""
    return f'{{"id": "{item_id}"}}'


@app.prompt()
def review(code: str, language: str = "python") -> str:
    """Asks for a review of `code`."""
    return f"Review this {language} code:\n{code}"


@app.completion()
async def complete(ref, argument, context):
    if argument.name == "code":
        return Completion(values=["print('hi')"], total=1, has_more=False)
    if argument.name == "item_id":
        return Completion(values=["42"], total=1, has_more=False)
    return None


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        app.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
