from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network

import pytest
from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

from webcorpus.config import Settings
from webcorpus.crawl.fetcher import Fetcher
from webcorpus.crawl.ssrf import (
    ConnectToRule,
    GuardedResolver,
    SSRFError,
    is_public_address,
    parse_connect_to,
    parse_ip_literal,
)

REFUSED = [
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "169.254.0.1",
    "100.64.0.1",  # CGNAT
    "100.127.255.254",
    "224.0.0.1",  # multicast
    "239.255.255.250",
    "0.0.0.0",
    "0.1.2.3",
    "255.255.255.255",
    "240.0.0.1",
    "198.18.0.1",  # benchmarking
    "198.19.255.255",
    "192.0.2.1",  # documentation
    "198.51.100.7",
    "203.0.113.9",
    "192.0.0.8",
    "::1",
    "::",
    "fc00::1",  # ULA
    "fd12:3456::1",
    "fe80::1",  # link-local
    "ff02::1",  # multicast
    "2001:db8::1",  # documentation
    "::ffff:10.0.0.1",  # IPv4-mapped
    "::ffff:127.0.0.1",
    "::ffff:8.8.8.8",  # mapped is refused even when the IPv4 is public
    "::10.0.0.1",  # IPv4-compatible
    "::8.8.8.8",
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "100::1",  # discard
]

ALLOWED = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "64:ff9b::808:808"]


@pytest.mark.parametrize("addr", REFUSED)
def test_non_public_addresses_refused(addr: str) -> None:
    assert not is_public_address(ip_address(addr))


@pytest.mark.parametrize("addr", ALLOWED)
def test_public_addresses_allowed(addr: str) -> None:
    assert is_public_address(ip_address(addr))


def test_allow_networks_override() -> None:
    allow = [ip_network("127.0.0.0/8"), ip_network("fd00::/8")]
    assert is_public_address(ip_address("127.0.0.1"), allow)
    assert is_public_address(ip_address("fd00::5"), allow)
    assert is_public_address(ip_address("::ffff:127.0.0.1"), allow)  # same destination
    assert not is_public_address(ip_address("10.0.0.1"), allow)
    assert not is_public_address(ip_address("::1"), allow)


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("0x7F000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("127.0.0.1.", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("169.254.43518", "169.254.169.254"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("１２７.０.０.１", "127.0.0.1"),  # full-width digits
        ("127。0。0。1", "127.0.0.1"),  # ideographic full stop
        ("[::1]", "::1"),
        ("[::ffff:7f00:1]", "::ffff:7f00:1"),
        ("::1", "::1"),
        ("[fe80::1%25eth0]", "fe80::1%eth0"),
    ],
)
def test_parse_ip_literal(host: str, expected: str) -> None:
    assert parse_ip_literal(host) == ip_address(expected)


@pytest.mark.parametrize(
    "host",
    ["example.com", "docs.python.org", "", "256.1.1.1", "1.2.3.4.5", "08.0.0.1", "foo.123", "[zz]"],
)
def test_parse_ip_literal_rejects_names_and_invalid(host: str) -> None:
    assert parse_ip_literal(host) is None


