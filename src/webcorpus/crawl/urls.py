"""URL normalization, page ids, scope and crawler-trap guards.

Normalization choices (``normalize_url``), all deterministic and idempotent:

- relative references are resolved against ``base``; only http/https survive;
- scheme and host lower-cased, host IDNA (UTS #46) encoded, trailing dot removed, numeric IPv4
  forms (``2130706433``, ``0x7f.1``) written as dotted quads, IPv6 compressed;
- user info and the fragment are dropped, the default port is dropped;
- percent-encoding: escapes of unreserved characters decoded, other escapes upper-cased,
  characters that need escaping (spaces, non-ASCII as UTF-8, stray ``%``) encoded;
- dot segments removed, empty path becomes ``/``;
- query parameters keep their order (sorting breaks some sites and content hashing catches the
  duplicates anyway); empty parameters and tracking/session parameters are removed
  (``utm_*``, ``gclid``, ``fbclid``, ``jsessionid``, ``phpsessid``, ``sid``…), as is a
  ``;jsessionid=`` path parameter. ``+`` is left as is.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import string
from collections import Counter, OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit

import idna

if TYPE_CHECKING:
    from webcorpus.config import Settings

_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_SUB_DELIMS = "!$&'()*+,;="
_PATH_SAFE = frozenset(_UNRESERVED | set(_SUB_DELIMS) | set(":@/"))
_QUERY_SAFE = frozenset(_PATH_SAFE | {"?"})
_HEX = frozenset(string.hexdigits)
_ASCII_HOST_RE = re.compile(r"^[a-z0-9_.-]+$")
_C0_OR_SPACE = "".join(chr(i) for i in range(0x21))
_STRIP_INSIDE = {ord("\t"): None, ord("\n"): None, ord("\r"): None}
_SESSION_PATH_PARAM_RE = re.compile(r";(?:jsessionid|phpsessid|sid)=[^/]*", re.IGNORECASE)

TRACKING_PARAMS: frozenset[str] = frozenset(
    {
        "gclid",
        "gclsrc",
        "dclid",
        "gbraid",
        "wbraid",
        "fbclid",
        "msclkid",
        "yclid",
        "twclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "jsessionid",
        "phpsessid",
        "aspsessionid",
        "sessionid",
        "session_id",
        "sid",
        "cfid",
        "cftoken",
    }
)
TRACKING_PREFIXES: tuple[str, ...] = ("utm_", "pk_", "mtm_", "hsa_")

NON_HTML_EXTENSIONS: frozenset[str] = frozenset(
    {
        # documents
        "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "epub",
        "ps", "eps",
        # images
        "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "heic",
        # audio / video
        "mp3", "wav", "ogg", "oga", "flac", "m4a", "aac", "mp4", "m4v", "webm", "mov", "avi",
        "mkv", "wmv", "flv",
        # archives / binaries
        "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "war", "whl", "egg",
        "deb", "rpm", "dmg", "pkg", "msi", "exe", "apk", "iso", "img", "bin",
        # web assets and data
        "css", "js", "mjs", "map", "json", "woff", "woff2", "ttf", "otf", "eot", "wasm",
        "csv", "tsv", "parquet",
    }
)  # fmt: skip


_PLAIN_RE = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/]*")


def _norm_percent(text: str, safe: frozenset[str]) -> str:
    if _PLAIN_RE.fullmatch(text):  # fast path: nothing to decode or encode (safe ⊇ these)
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%":
            if i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX:
                decoded = chr(int(text[i + 1 : i + 3], 16))
                out.append(decoded if decoded in _UNRESERVED else "%" + text[i + 1 : i + 3].upper())
                i += 3
                continue
            out.append("%25")
        elif ch in safe:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        i += 1
    return "".join(out)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4."""
    if "." not in path:
        return path
    segments = path.split("/")
    out: list[str] = []
    for seg in segments[1:] if path.startswith("/") else segments:
        if seg == "..":
            if out:
                out.pop()
        elif seg != ".":
            out.append(seg)
    result = "/" + "/".join(out)
    if segments[-1] in (".", "..") and not result.endswith("/"):
        result += "/"
    return result


