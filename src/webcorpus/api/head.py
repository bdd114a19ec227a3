"""HEAD requests: the GET answer's status and headers, without its body.

FastAPI routes answer only the methods they declare, so ``curl -I`` and uptime checks got a 405
from every GET endpoint. HEAD is served as GET with the body dropped on the way out (the headers,
``Content-Length`` included, are the GET's). Not on ``/api/mcp``, where GET opens an event stream.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadRequests:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "HEAD"
            or scope.get("path", "").startswith("/api/mcp")
        ):
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
