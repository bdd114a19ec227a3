"""URL normalization, page ids, scope, trap guards and root-domain validation."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.provisional import urls as hyp_urls

from webcorpus.config import Settings
from webcorpus.crawl.domains import registrable_domain, validate_root_domain
from webcorpus.crawl.urls import (
    TrapGuard,
    in_scope,
    looks_like_non_html,
    normalize_url,
    page_id,
)

# --- normalize_url ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "base", "expected"),
    [
        ("HTTP://Example.COM", None, "http://example.com/"),
        ("https://example.com:443/a", None, "https://example.com/a"),
        ("http://example.com:80/a", None, "http://example.com/a"),
        ("http://example.com:8080/a", None, "http://example.com:8080/a"),
        ("https://example.com:80/a", None, "https://example.com:80/a"),
        ("http://example.com/a#section", None, "http://example.com/a"),
        ("http://example.com/a/./b/../c", None, "http://example.com/a/c"),
        ("http://example.com/../../a", None, "http://example.com/a"),
        ("http://example.com/a/b/..", None, "http://example.com/a/"),
        ("http://example.com/%7Euser/%7e", None, "http://example.com/~user/~"),
        ("http://example.com/a%2fb", None, "http://example.com/a%2Fb"),
        ("http://example.com/a b", None, "http://example.com/a%20b"),
        ("http://example.com/caf\u00e9", None, "http://example.com/caf%C3%A9"),
        ("http://example.com/100%", None, "http://example.com/100%25"),
        ("http://example.com/%2E%2E/x", None, "http://example.com/x"),
        ("http://example.com/?b=2&a=1", None, "http://example.com/?b=2&a=1"),
        ("http://example.com/?a=1&&b=&", None, "http://example.com/?a=1&b="),
        ("http://example.com/?q=a+b", None, "http://example.com/?q=a+b"),
        (
            "http://example.com/p?utm_source=x&id=3&UTM_Medium=y&gclid=1&fbclid=2",
            None,
            "http://example.com/p?id=3",
        ),
        ("http://example.com/p?PHPSESSID=abc&sid=1&page=2", None, "http://example.com/p?page=2"),
        ("http://example.com/p;jsessionid=ABC123?x=1", None, "http://example.com/p?x=1"),
        ("http://example.com/p?utm_source=x", None, "http://example.com/p"),
        ("https://user:pw@example.com/", None, "https://example.com/"),
        ("https://B\u00fccher.DE./x", None, "https://xn--bcher-kva.de/x"),
        ("https://example\uff0ecom\uff0e/", None, "https://example.com/"),
        ("http://2130706433/", None, "http://127.0.0.1/"),
        ("http://0x7f.1/", None, "http://127.0.0.1/"),
        ("http://[0:0::1]:8000/", None, "http://[::1]:8000/"),
        ("  https://example.com/\n ", None, "https://example.com/"),
        ("https://exa\tmple.com/", None, "https://example.com/"),
        ("page.html", "https://example.com/dir/index.html", "https://example.com/dir/page.html"),
        ("../up", "https://example.com/a/b/c", "https://example.com/a/up"),
        ("//cdn.example.com/x", "https://example.com/", "https://cdn.example.com/x"),
        ("?q=1", "https://example.com/p?x=0", "https://example.com/p?q=1"),
        ("#top", "https://example.com/p", "https://example.com/p"),
        ("/a", "https://example.com:8443/x", "https://example.com:8443/a"),
    ],
)
def test_normalize_url_cases(url: str, base: str | None, expected: str) -> None:
    assert normalize_url(url, base) == expected


@pytest.mark.parametrize(
    "url",
    [
        "mailto:a@example.com",
        "javascript:alert(1)",
        "ftp://example.com/file",
        "data:text/html,hi",
        "tel:+123",
        "http:///path",
        "http://exa mple.com/",
        "http://example.com:99999/",
        "http://example.com:abc/",
        "http://256.0.0.1/",
        "http://[::1/",
        "",
        "not a url",
    ],
)
def test_normalize_url_rejects(url: str) -> None:
    assert normalize_url(url) is None


def test_normalize_url_relative_without_base_is_none() -> None:
    assert normalize_url("/just/a/path") is None


_url_chars = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scheme=st.sampled_from(["http", "https", "HTTP", "ftp"]),
    host=st.one_of(
        st.sampled_from(["example.com", "EXAMPLE.com.", "b\u00fccher.de", "1.2.3.4", "[::1]"]),
        st.from_regex(r"[a-zA-Z0-9.\-_]{1,20}", fullmatch=True),
    ),
    port=st.sampled_from(["", ":80", ":443", ":8080", ":0"]),
    path=_url_chars,
    query=st.one_of(st.just(""), _url_chars.map(lambda q: "?" + q)),
    frag=st.one_of(st.just(""), _url_chars.map(lambda f: "#" + f)),
)
def test_normalize_url_idempotent_on_generated(
    scheme: str, host: str, port: str, path: str, query: str, frag: str
) -> None:
    url = f"{scheme}://{host}{port}/{path}{query}{frag}"
    once = normalize_url(url)
    if once is None:
        return
    assert normalize_url(once) == once
    assert once.startswith(("http://", "https://"))
    assert "#" not in once
    assert once.isascii()


@settings(max_examples=300, deadline=None)
@given(url=hyp_urls())
def test_normalize_url_idempotent_on_valid_urls(url: str) -> None:
    once = normalize_url(url)
    assert once is not None
    assert normalize_url(once) == once


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60), base=st.one_of(st.none(), st.just("https://example.com/a/")))
def test_normalize_url_never_raises(text: str, base: str | None) -> None:
    result = normalize_url(text, base)
    if result is not None:
        assert normalize_url(result) == result


# --- page_id ------------------------------------------------------------------------------


def test_page_id_format_and_stability() -> None:
    pid = page_id("https://example.com/")
    assert re.fullmatch(r"pg_[0-9a-f]{16}", pid)
    assert pid == page_id("https://example.com/")
    assert pid != page_id("http://example.com/")
    assert page_id(normalize_url("HTTPS://EXAMPLE.com:443/#x") or "") == pid


# --- in_scope -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "root", "expected"),
    [
        ("https://python.org/", "python.org", True),
        ("https://docs.python.org/3/", "python.org", True),
        ("https://a.b.python.org/", "python.org", True),
        ("https://PYTHON.ORG./x", "python.org", True),
        ("https://notpython.org/", "python.org", False),
        ("https://python.org.evil.com/", "python.org", False),
        ("https://evil.com/?u=python.org", "python.org", False),
        ("https://user@evil.com/python.org", "python.org", False),
        ("mailto:x@python.org", "python.org", False),
        ("https://python.org:8443/", "python.org", True),
    ],
)
def test_in_scope(url: str, root: str, expected: bool) -> None:
    assert in_scope(url, root) is expected


# --- looks_like_non_html ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://x.com/file.pdf", True),
        ("https://x.com/IMG.JPG", True),
        ("https://x.com/a.tar.gz", True),
        ("https://x.com/app.js?v=1", True),
        ("https://x.com/page.html", False),
        ("https://x.com/page.php?id=1", False),
        ("https://x.com/docs/", False),
        ("https://x.com/v1.2/intro", False),
        ("https://x.com/download.pdf/", False),
    ],
)
def test_looks_like_non_html(url: str, expected: bool) -> None:
    assert looks_like_non_html(url) is expected


# --- TrapGuard ----------------------------------------------------------------------------


def test_trap_guard_from_settings() -> None:
    guard = TrapGuard.from_settings(Settings(max_depth=2, max_query_variants_per_path=7))
    assert guard.max_depth == 2
    assert guard.max_query_variants_per_path == 7


def test_trap_guard_depth_and_length() -> None:
    guard = TrapGuard(max_depth=3, max_url_length=40)
    assert guard.check("https://x.com/a", 3) is None
    reason = guard.check("https://x.com/a", 4)
    assert reason and "depth" in reason
    reason = guard.check("https://x.com/" + "a" * 40, 0)
    assert reason and "length" in reason


@pytest.mark.parametrize(
    ("path", "trapped"),
    [
        ("/a/a/a", False),
        ("/a/a/a/a", True),
        ("/a/b/a/b/a/b", False),
        ("/a/b/a/b/a/b/a/b", True),
        ("/x/a/b/c/a/b/c/a/b/c/a/b/c/y", True),
        ("/2024/01/01/01/post", False),
        ("/docs/3/library/os.html", False),
        ("/a/b/c/d/e/f/g/h/i/j", False),
        ("/a/x/a/y/a/z/a", True),
    ],
)
def test_trap_guard_repeated_segments(path: str, trapped: bool) -> None:
    guard = TrapGuard(max_repeated_segments=3)
    reason = guard.check("https://x.com" + path, 1)
    assert (reason is not None) is trapped
    if trapped:
        assert reason and "repeat" in reason


def test_trap_guard_query_params() -> None:
    guard = TrapGuard(max_query_params=3)
    assert guard.check("https://x.com/s?a=1&b=2&c=3", 1) is None
    reason = guard.check("https://x.com/s?a=1&b=2&c=3&d=4", 1)
    assert reason and "query parameters" in reason


def test_trap_guard_calendar_variants() -> None:
    guard = TrapGuard(max_query_variants_per_path=5)
    results = [guard.check(f"https://x.com/calendar?month={m}", 1) for m in range(1, 10)]
    assert results[:5] == [None] * 5
    assert all(r and "query variants" in r for r in results[5:])
    # a variant already accepted stays accepted; other paths have their own budget
    assert guard.check("https://x.com/calendar?month=1", 1) is None
    assert guard.check("https://x.com/other?month=9", 1) is None
    assert guard.check("https://x.com/calendar", 1) is None


# --- domains ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("python.org", "python.org"),
        ("Python.ORG", "python.org"),
        ("python.org.", "python.org"),
        ("  python.org ", "python.org"),
        ("www.python.org", "python.org"),
        ("docs.python.org", "python.org"),
        ("www.postgresql.org", "postgresql.org"),
        ("debian-handbook.info", "debian-handbook.info"),
        ("news.bbc.co.uk", "bbc.co.uk"),
        ("b\u00fccher.de", "xn--bcher-kva.de"),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("someone.github.io", "someone.github.io"),
        ("city.kobe.jp", "city.kobe.jp"),
    ],
)
def test_validate_root_domain_accepts(value: str, expected: str) -> None:
    assert validate_root_domain(value) == expected


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("http://python.org", "URL"),
        ("https://python.org/", "URL"),
        ("python.org/about", "path"),
        ("python.org?x=1", "query"),
        ("python.org:443", "port"),
        ("user@python.org", "user info"),
        ("10.0.0.1", "IP address"),
        ("127.0.0.1", "IP address"),
        ("2130706433", "IP address"),
        ("0x7f000001", "IP address"),
        ("127.1", "IP address"),
        ("[::1]", "IP address"),
        ("::1", "IP address"),
        ("localhost", "single label"),
        ("intranet", "single label"),
        ("printer.local", "special-use"),
        ("db.internal", "special-use"),
        ("app.localhost", "special-use"),
        ("site.test", "special-use"),
        ("hostile.example", "special-use"),
        ("x.invalid", "special-use"),
        ("abc.onion", "special-use"),
        ("router.home.arpa", "special-use"),
        ("co.uk", "public suffix"),
        ("com", "single label"),
        ("github.io", "public suffix"),
        ("foo.notarealtld", "public suffix"),
        ("", "empty"),
        ("a..b.com", "valid"),
        ("-bad-.com", "hyphen"),
        ("pyth on.org", "whitespace"),
    ],
)
def test_validate_root_domain_rejects(value: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        validate_root_domain(value)


def test_validate_root_domain_private_suffix_opt_in() -> None:
    assert validate_root_domain("hostile.example", allow_private_suffixes=True) == "hostile.example"
    assert validate_root_domain("www.docs.test", allow_private_suffixes=True) == "docs.test"
    with pytest.raises(ValueError):
        validate_root_domain("localhost", allow_private_suffixes=True)
    with pytest.raises(ValueError):
        validate_root_domain("127.0.0.1", allow_private_suffixes=True)


def test_registrable_domain() -> None:
    assert registrable_domain("docs.python.org") == "python.org"
    assert registrable_domain("python.org") == "python.org"
    assert registrable_domain("co.uk") is None
    assert registrable_domain("127.0.0.1") is None
    assert registrable_domain("a.hostile.example") is None
    assert registrable_domain("a.hostile.example", allow_private_suffixes=True) == (
        "hostile.example"
    )


@settings(max_examples=500, deadline=None)
@given(value=st.text(max_size=40))
def test_validate_root_domain_only_raises_value_error(value: str) -> None:
    try:
        result = validate_root_domain(value)
    except ValueError:
        return
    assert result == validate_root_domain(result)
    assert registrable_domain(result) == result


@settings(max_examples=300, deadline=None)
@given(
    value=st.from_regex(
        r"[a-z0-9\-]{1,12}(\.[a-z0-9\-]{1,12}){0,3}\.(com|org|co\.uk|example)", fullmatch=True
    )
)
def test_validate_root_domain_domainlike(value: str) -> None:
    try:
        result = validate_root_domain(value, allow_private_suffixes=True)
    except ValueError:
        return
    assert value.endswith(result)
    assert validate_root_domain(result, allow_private_suffixes=True) == result
