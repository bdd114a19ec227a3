"""robots.txt policy: RFC 9309 cases modelled on google/robotstxt's robots_test.cc, plus the
fetch-outcome rules, redirects and the cache.

Where our behaviour differs from Google's reference parser the case says so in ``note`` and the
expectation is ours (see the module docstring of webcorpus.crawl.robots and the report).
"""

from __future__ import annotations

import pytest

from webcorpus.crawl.robots import (
    MAX_ROBOTS_BYTES,
    MAX_ROBOTS_REDIRECTS,
    RobotsCache,
    RobotsPolicy,
    origin_of,
    policy_from_fetch,
    product_token,
    robots_redirect_target,
    robots_url,
)
from webcorpus.crawl.types import FetchResult


def allowed(robotstxt: str | bytes, agent: str, url: str) -> bool:
    body = robotstxt.encode() if isinstance(robotstxt, str) else robotstxt
    return RobotsPolicy.parse(body, agent, "http://foo.bar/robots.txt").allowed(url)


GROUPS = (
    "allow: /foo/bar/\n"
    "\n"
    "user-agent: FooBot\n"
    "disallow: /\n"
    "allow: /x/\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "allow: /y/\n"
    "\n"
    "\n"
    "allow: /w/\n"
    "user-agent: BazBot\n"
    "\n"
    "user-agent: FooBot\n"
    "allow: /z/\n"
    "disallow: /\n"
)
FISH_ALLOW = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
FISH_STAR = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
FISH_SLASH = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
PHP = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
PHP_END = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
FISH_PHP = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
U = "http://foo.bar"