def _parse_ipv4_number(part: str) -> int | None:
    if not part:
        return None
    base = 10
    if part[:2] in ("0x", "0X"):
        part, base = part[2:], 16
        if not part:
            return 0
    elif len(part) > 1 and part[0] == "0":
        part, base = part[1:], 8
    try:
        return int(part, base)
    except ValueError:
        return None


def _parse_ipv4(host: str) -> str | None:
    """WHATWG IPv4 parser: ``None`` means "not an IPv4 address", ``""`` means "invalid"."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if not (last.isdigit() or re.fullmatch(r"0[xX][0-9a-fA-F]*", last)):
        return None
    if len(parts) > 4:
        return ""
    numbers = [_parse_ipv4_number(p) for p in parts]
    if any(num is None for num in numbers):
        return ""
    nums = [num for num in numbers if num is not None]
    if any(num > 255 for num in nums[:-1]) or nums[-1] >= 256 ** (5 - len(nums)):
        return ""
    value = nums[-1]
    for idx, num in enumerate(nums[:-1]):
        value += num * 256 ** (3 - idx)
    return str(ipaddress.IPv4Address(value))


@lru_cache(maxsize=8192)  # a crawl sees few distinct hosts; IDNA is the costly part
def _normalize_host(host: str) -> str | None:
    if host.startswith("["):
        if not host.endswith("]"):
            return None
        try:
            return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]"
        except ValueError:
            return None
    host = host.lower().rstrip(".")
    if not host:
        return None
    if "%" in host:
        return None
    try:
        host = idna.encode(host, uts46=True).decode("ascii").rstrip(".")
    except (idna.IDNAError, UnicodeError):
        if not _ASCII_HOST_RE.match(host):
            return None
    if not host or ".." in host or host.startswith("."):
        return None
    ipv4 = _parse_ipv4(host)
    if ipv4 is not None:
        return ipv4 or None
    return host


def _clean_query(query: str) -> str:
    kept: list[str] = []
    for param in query.split("&"):
        if not param:
            continue
        name = param.split("=", 1)[0]
        key = _norm_percent(name, _QUERY_SAFE).lower()
        if key in TRACKING_PARAMS or key.startswith(TRACKING_PREFIXES):
            continue
        kept.append(_norm_percent(param, _QUERY_SAFE))
    return "&".join(kept)


@lru_cache(maxsize=32768)
def normalize_url(url: str, base: str | None = None) -> str | None:
    """Canonical form of ``url`` (resolved against ``base``), or None when not crawlable.

    Cached: a site's navigation links recur on every page, and the crawler normalizes each link
    of each page (a few hundred per documentation page).
    """
    url = url.strip(_C0_OR_SPACE).translate(_STRIP_INSIDE)
    if base is not None:
        try:
            url = urljoin(base.strip(_C0_OR_SPACE).translate(_STRIP_INSIDE), url)
        except ValueError:
            return None
    url = url.replace("\\", "/") if url[:5].lower() in ("http:", "https") else url
    try:
        parts: SplitResult = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https"):
            return None
        hostname = parts.netloc.rpartition("@")[2]
        port = parts.port
    except ValueError:
        return None
    if hostname.startswith("["):
        hostname = hostname[: hostname.find("]") + 1]
    elif ":" in hostname:
        hostname = hostname.rsplit(":", 1)[0]
    host = _normalize_host(hostname)
    if not host:
        return None
    netloc = host
    if port is not None and port != (80 if scheme == "http" else 443):
        netloc = f"{host}:{port}"
    path = _SESSION_PATH_PARAM_RE.sub("", parts.path)
    path = _remove_dot_segments(_norm_percent(path, _PATH_SAFE)) or "/"
    if not path.startswith("/"):
        path = "/" + path
    query = _clean_query(parts.query)
    return urlunsplit((scheme, netloc, path, query, ""))


def page_id(normalized_url: str) -> str:
    """``pg_`` + 16 lowercase hex chars of SHA-256 of the normalized URL."""
    return "pg_" + hashlib.sha256(normalized_url.encode("utf-8")).hexdigest()[:16]


@lru_cache(maxsize=32768)
def url_host(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.rstrip(".").lower() if host else None


@lru_cache(maxsize=32768)
def in_scope(url: str, root_domain: str) -> bool:
    """True when ``url`` is http(s) and its host is ``root_domain`` or one of its subdomains."""
    if not url[:5].lower().startswith(("http:", "https")):
        return False
    host = url_host(url)
    root = root_domain.rstrip(".").lower()
    if not host or not root:
        return False
    return host == root or host.endswith("." + root)


def looks_like_non_html(url: str) -> bool:
    """True when the URL's last path segment has a file extension that is never an HTML page.

    Advisory only: the runner may skip fetching such URLs and book them as ``notHtml``, or fetch
    them and trust the Content-Type. URLs without an extension are assumed to be pages.
    """
    try:
        path = urlsplit(url).path
    except ValueError:
        return False
    last = path.rsplit("/", 1)[-1]
    if "." not in last:
        return False
    return last.rsplit(".", 1)[-1].lower() in NON_HTML_EXTENSIONS


def _max_repeats(segments: list[str]) -> int:
    """Highest number of times one path segment occurs.

    This also bounds back-to-back repetition of longer blocks (``/a/b/a/b/a/b``): every segment
    of a block repeated r times occurs at least r times.
    """
    return max(Counter(segments).values(), default=0)


class TrapGuard:
    """Filters URLs that look like crawler traps. Keeps per-path query variant counts (state)."""

    def __init__(
        self,
        *,
        max_depth: int = 30,
        max_url_length: int = 1024,
        max_query_params: int = 8,
        max_repeated_segments: int = 3,
        max_query_variants_per_path: int = 50,
        max_tracked_paths: int = 100_000,
    ) -> None:
        self.max_depth = max_depth
        self.max_url_length = max_url_length
        self.max_query_params = max_query_params
        self.max_repeated_segments = max_repeated_segments
        self.max_query_variants_per_path = max_query_variants_per_path
        self._max_tracked_paths = max_tracked_paths
        self._variants: OrderedDict[str, set[str]] = OrderedDict()

    @classmethod
    def from_settings(cls, settings: Settings) -> TrapGuard:
        return cls(
            max_depth=settings.max_depth,
            max_url_length=settings.max_url_length,
            max_query_params=settings.max_query_params,
            max_repeated_segments=settings.max_repeated_segments,
            max_query_variants_per_path=settings.max_query_variants_per_path,
        )

    def check(self, url: str, depth: int) -> str | None:
        """A reason string when ``url`` (normalized) must be filtered, else None.

        A URL that passes is recorded, so the same URL checked again still passes.
        """
        if depth > self.max_depth:
            return f"trap: link depth {depth} exceeds max_depth {self.max_depth}"
        if len(url) > self.max_url_length:
            return f"trap: URL length {len(url)} exceeds max_url_length {self.max_url_length}"
        try:
            parts = urlsplit(url)
        except ValueError:
            return "trap: unparsable URL"
        segments = [s for s in parts.path.split("/")[1:] if s]
        repeats = _max_repeats(segments)
        if repeats > self.max_repeated_segments:
            return (
                f"trap: path segments repeat {repeats} times "
                f"(max_repeated_segments {self.max_repeated_segments})"
            )
        params = [p for p in parts.query.split("&") if p]
        if len(params) > self.max_query_params:
            return (
                f"trap: {len(params)} query parameters (max_query_params {self.max_query_params})"
            )
        if parts.query:
            key = f"{parts.scheme}://{parts.netloc}{parts.path}"
            seen = self._variants.get(key)
            if seen is None:
                seen = set()
                self._variants[key] = seen
                if len(self._variants) > self._max_tracked_paths:
                    self._variants.popitem(last=False)
            digest = hashlib.blake2b(parts.query.encode(), digest_size=8).hexdigest()
            if digest not in seen:
                if len(seen) >= self.max_query_variants_per_path:
                    return (
                        f"trap: more than {self.max_query_variants_per_path} query variants "
                        f"of {key} (max_query_variants_per_path)"
                    )
                seen.add(digest)
        return None
