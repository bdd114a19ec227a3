"""RFC 9457 problem details for every error the HTTP API returns."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from webcorpus import __version__
from webcorpus.services.errors import TITLES, ServiceError

log = logging.getLogger("webcorpus.api")

_STATUS_CODES = {
    400: "invalid_parameter",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


def problem(
    code: str,
    detail: str,
    *,
    errors: list[dict[str, str]] | None = None,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    title, status = TITLES[code]
    body: dict[str, Any] = {
        "type": f"urn:webcorpus:error:{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors:
        body["errors"] = errors
    if extra:
        body.update(extra)
    return JSONResponse(
        body, status_code=status, headers=headers, media_type="application/problem+json"
    )


def _validation_errors(exc: RequestValidationError) -> tuple[str, list[dict[str, str]], str]:
    errors = []
    in_body = False
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        where = loc[0] if loc else ""
        in_body = in_body or where == "body"
        name = ".".join(loc[1:]) or where
        key = "field" if where == "body" else "param"
        errors.append({key: name, "message": str(err.get("msg", "invalid"))})
    code = "invalid_body" if in_body else "invalid_parameter"
    detail = "; ".join(f"{e.get('param') or e.get('field')}: {e['message']}" for e in errors)
    return code, errors, detail


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return problem(
            exc.code, exc.detail, errors=exc.errors, headers=exc.headers, extra=exc.extra
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        code, errors, detail = _validation_errors(exc)
        return problem(code, detail, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "invalid_parameter")
        detail = exc.detail if isinstance(exc.detail, str) else TITLES[code][0]
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such endpoint: {request.method} {request.url.path}"
        return problem(code, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        # Answered by Starlette's outermost middleware, outside the app's own (which sets the
        # version header on every other response).
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem(
            "internal",
            "the server failed to answer; the error has been logged",
            headers={"X-Webcorpus-Version": __version__},
        )


PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "title", "status", "detail", "code"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "string", "enum": sorted(TITLES)},
        "errors": {"type": "array", "items": {"type": "object"}},
    },
}
_DOCUMENTED = {
    "400": "invalid parameter or body",
    "401": "missing or unknown key",
    "403": "the key lacks the right",
    "404": "not found",
    "405": "method not allowed",
    "409": "conflict",
    "413": "body too large",
    "415": "body is not application/json",
    "429": "rate limited (Retry-After)",
    "500": "internal error",
}


def install_openapi(app: FastAPI) -> None:
    """Describe errors as RFC 9457 problem documents; FastAPI's default 422 is never sent."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        from fastapi.openapi.utils import get_openapi

        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
        ref = {"$ref": "#/components/schemas/Problem"}
        for path_item in schema.get("paths", {}).values():
            for operation in path_item.values():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for status, text in _DOCUMENTED.items():
                    responses.setdefault(
                        status,
                        {
                            "description": text,
                            "content": {"application/problem+json": {"schema": ref}},
                        },
                    )
        for name in ("HTTPValidationError", "ValidationError"):
            schema["components"]["schemas"].pop(name, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
