"""robots.txt policy per RFC 9309, on Protego, with the fetch-outcome rules applied.

- 2xx: the first 500 KiB are parsed (status ``ok``);
- 4xx (404, 401, 403, 410 …) except 429: no restrictions (status ``missing``);
- 5xx, 429, network failure (status 0): everything disallowed on that origin for now
  (status ``unreachable``; the cache keeps it for a short time so the runner retries);
- 3xx: the runner follows up to ``MAX_ROBOTS_REDIRECTS`` hops (``robots_redirect_target``);
  a 3xx left over after that counts as ``missing`` (RFC 9309 §2.3.1.2).

Group selection is done here, not by Protego, to follow RFC 9309 and Google's parser: a
``User-agent`` value is read up to its first character outside ``[A-Za-z_-]`` (so
``Googlebot/2.1`` and ``Foo Bar`` name ``Googlebot`` and ``Foo``) and must equal our product
token case-insensitively; otherwise the ``*`` group applies. Protego on its own would also let
``User-agent: web`` or ``User-agent: Foo Bar`` decide for a crawler named ``webcorpus``/``Foo``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urljoin, urlsplit

from protego import Protego

from webcorpus.crawl.types import FetchResult

RobotsStatus = Literal["ok", "missing", "unreachable", "none yet"]

MAX_ROBOTS_BYTES = 500 * 1024
MAX_ROBOTS_REDIRECTS = 5
_OTHER_AGENT = "x-webcorpus-other-agent"
_UA_LINE_RE = re.compile(r"^(\s*user[-_ ]?agent(?![A-Za-z0-9_-])\s*:?\s*)(.*)$", re.IGNORECASE)
_TOKEN_RE = re.compile(r"[A-Za-z_-]+")


def product_token(user_agent: str) -> str:
    """Product token matched against robots.txt groups: ``webcorpus/0.1 (+…)`` → ``webcorpus``."""
    match = _TOKEN_RE.match(user_agent.strip())
    return match.group(0).lower() if match else ""


def _strip_bom(body: bytes) -> bytes:
    for bom in (b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"):
        if body.startswith(bom):
            return body[len(bom) :]
    return body


def _select_groups(text: str, token: str) -> str:
    """Rename every user-agent that is neither ``*`` nor our token so Protego cannot pick it."""
    out: list[str] = []
    for line in text.splitlines():
        match = _UA_LINE_RE.match(line)
        if match:
            value = match.group(2).split("#", 1)[0].strip()
            if value.startswith("*"):
                name = "*"
            else:
                found = _TOKEN_RE.match(value)
                name = found.group(0).lower() if found else ""
                if not name or name != token:
                    name = _OTHER_AGENT
            line = f"User-agent: {name}"
        out.append(line)
    return "\n".join(out)


@dataclass(slots=True)
class RobotsPolicy:
    status: RobotsStatus
    user_agent: str = ""
    url: str | None = None
    http_status: int = 0
    sitemaps: list[str] = field(default_factory=list)
    _parser: Protego | None = None

    @classmethod
    def parse(cls, body: bytes | str, user_agent: str, url: str | None = None) -> RobotsPolicy:
        """Policy from a robots.txt body (already known to be a 2xx answer)."""
        raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        raw = _strip_bom(raw[:MAX_ROBOTS_BYTES])
        text = raw.decode("utf-8", "replace")
        token = product_token(user_agent)
        parser = Protego.parse(_select_groups(text, token))
        sitemaps: list[str] = []
        for loc in parser.sitemaps:
            absolute = urljoin(url, loc.strip()) if url else loc.strip()
            if absolute.lower().startswith(("http://", "https://")) and absolute not in sitemaps:
                sitemaps.append(absolute)
        return cls("ok", user_agent, url, 200, sitemaps, parser)

    @classmethod
    def allow_all(
        cls, user_agent: str = "", url: str | None = None, http_status: int = 0
    ) -> RobotsPolicy:
        return cls("missing", user_agent, url, http_status)

    @classmethod
    def disallow_all(
        cls, user_agent: str = "", url: str | None = None, http_status: int = 0
    ) -> RobotsPolicy:
        return cls("unreachable", user_agent, url, http_status)

    @classmethod
    def none_yet(cls, user_agent: str = "") -> RobotsPolicy:
        """Placeholder before robots.txt was fetched: allows nothing."""
        return cls("none yet", user_agent)

    @property
    def token(self) -> str:
        return product_token(self.user_agent)

    def allowed(self, url: str) -> bool:
        if self.status == "missing":
            return True
        if self.status != "ok" or self._parser is None:
            return False
        token = self.token or "*"
        return bool(self._parser.can_fetch(url, token))

    @property
    def crawl_delay(self) -> float | None:
        """Crawl-delay of the group that applies to us, uncapped (the runner caps it)."""
        if self._parser is None:
            return None
        delay = self._parser.crawl_delay(self.token or "*")
        return float(delay) if delay is not None else None


def policy_from_fetch(result: FetchResult, user_agent: str) -> RobotsPolicy:
    """Policy for the final answer of a robots.txt fetch (redirects already followed)."""
    status = result.status
    if result.error is not None or status == 0:
        return RobotsPolicy.disallow_all(user_agent, result.url, status)
    if 200 <= status < 300:
        policy = RobotsPolicy.parse(result.body, user_agent, result.url)
        policy.http_status = status
        return policy
    if 300 <= status < 400:
        return RobotsPolicy.allow_all(user_agent, result.url, status)
    if status == 429 or status >= 500:
        return RobotsPolicy.disallow_all(user_agent, result.url, status)
    if 400 <= status < 500:
        return RobotsPolicy.allow_all(user_agent, result.url, status)
    return RobotsPolicy.disallow_all(user_agent, result.url, status)


def robots_redirect_target(result: FetchResult, hops_so_far: int) -> str | None:
    """Absolute URL to fetch next when ``result`` is a redirect worth following, else None.

    ``hops_so_far`` counts the redirects already followed for this robots.txt; after
    ``MAX_ROBOTS_REDIRECTS`` the runner stops and passes the 3xx to ``policy_from_fetch``.
    Redirects to other hosts are followed too (RFC 9309 allows it; Google does the same).
    """
    if result.error is not None or not (300 <= result.status < 400):
        return None
    if result.status in (304, 305, 306) or hops_so_far >= MAX_ROBOTS_REDIRECTS:
        return None
    location = result.location
    if not location:
        return None
    target = urljoin(result.url, location.strip())
    if not target.lower().startswith(("http://", "https://")):
        return None
    return target


def robots_url(url: str) -> str:
    """``scheme://host[:port]/robots.txt`` for any URL on that origin."""
    return origin_of(url) + "/robots.txt"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class RobotsCache:
    """Policies per origin. ``ok``/``missing`` live ``max_age_s``; ``unreachable`` only
    ``retry_after_s`` so the host is tried again; ``none yet`` is never stored."""

    def __init__(
        self,
        *,
        max_age_s: float = 24 * 3600,
        retry_after_s: float = 600,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_age_s = max_age_s
        self.retry_after_s = retry_after_s
        self._clock = clock
        self._entries: dict[str, tuple[float, RobotsPolicy]] = {}

    def get(self, url_or_origin: str) -> RobotsPolicy | None:
        key = origin_of(url_or_origin)
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires, policy = entry
        if self._clock() >= expires:
            del self._entries[key]
            return None
        return policy

    def put(self, url_or_origin: str, policy: RobotsPolicy) -> None:
        if policy.status == "none yet":
            return
        ttl = self.retry_after_s if policy.status == "unreachable" else self.max_age_s
        self._entries[origin_of(url_or_origin)] = (self._clock() + ttl, policy)

    def __len__(self) -> int:
        return len(self._entries)