# (robots.txt, agent, url, expected)
CASES: list[tuple[str, str, str, bool]] = [
    # empty file or no matching group: everything allowed
    ("", "FooBot", f"{U}/x", True),
    ("user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n", "QuxBot", f"{U}/x", True),
    # line syntax: unknown names ignored, a missing colon accepted
    ("foo: FooBot\nbar: /\n", "FooBot", f"{U}/x/y", True),
    ("user-agent: FooBot\ndisallow: /\n", "FooBot", f"{U}/x/y", False),
    ("user-agent FooBot\ndisallow /\n", "FooBot", f"{U}/x/y", False),
    # groups: rules before any user-agent are ignored; groups of one agent are merged
    (GROUPS, "FooBot", f"{U}/x/b", True),
    (GROUPS, "FooBot", f"{U}/z/d", True),
    (GROUPS, "FooBot", f"{U}/y/c", False),
    (GROUPS, "BarBot", f"{U}/y/c", True),
    (GROUPS, "BarBot", f"{U}/w/a", True),
    (GROUPS, "BarBot", f"{U}/z/d", False),
    (GROUPS, "BazBot", f"{U}/z/d", True),
    (GROUPS, "FooBot", f"{U}/foo/bar/", False),
    (GROUPS, "BarBot", f"{U}/foo/bar/", False),
    (GROUPS, "BazBot", f"{U}/foo/bar/", False),
    # directive names are case-insensitive
    ("USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", f"{U}/x/y", True),
    ("uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", f"{U}/a/b", False),
    # user-agent values are case-insensitive and read up to the first space
    ("User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", f"{U}/x/y", True),
    ("User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "foo", f"{U}/a/b", False),
    (
        "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n",
        "Foo",
        f"{U}/x/y",
        True,
    ),
    # our user agent is reduced to its product token
    (
        "User-agent: webcorpus\nDisallow: /private\n",
        "webcorpus/0.1.0 (+https://x)",
        f"{U}/private/a",
        False,
    ),
    ("User-agent: Googlebot/2.1\nDisallow: /\n", "googlebot", f"{U}/x", False),
    # a user-agent that is only a prefix of our token does not select its group
    ("User-agent: web\nDisallow: /\n", "webcorpus", f"{U}/x", True),
    ("User-agent: corpus\nDisallow: /\n", "webcorpus", f"{U}/x", True),
    # the most specific group wins; '*' only when no group names us
    ("user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot", f"{U}/x/y", False),
    ("user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "BarBot", f"{U}/x/y", True),
    (
        "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
        "FooBot",
        f"{U}/x/page",
        True,
    ),
    (
        "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n",
        "FooBot",
        f"{U}/y/page",
        False,
    ),
    # paths are case-sensitive
    ("user-agent: FooBot\ndisallow: /x/\n", "FooBot", f"{U}/x/y", False),
    ("user-agent: FooBot\ndisallow: /X/\n", "FooBot", f"{U}/x/y", True),
    # longest match; allow wins a tie
    (
        "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n",
        "FooBot",
        f"{U}/x/page.html",
        False,
    ),
    (
        "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n",
        "FooBot",
        f"{U}/x/page.html",
        True,
    ),
    ("user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", f"{U}/x/", False),
    ("user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", f"{U}/x/page.html", True),
    ("user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", f"{U}/x/page.html", True),
    ("user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", f"{U}/x", False),
    ("user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", f"{U}/x/", True),
    (
        "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n",
        "FooBot",
        f"{U}/x/page.html",
        True,
    ),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", f"{U}/page.html", False),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", f"{U}/page", True),
    (
        "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n",
        "FooBot",
        f"{U}/x/page.html",
        True,
    ),
    ("user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", f"{U}/x/y.html", False),
    ("user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", f"{U}/page", True),
    ("user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", f"{U}/folder/page", True),
    ("user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", f"{U}/page.htm", False),
    ("user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", f"{U}/", True),
    ("user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", f"{U}/page.html", False),
    # percent-encoding: rules are encoded before comparison; URLs arrive normalized
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
        "FooBot",
        f"{U}/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n",
        "FooBot",
        f"{U}/foo/bar/%E3%83%84",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n",
        "FooBot",
        f"{U}/foo/bar/%E3%83%84",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%e3%83%84\n",
        "FooBot",
        f"{U}/foo/bar/%E3%83%84",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
        "FooBot",
        f"{U}/foo/bar/%62%61%7A",
        True,
    ),
    # special characters: '*' any run, '$' end anchor, '#' comment
    (
        "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
        "FooBot",
        f"{U}/foo/bar/quz",
        False,
    ),
    (
        "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
        "FooBot",
        f"{U}/foo/quz",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n",
        "FooBot",
        f"{U}/foo//quz",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
        "FooBot",
        f"{U}/foo/bar",
        False,
    ),
    (
        "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
        "FooBot",
        f"{U}/foo/bar/qux",
        True,
    ),
    (
        "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n",
        "FooBot",
        f"{U}/foo/bar/",
        True,
    ),
    (
        "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
        "FooBot",
        f"{U}/foo/bar",
        True,
    ),
    (
        "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n",
        "FooBot",
        f"{U}/foo/quz",
        False,
    ),
    # Google: a trailing index.html also allows the directory itself
    (
        "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        "foobot",
        f"{U}/allowed-slash/",
        True,
    ),
    (
        "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        "foobot",
        f"{U}/allowed-slash/index.htm",
        False,
    ),
    (
        "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        "foobot",
        f"{U}/allowed-slash/index.html",
        True,
    ),
    (
        "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n",
        "foobot",
        f"{U}/anyother-url",
        False,
    ),
    # Google's documentation examples
    (FISH_ALLOW, "FooBot", f"{U}/bar", False),
    (FISH_ALLOW, "FooBot", f"{U}/fish", True),
    (FISH_ALLOW, "FooBot", f"{U}/fish.html", True),
    (FISH_ALLOW, "FooBot", f"{U}/fish/salmon.html", True),
    (FISH_ALLOW, "FooBot", f"{U}/fishheads/yummy.html", True),
    (FISH_ALLOW, "FooBot", f"{U}/fish.html?id=anything", True),
    (FISH_ALLOW, "FooBot", f"{U}/Fish.asp", False),
    (FISH_ALLOW, "FooBot", f"{U}/catfish", False),
    (FISH_ALLOW, "FooBot", f"{U}/?id=fish", False),
    (FISH_STAR, "FooBot", f"{U}/fishheads", True),
    (FISH_STAR, "FooBot", f"{U}/Fish.bar", False),
    (FISH_STAR, "FooBot", f"{U}/catfish", False),
    (FISH_SLASH, "FooBot", f"{U}/fish/", True),
    (FISH_SLASH, "FooBot", f"{U}/fish/?salmon", True),
    (FISH_SLASH, "FooBot", f"{U}/fish", False),
    (FISH_SLASH, "FooBot", f"{U}/fish.html", False),
    (FISH_SLASH, "FooBot", f"{U}/Fish/Salmon.html", False),
    (PHP, "FooBot", f"{U}/filename.php", True),
    (PHP, "FooBot", f"{U}/folder/filename.php?parameters", True),
    (PHP, "FooBot", f"{U}//folder/any.php.file.html", True),
    (PHP, "FooBot", f"{U}/filename.php/", True),
    (PHP, "FooBot", f"{U}/index?f=filename.php/", True),
    (PHP, "FooBot", f"{U}/php/", False),
    (PHP, "FooBot", f"{U}/index?php", False),
    (PHP, "FooBot", f"{U}/windows.PHP", False),
    (PHP_END, "FooBot", f"{U}/filename.php", True),
    (PHP_END, "FooBot", f"{U}/folder/filename.php", True),
    (PHP_END, "FooBot", f"{U}/filename.php?parameters", False),
    (PHP_END, "FooBot", f"{U}/filename.php/", False),
    (PHP_END, "FooBot", f"{U}/filename.php5", False),
    (PHP_END, "FooBot", f"{U}/filename?php", False),
    (PHP_END, "FooBot", f"{U}/aaaphpaaa", False),
    (PHP_END, "FooBot", f"{U}//windows.PHP", False),
    (FISH_PHP, "FooBot", f"{U}/fish.php", True),
    (FISH_PHP, "FooBot", f"{U}/fishheads/catfish.php?parameters", True),
    (FISH_PHP, "FooBot", f"{U}/Fish.PHP", False),
    # line endings: LF, CRLF, CR and none at the end
    (
        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        "bar",
        f"{U}/x",
        False,
    ),
    (
        "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        "bar",
        f"{U}/x",
        False,
    ),
    (
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        "bar",
        f"{U}/x",
        False,
    ),
    (
        "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
        "bar",
        f"{U}/x",
        False,
    ),
]


