"""SSRF guard: which addresses the crawler may connect to, checked at connect time.

The guard lives in the aiohttp resolver, so the addresses that were checked are exactly the ones
aiohttp connects to (no second lookup a DNS-rebinding attacker could answer differently).
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver

IPAddress = IPv4Address | IPv6Address
IPNetwork = IPv4Network | IPv6Network

_V4_BLOCKED = tuple(
    IPv4Network(n)
    for n in (
        "0.0.0.0/8",  # "this network", incl. unspecified
        "10.0.0.0/8",
        "100.64.0.0/10",  # CGNAT shared address space
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, cloud metadata 169.254.169.254
        "172.16.0.0/12",
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # TEST-NET-1
        "192.88.99.0/24",  # 6to4 relay anycast
        "192.168.0.0/16",
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # TEST-NET-2
        "203.0.113.0/24",  # TEST-NET-3
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, incl. broadcast 255.255.255.255
    )
)

_V6_BLOCKED = tuple(
    IPv6Network(n)
    for n in (
        "::/96",  # unspecified, loopback, IPv4-compatible
        "::ffff:0:0/96",  # IPv4-mapped
        "::ffff:0:0:0/96",  # IPv4-translated
        "64:ff9b:1::/48",  # local-use NAT64
        "100::/64",  # discard-only
        "2001::/23",  # IETF protocol assignments, incl. Teredo 2001::/32, ORCHID, benchmarking
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
        "5f00::/16",  # SRv6 SIDs
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
        "ff00::/8",  # multicast
    )
)
_NAT64 = IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR = IPv6Network("2002::/16")


class SSRFError(aiohttp.ClientConnectionError):
    """The target address is not public (and not allowed). Not an OSError on purpose: aiohttp
    wraps OSErrors from the resolver as DNS errors, this one must reach the fetcher as is."""


def _in_any(ip: IPAddress, networks: Iterable[IPNetwork]) -> bool:
    return any(ip.version == net.version and ip in net for net in networks)


def _embedded_v4(ip: IPv6Address) -> IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _V6_BLOCKED[0] and int(ip) > 1:  # IPv4-compatible ::a.b.c.d
        return IPv4Address(int(ip))
    return None


def is_public_address(ip: IPAddress, allow: Sequence[IPNetwork] = ()) -> bool:
    """True when the crawler may connect to ``ip``: a globally routable unicast address, or one
    inside an operator-allowed network."""
    if isinstance(ip, IPv6Address) and ip.scope_id:
        ip = IPv6Address(ip.compressed.split("%", 1)[0])
    if _in_any(ip, allow):
        return True
    if isinstance(ip, IPv6Address):
        embedded = _embedded_v4(ip)
        if embedded is not None and _in_any(embedded, allow):
            return True
        if ip in _NAT64 or ip in _SIX_TO_FOUR:
            # Translation prefixes: the real destination is the embedded IPv4 address.
            return embedded is not None and is_public_address(embedded)
        if _in_any(ip, _V6_BLOCKED):
            return False
    elif _in_any(ip, _V4_BLOCKED):
        return False
    return not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_unspecified
        or ip.is_reserved
        or not ip.is_global
    )


def parse_networks(values: Iterable[str]) -> list[IPNetwork]:
    """Parse the ``allow_networks`` setting (CIDRs or single addresses)."""
    out: list[IPNetwork] = []
    for value in values:
        try:
            out.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError as exc:
            raise ValueError(f"allow_networks entry {value!r} is not a CIDR: {exc}") from exc
    return out


_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def _parse_ipv4_part(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
        if not digits:
            return 0
    elif len(part) > 1 and part[0] == "0":
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    try:
        return int(digits, base) if digits.isalnum() and digits.isascii() else None
    except ValueError:
        return None


def _parse_ipv4(host: str) -> IPv4Address | None:
    """WHATWG URL IPv4 parser: 1-4 parts, each decimal, octal (leading 0) or hex (0x)."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not 1 <= len(parts) <= 4 or any(p == "" for p in parts):
        return None
    numbers = [_parse_ipv4_part(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    nums = [n for n in numbers if n is not None]
    if any(n > 255 for n in nums[:-1]) or nums[-1] >= 256 ** (5 - len(nums)):
        return None
    value = nums[-1]
    for i, n in enumerate(nums[:-1]):
        value += n << (8 * (3 - i))
    return IPv4Address(value)


def parse_ip_literal(host: str) -> IPAddress | None:
    """The address a browser would connect to for this URL host, or None for a domain name."""
    host = unicodedata.normalize("NFKC", host.strip()).translate(_DOTS).lower()
    if not host:
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        try:
            return IPv6Address(host.replace("%25", "%"))
        except ValueError:
            return None
    return _parse_ipv4(host)


@dataclass(frozen=True, slots=True)
class ConnectToRule:
    """curl ``--connect-to HOST:PORT:ADDR:PORT``. ``host``/``port`` None match any;
    ``addr``/``addr_port`` None keep the original host/port."""

    host: str | None
    port: int | None
    addr: str | None
    addr_port: int | None

    def matches(self, host: str, port: int) -> bool:
        return (self.host is None or self.host == _norm_host(host)) and (
            self.port is None or self.port == port
        )


def _norm_host(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


_CONNECT_TO = re.compile(
    r"^(?P<host>\[[^\]]*\]|[^:\[\]]*):(?P<port>[^:]*):(?P<addr>\[[^\]]*\]|[^:\[\]]*):(?P<aport>[^:]*)$"
)


def _parse_port(value: str, entry: str) -> int | None:
    if value == "":
        return None
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise ValueError(f"connect_to entry {entry!r}: bad port {value!r}")
    return int(value)


def parse_connect_to(values: Iterable[str]) -> list[ConnectToRule]:
    rules: list[ConnectToRule] = []
    for raw in values:
        entry = raw.strip()
        m = _CONNECT_TO.match(entry)
        if m is None:
            raise ValueError(
                f"connect_to entry {raw!r}: expected HOST:PORT:ADDR:PORT "
                "(e.g. docs.python.org:443:127.0.0.1:8443; IPv6 in brackets)"
            )
        if m["addr"].startswith("[") and parse_ip_literal(m["addr"]) is None:
            raise ValueError(f"connect_to entry {raw!r}: bad IPv6 address {m['addr']!r}")
        rules.append(
            ConnectToRule(
                host=_norm_host(m["host"]) or None,
                port=_parse_port(m["port"], raw),
                addr=_norm_host(m["addr"]) or None,
                addr_port=_parse_port(m["aport"], raw),
            )
        )
    return rules


_NUMERIC_FLAGS = socket.AI_NUMERICHOST | socket.AI_NUMERICSERV


def _literal_result(hostname: str, ip: IPAddress, port: int) -> ResolveResult:
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    return ResolveResult(
        hostname=hostname, host=str(ip), port=port, family=family, proto=0, flags=_NUMERIC_FLAGS
    )


class GuardedResolver(AbstractResolver):
    """Resolves every A/AAAA record and refuses the whole name when any one is not public.

    connect-to rules are applied first. Their ADDR is trusted when no ``allow`` networks are set
    (the operator named it); once an allowlist is set, it is the complete list of non-public
    networks the crawler may reach, connect-to targets included.
    Use with ``TCPConnector(use_dns_cache=False)`` so each new connection is checked afresh.
    """

    def __init__(
        self,
        allow: Sequence[IPNetwork] = (),
        connect_to: Sequence[ConnectToRule] = (),
        resolver: AbstractResolver | None = None,
        *,
        connect_to_only: bool = False,
    ) -> None:
        self._allow = tuple(allow)
        self._rules = tuple(connect_to)
        self._resolver = resolver
        self._connect_to_only = connect_to_only

    def rule_for(self, host: str, port: int) -> ConnectToRule | None:
        return next((r for r in self._rules if r.matches(host, port)), None)

    def check_literal(self, host: str) -> IPAddress | None:
        """Check a URL host that is an IP literal. aiohttp connects to those without calling the
        resolver, so connect-to rules do not apply to them and they are always checked.
        Returns the canonical address, None for a domain name; raises SSRFError when refused."""
        ip = parse_ip_literal(host)
        if ip is not None and not is_public_address(ip, self._allow):
            raise SSRFError(f"address {ip} is not public")
        return ip

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_UNSPEC
    ) -> list[ResolveResult]:
        target, target_port, trusted = host, port, False
        rule = self.rule_for(host, port)
        if rule is not None:
            target = rule.addr or host
            target_port = rule.addr_port or port
            trusted = rule.addr is not None and not self._allow
        elif self._connect_to_only:
            raise socket.gaierror(
                socket.EAI_NONAME, f"{host}:{port} is not in connect_to (connect_to_only is on)"
            )

        ip = parse_ip_literal(target)
        if ip is not None:
            if not trusted and not is_public_address(ip, self._allow):
                raise SSRFError(f"{host} is the non-public address {ip}")
            return [_literal_result(host, ip, target_port)]

        if self._resolver is None:
            self._resolver = ThreadedResolver()
        infos = await self._resolver.resolve(target, target_port, family)
        if not infos:
            raise socket.gaierror(socket.EAI_NONAME, f"{target} has no address")
        if not trusted:
            for info in infos:
                addr = ipaddress.ip_address(info["host"].split("%", 1)[0])
                if not is_public_address(addr, self._allow):
                    raise SSRFError(f"{host} resolves to the non-public address {addr}")
        return [{**info, "hostname": host} for info in infos]

    async def close(self) -> None:
        if self._resolver is not None:
            await self._resolver.close()
