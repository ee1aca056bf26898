"""Each Space's demo is an MCP server too (issue 35, item 5): launch(mcp_server=True), one
tool named after the Space, documented by its function's docstring and type hints. Driven
on loopback with the `mcp` client package (the gradio[mcp] extra): the tools listed, the
tool called on the page's example, its figures equal to compute() on the same inputs."""

import asyncio
import inspect
import json
import math

import pytest


async def _session(url, work):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    async with streamablehttp_client(f"{url}gradio_api/mcp/") as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)


def tools_and_call(url, name, arguments):
    """(the tools listed, the text of the tool `name` called with `arguments`)."""

    async def work(session):
        tools = (await session.list_tools()).tools
        answer = await session.call_tool(name, arguments)
        assert not answer.isError, answer.content
        return tools, answer.content[0].text

    return asyncio.run(_session(url, work))


def test_the_demo_is_an_mcp_server_whose_tool_gives_computes_figures(served):
    space, app, url = served
    function = getattr(app, space)  # the tool: a function named after the Space
    parameters = inspect.signature(function).parameters
    arguments = {name: app.EXAMPLE[name] for name in parameters if name in app.EXAMPLE}
    tools, text = tools_and_call(url, space, arguments)
    # one tool (the page's own endpoints are not tools): named, described, its inputs documented
    assert [tool.name for tool in tools] == [space]
    (tool,) = tools
    assert len(tool.description) > 80 and "Returns" in tool.description
    properties = tool.inputSchema["properties"]
    assert list(properties) == list(parameters)
    assert all(len(p.get("description", "")) > 10 for p in properties.values()), properties
    assert tool.inputSchema["required"] == ["predictions", "references"]
    # the figures compute() gives on the same inputs, to the last bit (JSON null for NaN)
    expected = app.metric.fresh().compute(**app.compute_kwargs(**app.EXAMPLE), return_signature=True)
    got = json.loads(text)
    numbers = {key: value for key, value in expected.items() if isinstance(value, float)}
    assert numbers
    for key, value in numbers.items():
        assert (got[key] is None and math.isnan(value)) or got[key] == value, key
    assert got["signature"].split("|")[0] == expected["signature"].split("|")[0]


@pytest.mark.parametrize("served", ["micro_macro"], indirect=True)
def test_the_tool_refuses_bad_input_in_the_pages_terms(served):
    """A bad call is the page's error (by name, 1-based), and the server keeps serving."""
    _, app, url = served

    async def work(session):
        bad = await session.call_tool("micro_macro", {"predictions": "Attack", "references": "Attack None"})
        good = await session.call_tool("micro_macro", {"predictions": "Attack None", "references": "Attack None", "convention": "none"})
        return bad, good

    bad, good = asyncio.run(_session(url, work))
    assert bad.isError and "differ in length" in bad.content[0].text
    assert json.loads(good.content[0].text)["micro_f1"] == 1.0