@pytest.mark.parametrize(("robotstxt", "agent", "url", "expected"), CASES)
def test_google_cases(robotstxt: str, agent: str, url: str, expected: bool) -> None:
    assert allowed(robotstxt, agent, url) is expected


def test_disagreement_unencoded_url_matches_encoded_rule() -> None:
    # Google: rule "/foo/bar/ツ" does not match the raw URL ".../ツ" (callers must encode).
    # Protego encodes both sides, so it matches; our URLs are normalized (encoded) anyway.
    robots = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n"
    assert allowed(robots, "FooBot", f"{U}/foo/bar/\u30c4") is True


def test_disagreement_encoded_unreserved_equivalent() -> None:
    # Google: "Allow: /foo/bar/%62%61%7A" does not match "/foo/bar/baz". Protego (and RFC 3986
    # equivalence) treat them as the same path, so it is allowed here.
    robots = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
    assert allowed(robots, "FooBot", f"{U}/foo/bar/baz") is True


@pytest.mark.parametrize(
    "prefix",
    [b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"],
    ids=["full-bom", "partial-2", "partial-1"],
)
def test_bom_is_skipped(prefix: bytes) -> None:
    body = prefix + b"User-Agent: foo\nDisallow: /AnyValue\n"
    assert allowed(body, "foo", f"{U}/AnyValue") is False
    assert allowed(body, "foo", f"{U}/other") is True


def test_broken_bom_garbles_first_line() -> None:
    body = b"\xef\x11\xbfUser-Agent: foo\nDisallow: /AnyValue\n"
    # the group line is garbage, so the rule has no group and is ignored
    assert allowed(body, "foo", f"{U}/AnyValue") is True


def test_bom_in_the_middle_is_garbage() -> None:
    body = b"User-Agent: foo\n\xef\xbb\xbfDisallow: /AnyValue\n"
    assert allowed(body, "foo", f"{U}/AnyValue") is True


def test_sitemaps_anywhere_resolved_and_deduplicated() -> None:
    body = (
        b"Sitemap: http://foo.bar/sitemap.xml\n"
        b"User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
        b"sitemap: /relative-sitemap.xml\n"
        b"Sitemap: http://foo.bar/sitemap.xml\n"
        b"Sitemap: ftp://foo.bar/nope.xml\n"
    )
    policy = RobotsPolicy.parse(body, "webcorpus", "https://foo.bar/robots.txt")
    assert policy.sitemaps == ["http://foo.bar/sitemap.xml", "https://foo.bar/relative-sitemap.xml"]


def test_crawl_delay_follows_the_selected_group() -> None:
    body = b"User-agent: *\nCrawl-delay: 5\n\nUser-agent: webcorpus\nCrawl-delay: 0.5\nAllow: /\n"
    assert RobotsPolicy.parse(body, "webcorpus/1.0", None).crawl_delay == 0.5
    assert RobotsPolicy.parse(body, "otherbot", None).crawl_delay == 5.0
    assert RobotsPolicy.parse(b"User-agent: *\nDisallow:\n", "x", None).crawl_delay is None
    assert RobotsPolicy.parse(b"User-agent: *\nCrawl-delay: soon\n", "x", None).crawl_delay is None


def test_only_first_500_kib_parsed() -> None:
    filler = b"# " + b"x" * 1000 + b"\n"
    body = b"User-agent: *\n" + filler * (MAX_ROBOTS_BYTES // len(filler) + 1)
    body += b"Disallow: /late\n"
    assert len(body) > MAX_ROBOTS_BYTES
    assert allowed(body, "webcorpus", f"{U}/late") is True
    assert allowed(b"User-agent: *\nDisallow: /late\n", "webcorpus", f"{U}/late") is False


def test_robots_txt_itself_always_allowed() -> None:
    assert allowed("User-agent: *\nDisallow: /\n", "webcorpus", f"{U}/robots.txt") is True


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        ("webcorpus/0.1.0 (+https://github.com/webcorpus/webcorpus)", "webcorpus"),
        ("Googlebot/2.1", "googlebot"),
        ("Foo_Bar-Baz", "foo_bar-baz"),
        ("  spaced bot", "spaced"),
        ("", ""),
    ],
)
def test_product_token(agent: str, token: str) -> None:
    assert product_token(agent) == token


