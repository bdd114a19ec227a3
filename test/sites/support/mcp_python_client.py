"""The official MCP Python SDK (PyPI `mcp`) against a running webcorpus: initialize, list the
tools, call every one of them with arguments taken from the corpus, and one with a bad argument.

Usage: python mcp_python_client.py URL FACTS_JSON, with the API key in $WEBCORPUS_KEY (sent as
`Authorization: Bearer`). FACTS_JSON names what the corpus holds: {"domain", "shelf", "job_id",
"query", "new_domain", "shelf_domain"}; the page id comes from list_content, the shelf from
list_collections.

Prints one JSON line per step ({"tool", "ok", "text_chars", "structured_chars", "error"}) and exits
1 when any step failed. The SDK's ClientSession.call_tool validates each result's structured
content against the tool's outputSchema itself (and raises RuntimeError when it cannot); every
result is then validated again here, with jsonschema as the SDK does it, so a failure names the
tool and the reason. Written for the 2.x SDK (httpx2, snake_case models); runs on 1.x too.
"""

import asyncio
import json
import os
import sys
from typing import Any

from jsonschema import SchemaError, ValidationError, validate
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from referencing import Registry

try:  # mcp 2.x
    import httpx2 as httpx
except ImportError:  # mcp 1.x
    import httpx

failed = False


def field(obj: Any, snake: str, camel: str) -> Any:
    """A result field under its 2.x (snake_case) or 1.x (camelCase) name."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def report(tool: str, ok: bool, **extra: Any) -> None:
    global failed
    failed = failed or not ok
    print(json.dumps({"tool": tool, "ok": ok, **extra}), flush=True)


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def check_output(schema: dict[str, Any] | None, structured: Any) -> str | None:
    """What the SDK's client checks: jsonschema.validate with an empty registry (so `$ref`s
    resolve only within the schema). None when the content conforms."""
    if schema is None:
        return "the tool has no outputSchema"
    if structured is None:
        return "no structuredContent"
    try:
        validate(structured, schema, registry=Registry())
    except SchemaError as e:
        return f"invalid outputSchema: {e.message}"
    except ValidationError as e:
        return f"structuredContent does not match outputSchema: {e.message} at {list(e.absolute_path)}"
    except Exception as e:  # referencing.exceptions.Unresolvable and the like
        return f"{type(e).__name__}: {e}"
    return None


async def main(url: str, key: str, facts: dict[str, str]) -> None:
    async with (
        httpx.AsyncClient(
            headers={"Authorization": f"Bearer {key}"},
            timeout=httpx.Timeout(30.0, read=60.0),
        ) as http,
        streamable_http_client(url, http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        init = await session.initialize()
        server = field(init, "server_info", "serverInfo")
        report("initialize", server.name == "webcorpus", server=server.name)

        listing = await session.list_tools()
        schemas: dict[str, dict[str, Any] | None] = {}
        for tool in listing.tools:
            schemas[tool.name] = field(tool, "output_schema", "outputSchema")
        report("list_tools", len(schemas) > 0, tools=sorted(schemas))

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
            try:
                # The SDK validates structured content against the outputSchema here.
                result = await session.call_tool(name, arguments)
            except Exception as e:
                report(name, False, error=f"{type(e).__name__}: {e}"[:1000])
                return None
            text = text_of(result)
            structured = field(result, "structured_content", "structuredContent")
            problem = None
            if field(result, "is_error", "isError"):
                problem = f"isError: {text[:300]}"
            elif not text.strip():
                problem = "empty text content"
            else:
                problem = check_output(schemas.get(name), structured)
            size = len(json.dumps(structured)) if structured is not None else 0
            report(
                name,
                problem is None,
                text_chars=len(text),
                structured_chars=size,
                **({"error": problem} if problem else {}),
            )
            return structured if problem is None else None

        domain = facts["domain"]
        shelves = await call("list_collections", {})
        slug = shelves["data"][0]["slug"] if shelves and shelves.get("data") else facts["shelf"]
        await call("get_collection", {"slug": slug})

        pages = await call("list_content", {"domain": domain, "limit": 3})
        if pages is not None and not pages.get("data"):
            report("list_content", False, error=f"no page of {domain} listed")
        if pages and pages.get("data"):
            page_id = pages["data"][0]["id"]
            await call("get_page", {"page_id": page_id})
            await call("get_page_markdown", {"page_id": page_id, "max_chars": 200})
        else:
            for name in ("get_page", "get_page_markdown"):
                report(name, False, error="not called: list_content gave no page id")

        await call("get_domain", {"domain": domain})
        await call("get_domain_markdown", {"domain": domain, "limit": 2, "max_chars": 1500})
        await call("list_facets", {"domain": domain})

        found = await call("search", {"q": facts["query"], "limit": 5})
        if found is not None and not found.get("data"):
            report("search", False, error=f"no hit for {facts['query']!r}")
        await call("get_job", {"job_id": facts["job_id"]})

        await call("start_crawl", {"domain": facts["new_domain"], "max_pages": 5})
        await call("read_url", {"url": facts["read_url"], "max_chars": 500})
        await call(
            "place_on_shelf",
            {"collection": slug, "domain": facts["shelf_domain"], "reason": "makes rockets"},
        )

        never = sorted(set(schemas) - CALLED)
        if never:
            report("coverage", False, error=f"listed tools this script does not call: {never}")

        # A bad argument: a tool error (isError) with a readable text, not a protocol error.
        try:
            bad = await session.call_tool("list_content", {"domain": domain, "limit": -1})
            text = text_of(bad)
            is_error = bool(field(bad, "is_error", "isError"))
            ok = is_error and "limit" in text and not text.lstrip().startswith("{")
            report(
                "bad_argument",
                ok,
                text_chars=len(text),
                text=text[:200],
                **({} if ok else {"error": "expected isError and a text naming limit"}),
            )
        except Exception as e:
            report("bad_argument", False, error=f"{type(e).__name__}: {e}")


CALLED = {
    "list_collections",
    "get_collection",
    "list_content",
    "get_page",
    "get_page_markdown",
    "get_domain",
    "get_domain_markdown",
    "list_facets",
    "search",
    "get_job",
    "start_crawl",
    "read_url",
    "place_on_shelf",
}

if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], os.environ["WEBCORPUS_KEY"], json.loads(sys.argv[2])))
    except BaseException as e:  # an ExceptionGroup from the SDK's task groups, a refused connection
        report("session", False, error=f"{type(e).__name__}: {e}")
    sys.exit(1 if failed else 0)
