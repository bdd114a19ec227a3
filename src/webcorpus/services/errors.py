"""Errors raised by services; adapters (HTTP, MCP) turn them into problem details / tool errors."""

from __future__ import annotations

from dataclasses import dataclass, field

TITLES = {
    "invalid_parameter": ("Invalid parameter", 400),
    "invalid_body": ("Invalid body", 400),
    "unauthorized": ("Unauthorized", 401),
    "forbidden": ("Forbidden", 403),
    "not_found": ("Not found", 404),
    "method_not_allowed": ("Method not allowed", 405),
    "conflict": ("Conflict", 409),
    "payload_too_large": ("Payload too large", 413),
    "unsupported_media_type": ("Unsupported media type", 415),
    "rate_limited": ("Too many requests", 429),
    "internal": ("Internal error", 500),
}


@dataclass
class ServiceError(Exception):
    code: str
    detail: str
    errors: list[dict[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.detail)

    @property
    def status(self) -> int:
        return TITLES[self.code][1]

    @property
    def title(self) -> str:
        return TITLES[self.code][0]


def invalid_param(param: str, message: str) -> ServiceError:
    return ServiceError(
        "invalid_parameter", f"{param}: {message}", [{"param": param, "message": message}]
    )


def invalid_body(field_name: str, message: str) -> ServiceError:
    return ServiceError(
        "invalid_body", f"{field_name}: {message}", [{"field": field_name, "message": message}]
    )


def not_found(what: str) -> ServiceError:
    return ServiceError("not_found", f"{what} not found")