# --- fetch outcomes -----------------------------------------------------------------------

UA = "webcorpus/0.1.0"
ROBOTS = "https://example.com/robots.txt"


def fetched(status: int, body: bytes = b"", **kw: object) -> FetchResult:
    return FetchResult(url=ROBOTS, status=status, body=body, **kw)  # type: ignore[arg-type]


def test_2xx_is_parsed() -> None:
    policy = policy_from_fetch(fetched(200, b"User-agent: *\nDisallow: /private\n"), UA)
    assert policy.status == "ok"
    assert policy.http_status == 200
    assert not policy.allowed("https://example.com/private/x")
    assert policy.allowed("https://example.com/public")


def test_2xx_html_soft_404_allows_all() -> None:
    policy = policy_from_fetch(fetched(200, b"<html><body>Not found</body></html>"), UA)
    assert policy.status == "ok"
    assert policy.allowed("https://example.com/anything")


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 418, 451])
def test_4xx_allows_all(status: int) -> None:
    policy = policy_from_fetch(fetched(status, b"User-agent: *\nDisallow: /\n"), UA)
    assert policy.status == "missing"
    assert policy.allowed("https://example.com/x")
    assert policy.crawl_delay is None


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504, 599])
def test_5xx_and_429_disallow_all(status: int) -> None:
    policy = policy_from_fetch(fetched(status), UA)
    assert policy.status == "unreachable"
    assert not policy.allowed("https://example.com/")