@pytest.mark.parametrize(
    "host", ["2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "[::1]", "[::ffff:10.0.0.1]"]
)
def test_literal_forms_are_refused(host: str) -> None:
    ip = parse_ip_literal(host)
    assert ip is not None and not is_public_address(ip)


def test_parse_connect_to() -> None:
    rules = parse_connect_to(
        ["docs.python.org:80:127.0.0.1:8401", "::127.0.0.1:9000", "Example.test:443:[::1]:"]
    )
    assert rules[0] == ConnectToRule("docs.python.org", 80, "127.0.0.1", 8401)
    assert rules[1] == ConnectToRule(None, None, "127.0.0.1", 9000)
    assert rules[2] == ConnectToRule("example.test", 443, "::1", None)
    assert parse_connect_to(["a.test:443::8443"]) == [ConnectToRule("a.test", 443, None, 8443)]
    assert rules[0].matches("DOCS.python.org.", 80)
    assert not rules[0].matches("docs.python.org", 443)
    assert rules[1].matches("anything.example", 1234)


@pytest.mark.parametrize(
    "entry", ["docs.python.org:80:127.0.0.1", "a:b:c:d", "a:80:127.0.0.1:99999", "x", "[::1:80::1"]
)
def test_parse_connect_to_errors(entry: str) -> None:
    with pytest.raises(ValueError, match="connect_to entry"):
        parse_connect_to([entry])


class StaticResolver(AbstractResolver):
    """Stands in for DNS (there is none here): answers each lookup from a list of answers."""

    def __init__(self, answers: list[list[str]]) -> None:
        self.answers = answers
        self.calls = 0

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        addrs = self.answers[min(self.calls, len(self.answers) - 1)]
        self.calls += 1
        return [
            ResolveResult(
                hostname=host,
                host=a,
                port=port,
                family=socket.AF_INET6 if ":" in a else socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
            for a in addrs
        ]

    async def close(self) -> None:
        pass


async def test_resolver_refuses_name_when_any_record_is_private() -> None:
    guard = GuardedResolver(resolver=StaticResolver([["8.8.8.8", "10.0.0.1"]]))
    with pytest.raises(SSRFError):
        await guard.resolve("mixed.example", 80)


async def test_resolver_rechecks_every_lookup_dns_rebinding() -> None:
    base = StaticResolver([["8.8.8.8"], ["127.0.0.1"]])
    guard = GuardedResolver(resolver=base)
    first = await guard.resolve("rebind.example", 443)
    assert [r["host"] for r in first] == ["8.8.8.8"]
    with pytest.raises(SSRFError):
        await guard.resolve("rebind.example", 443)


async def test_resolver_connect_to_rule_is_trusted() -> None:
    rules = parse_connect_to(["example.test:80:127.0.0.1:8401"])
    guard = GuardedResolver(connect_to=rules)
    [res] = await guard.resolve("example.test", 80)
    assert (res["host"], res["port"], res["hostname"]) == ("127.0.0.1", 8401, "example.test")
    with pytest.raises(OSError):  # other ports are not mapped: a normal (failing) lookup
        await guard.resolve("example.test", 443)


async def test_connect_to_targets_must_pass_an_explicit_allowlist() -> None:
    rules = parse_connect_to(["site.test:80:127.0.0.1:8000", "internal.test:80:127.0.0.2:8000"])
    guard = GuardedResolver(allow=[ip_network("127.0.0.1/32")], connect_to=rules)
    [res] = await guard.resolve("site.test", 80)
    assert (res["host"], res["port"]) == ("127.0.0.1", 8000)
    with pytest.raises(SSRFError):
        await guard.resolve("internal.test", 80)


async def test_connect_to_port_only_rule_still_guarded() -> None:
    guard = GuardedResolver(connect_to=parse_connect_to(["localhost:80::8080"]))
    with pytest.raises(SSRFError):
        await guard.resolve("localhost", 80)


async def test_resolver_localhost_refused() -> None:
    with pytest.raises(SSRFError):
        await GuardedResolver().resolve("localhost", 80)


# --- real fetches against a server on 127.0.0.1 ---------------------------------------------


@asynccontextmanager
async def serve() -> AsyncIterator[int]:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(text=f"host={request.host}")

    app = web.Application()
    app.router.add_get("/", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()


def settings(**kw: object) -> Settings:
    return Settings(_env_file=None, max_retries=0, connect_timeout_s=2, read_timeout_s=2, **kw)  # type: ignore[call-arg, arg-type]


async def test_fetch_loopback_refused_without_allowlist() -> None:
    async with serve() as port, Fetcher(settings()) as f:
        for url in (
            f"http://127.0.0.1:{port}/",
            f"http://localhost:{port}/",
            f"http://2130706433:{port}/",
            f"http://0x7f.1:{port}/",
            f"http://0177.0.0.1:{port}/",
            f"http://[::1]:{port}/",
            f"http://[::ffff:127.0.0.1]:{port}/",
        ):
            res = await f.fetch(url)
            assert res.error == "ssrf", (url, res)
            assert res.status == 0


async def test_fetch_loopback_allowed_with_allowlist() -> None:
    async with serve() as port, Fetcher(settings(allow_networks=["127.0.0.0/8"])) as f:
        for url in (
            f"http://127.0.0.1:{port}/",
            f"http://2130706433:{port}/",
            f"http://0x7f.1:{port}/",
        ):
            res = await f.fetch(url)
            assert res.ok, (url, res)
            assert res.body.startswith(b"host=127.0.0.1")


async def test_fetch_connect_to_mapping() -> None:
    async with serve() as port:
        s = settings(connect_to=[f"example.test:80:127.0.0.1:{port}"])
        async with Fetcher(s) as f:
            res = await f.fetch("http://example.test/")
            assert res.ok, res
            assert res.body == b"host=example.test"  # Host header keeps the original name
            other = await f.fetch(f"http://127.0.0.1:{port}/")
            assert other.error == "ssrf"  # the mapping is no allowlist


async def test_fetch_connect_to_outside_allowlist_refused() -> None:
    async with serve() as port:
        s = settings(
            allow_networks=["127.0.0.1/32"],
            connect_to=[f"site.test:80:127.0.0.1:{port}", f"internal.test:80:127.0.0.2:{port}"],
        )
        async with Fetcher(s) as f:
            assert (await f.fetch("http://site.test/")).body == b"host=site.test"
            res = await f.fetch("http://internal.test/")
            assert res.error == "ssrf" and res.status == 0


async def test_fetch_name_resolving_to_private_via_resolver() -> None:
    base = StaticResolver([["127.0.0.1"]])
    async with serve() as port, Fetcher(settings(), base_resolver=base) as f:
        res = await f.fetch(f"http://intranet.example:{port}/")
        assert res.error == "ssrf"
    async with (
        serve() as port,
        Fetcher(settings(allow_networks=["127.0.0.1/32"]), base_resolver=base) as f,
    ):
        res = await f.fetch(f"http://intranet.example:{port}/")
        assert res.ok and res.body == f"host=intranet.example:{port}".encode()


def test_types() -> None:
    assert isinstance(parse_ip_literal("1.2.3.4"), IPv4Address)
    assert isinstance(parse_ip_literal("[2001:4860::1]"), IPv6Address)
