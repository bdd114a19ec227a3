"""Root-domain validation for crawl requests, on the Public Suffix List.

``validate_root_domain`` is what ``POST /api/crawl`` runs on its ``domain`` field. A subdomain
(``www.python.org``, ``docs.python.org``) is *normalized* to its registrable domain
(``python.org``) rather than rejected: the whole registrable domain is the crawl target anyway,
and subdomains are in scope.

The PSL used is the snapshot shipped in the ``publicsuffixlist`` package (ICANN and private
sections, so ``foo.github.io`` is a registrable domain of its own); nothing is fetched.
Names under special-use suffixes (RFC 6761 and friends) are refused unless
``allow_private_suffixes=True``, which tests use for fixture sites such as ``hostile.example``.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

import idna
from publicsuffixlist import PublicSuffixList

# Special-use and private-use names that never reach a public site.
SPECIAL_USE_SUFFIXES: frozenset[str] = frozenset(
    {
        "localhost",
        "local",
        "test",
        "example",
        "invalid",
        "onion",
        "alt",
        "internal",
        "intranet",
        "lan",
        "home",
        "corp",
        "private",
        "localdomain",
        "home.arpa",
        "arpa",  # in-addr.arpa, ip6.arpa: reverse DNS, never a site
    }
)

_LABEL_RE = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_HEX_RE = re.compile(r"^0x[0-9a-f]*$")
_FORBIDDEN_CHARS = {
    "/": "a path",
    "?": "a query",
    "#": "a fragment",
    "@": "user info",
    "\\": "a backslash",
}


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList(accept_unknown=False)


def _looks_like_ip(host: str) -> bool:
    """True for IPv6 literals and anything a URL parser would read as IPv4.

    WHATWG URL rule: a host whose last label is a number (decimal, ``0x`` hex) is an IPv4
    address, so ``2130706433``, ``0x7f.1`` and ``127.1`` all count.
    """
    if host.startswith("[") or ":" in host:
        return True
    labels = host.rstrip(".").split(".")
    last = labels[-1] if labels else ""
    if last.isdigit() or _HEX_RE.match(last):
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _special_use(host: str) -> str | None:
    labels = host.split(".")
    for i in range(len(labels)):
        suffix = ".".join(labels[i:])
        if suffix in SPECIAL_USE_SUFFIXES:
            return suffix
    return None


def _to_ascii(value: str) -> str:
    """Lower-case, IDNA-encode (UTS #46) and check each label is LDH."""
    host = value.strip().lower().rstrip(".")
    if not host:
        raise ValueError("domain is empty")
    try:
        host = idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise ValueError(f"domain {value!r} is not a valid host name: {exc}") from None
    host = host.rstrip(".")
    if len(host) > 253:
        raise ValueError("domain is longer than 253 characters")
    for label in host.split("."):
        if not _LABEL_RE.match(label):
            raise ValueError(f"domain {value!r} has an invalid label {label!r}")
    return host


@lru_cache(maxsize=65536)
def registrable_domain(host: str, *, allow_private_suffixes: bool = False) -> str | None:
    """The registrable domain (eTLD+1) of ``host``, or None when it has none.

    None for IP literals, single labels, bare public suffixes, invalid names and (unless
    ``allow_private_suffixes``) names under special-use or unknown suffixes. Cached: a domain
    record maps every external host its pages link to (IDNA checks cost ~0.2 ms a host).
    """
    try:
        ascii_host = _to_ascii(host)
    except ValueError:
        return None
    if _looks_like_ip(ascii_host) or "." not in ascii_host:
        return None
    if not allow_private_suffixes and _special_use(ascii_host):
        return None
    result = _psl().privatesuffix(ascii_host, accept_unknown=allow_private_suffixes)
    return result if isinstance(result, str) else None


def validate_root_domain(value: str, *, allow_private_suffixes: bool = False) -> str:
    """Normalize a user-supplied root domain; raise ``ValueError`` with an API-ready message.

    Returns the registrable domain in lower-case ASCII (punycode). A subdomain is normalized to
    its registrable domain (``www.python.org`` → ``python.org``).
    """
    if not isinstance(value, str):
        raise ValueError("domain must be a string")
    raw = value.strip()
    if not raw:
        raise ValueError("domain is empty")
    if len(raw) > 300:
        raise ValueError("domain is too long")
    if "://" in raw or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:/", raw):
        raise ValueError(
            f"domain {value!r} looks like a URL: give the domain only, e.g. 'python.org'"
        )
    if raw.startswith("[") or raw.count(":") > 1:
        raise ValueError(f"domain {value!r} is an IP address: give a domain name")
    for char, what in _FORBIDDEN_CHARS.items():
        if char in raw:
            raise ValueError(f"domain {value!r} contains {what}: give the domain only")
    if ":" in raw:
        raise ValueError(f"domain {value!r} contains a port: give the domain only")
    if any(c.isspace() for c in raw):
        raise ValueError(f"domain {value!r} contains whitespace")

    host = _to_ascii(raw)
    if _looks_like_ip(host):
        raise ValueError(f"domain {value!r} is an IP address: give a domain name")
    if "." not in host:
        raise ValueError(
            f"domain {value!r} is a single label: give a public domain such as 'python.org'"
        )
    special = _special_use(host)
    if special and not allow_private_suffixes:
        raise ValueError(
            f"domain {value!r} is under the special-use suffix '.{special}', "
            "which is not on the public internet"
        )
    psl = _psl()
    if psl.is_public(host, accept_unknown=allow_private_suffixes):
        raise ValueError(f"domain {value!r} is a public suffix: give a registrable domain under it")
    if psl.publicsuffix(host, accept_unknown=allow_private_suffixes) is None:
        raise ValueError(f"domain {value!r} is not under a known public suffix")
    registrable = psl.privatesuffix(host, accept_unknown=allow_private_suffixes)
    if not isinstance(registrable, str):
        raise ValueError(f"domain {value!r} has no registrable part")
    return registrable