@pytest.mark.parametrize("error", ["dns", "connect", "timeout", "ssrf", "protocol", "too_large"])
def test_network_errors_disallow_all(error: str) -> None:
    policy = policy_from_fetch(fetched(0, error=error, error_detail="boom"), UA)
    assert policy.status == "unreachable"
    assert not policy.allowed("https://example.com/")


def test_unfollowed_redirect_counts_as_missing() -> None:
    policy = policy_from_fetch(fetched(301, headers={"location": "/elsewhere"}), UA)
    assert policy.status == "missing"
    assert policy.allowed("https://example.com/x")


def test_none_yet_allows_nothing() -> None:
    policy = RobotsPolicy.none_yet(UA)
    assert policy.status == "none yet"
    assert not policy.allowed("https://example.com/")
    assert policy.sitemaps == []


def test_redirect_helper() -> None:
    redirect = fetched(301, headers={"location": "/robots-new.txt"})
    assert robots_redirect_target(redirect, 0) == "https://example.com/robots-new.txt"
    assert robots_redirect_target(redirect, MAX_ROBOTS_REDIRECTS - 1) is not None
    assert robots_redirect_target(redirect, MAX_ROBOTS_REDIRECTS) is None
    other_host = fetched(302, headers={"location": "https://www.example.com/robots.txt"})
    assert robots_redirect_target(other_host, 0) == "https://www.example.com/robots.txt"
    assert robots_redirect_target(fetched(302), 0) is None
    assert robots_redirect_target(fetched(304, headers={"location": "/x"}), 0) is None
    assert robots_redirect_target(fetched(200), 0) is None
    assert robots_redirect_target(fetched(301, headers={"location": "ftp://x/r"}), 0) is None


def test_robots_url_and_origin() -> None:
    assert robots_url("https://Docs.Python.org/3/library/?x=1") == (
        "https://docs.python.org/robots.txt"
    )
    assert robots_url("http://127.0.0.1:8080/a") == "http://127.0.0.1:8080/robots.txt"
    assert origin_of("https://example.com:8443/a/b") == "https://example.com:8443"


# --- cache --------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_cache_expires_after_max_age() -> None:
    clock = FakeClock()
    cache = RobotsCache(clock=clock)
    ok = policy_from_fetch(fetched(200, b"User-agent: *\nDisallow: /x\n"), UA)
    cache.put("https://example.com/some/page", ok)
    assert cache.get("https://example.com/robots.txt") is ok
    assert cache.get("https://example.com") is ok
    assert cache.get("http://example.com/") is None  # other origin
    assert cache.get("https://www.example.com/") is None
    clock.now += 24 * 3600 - 1
    assert cache.get("https://example.com/") is ok
    clock.now += 2
    assert cache.get("https://example.com/") is None
    assert len(cache) == 0


def test_cache_retries_unreachable_sooner() -> None:
    clock = FakeClock()
    cache = RobotsCache(clock=clock, retry_after_s=300)
    cache.put("https://example.com/", policy_from_fetch(fetched(503), UA))
    assert cache.get("https://example.com/") is not None
    clock.now += 301
    assert cache.get("https://example.com/") is None


def test_cache_does_not_store_none_yet() -> None:
    cache = RobotsCache(clock=FakeClock())
    cache.put("https://example.com/", RobotsPolicy.none_yet(UA))
    assert cache.get("https://example.com/") is None
