"""Per-document URL resolution: urljoin is the costliest call on link-heavy docs pages, and the
same few hrefs (``page.html#a``, ``page.html#b`` …) repeat, so results are cached per base URL
on the href without its fragment."""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin

_MAX_CACHE = 50_000


class Resolver:
    __slots__ = ("_cache", "base")

    def __init__(self, base: str) -> None:
        self.base = base
        self._cache: dict[str, str] = {}

    def resolve(self, href: str) -> str:
        """Absolute URL of ``href`` (stripped by the caller) without fragment; "" if invalid."""
        path = href.partition("#")[0]
        url = self._cache.get(path)
        if url is None:
            try:
                url = urldefrag(urljoin(self.base, path))[0]
            except ValueError:
                url = ""
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
