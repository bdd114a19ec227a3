"""Per-document URL resolution: urljoin is the costliest call on link-heavy docs pages, and the
same few hrefs (``page.html#a``, ``page.html#b`` …) repeat, so results are cached per base URL
on the href without its fragment. Relative hrefs also repeat across the pages of a directory
(``../library/os.html`` from every page of ``/3/tutorial/``): for those the join depends only on
the base's scheme, host and directory, so a process-wide cache keyed on them serves every page."""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlparse

_MAX_CACHE = 50_000
# (base scheme, host and directory segments, href without fragment) -> resolved URL
_SHARED: dict[tuple[tuple[str, str, tuple[str, ...]], str], str] = {}


def _dir_key(base: str) -> tuple[str, str, tuple[str, ...]] | None:
    """What ``urljoin(base, href)`` uses of ``base`` when ``href`` has a path of its own: the
    scheme, the host and the base path's segments without its last one (as urljoin splits it)."""
    if not base:
        return None
    try:
        scheme, netloc, path = urlparse(base)[:3]
    except ValueError:
        return None
    parts = path.split("/")
    if parts[-1] != "":
        del parts[-1]
    return scheme, netloc, tuple(parts)


def _has_own_path(href: str) -> bool:
    """Whether urljoin resolves ``href`` (no fragment) without the base's last segment, query or
    parameters: a relative path reference that starts with an alphanumeric or one of ``._~%-``,
    or with a single "/", has no ":" in its first segment (maybe a scheme) and no tab or line
    break (urlsplit removes those, which could leave an empty path)."""
    if not href or "\t" in href or "\n" in href or "\r" in href:
        return False
    first = href[0]
    if first == "/":
        if href.startswith("//"):
            return False
    elif not (first.isalnum() or first in "._~%-"):
        return False
    return ":" not in href.partition("/")[0]


class Resolver:
    __slots__ = ("_cache", "_dir", "base")

    def __init__(self, base: str) -> None:
        self.base = base
        self._cache: dict[str, str] = {}
        self._dir = _dir_key(base)

    def resolve(self, href: str) -> str:
        """Absolute URL of ``href`` (stripped by the caller) without fragment; "" if invalid."""
        path = href.partition("#")[0]
        url = self._cache.get(path)
        if url is None:
            key = (self._dir, path) if self._dir is not None and _has_own_path(path) else None
            url = _SHARED.get(key) if key is not None else None
            if url is None:
                try:
                    url = urldefrag(urljoin(self.base, path))[0]
                except ValueError:
                    url = ""
                if key is not None:
                    if len(_SHARED) >= _MAX_CACHE:
                        _SHARED.clear()
                    _SHARED[key] = url
            if len(self._cache) >= _MAX_CACHE:
                self._cache.clear()
            self._cache[path] = url
        return url

    def absolute(self, href: str) -> str | None:
        """Absolute http(s) URL of ``href`` with its fragment; None for other schemes/invalid."""
        url = self.resolve(href)
        if not url.startswith(("http://", "https://")):
            return None
        frag = href.partition("#")[2]
        return f"{url}#{frag}" if frag else url


_last: tuple[str, Resolver] | None = None


def resolver(base: str) -> Resolver:
    """The resolver for ``base``: shared between the link extractor and the markdown renderer of
    one document (the last base's resolver is kept)."""
    global _last
    last = _last
    if last is not None and last[0] == base:
        return last[1]
    r = Resolver(base)
    _last = (base, r)
    return r
