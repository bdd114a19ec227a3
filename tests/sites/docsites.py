"""Three real documentation sites built from Debian packages, for crawling over loopback.

``scripts/setup-test-env.sh`` downloads and unpacks the packages into ``<cache>/root``; this module
builds, once per cache, a site tree per host under ``<cache>/sites/v<N>/<host>/``: symlinks into the
unpacked (pristine, never modified) Debian tree plus generated robots.txt, sitemaps and home pages.
nginx (see ``nginx.py``) serves those trees, with a per-run writable overlay in front. The packaged
canonical links are rewritten to the served http URL (Python's point at file:///usr/share/doc/...,
the handbook's at https://), in copies; everything else is served as packaged.

Hosts, URL layout and robots rules:

- ``docs.python.org``: Python 3.11 HTML docs at ``/``. robots.txt disallows ``/_sources/`` (the
  reST sources, not HTML) and ``/genindex`` (the 30 general-index pages ``/genindex*.html``: the
  pages robots excludes). ``/sitemap.xml`` is a sitemap index of gzipped children
  ``/sitemaps/docs-N.xml.gz`` listing every HTML page, the disallowed ones included.
- ``www.postgresql.org``: PostgreSQL 15 HTML docs under ``/docs/15/``, a generated homepage at
  ``/``. robots.txt disallows ``/search/`` (no page there). ``/sitemap.xml`` is one plain urlset.
- ``debian-handbook.info``: the Debian Administrator's Handbook in 26 languages under
  ``/browse/<lang>/stable/``, a generated root page at ``/`` linking each language (with hreflang
  alternates), ``/browse/stable/`` redirects to ``/browse/en-US/stable/``. robots.txt disallows
  ``/get/`` (linked from every book's title page, no page there). ``/sitemap.xml`` is a sitemap
  index with one plain child ``/sitemaps/<lang>.xml`` per language and ``/sitemaps/home.xml``
  for the root page.

What a crawl from ``/`` meets (following <a href> links, measured on the Debian 12 packages):
python: 526 of the 530 pages are linked (4 distutils/includes pages only via the sitemap), one
dead link (/whatsnew/changelog.html: 404), 49 in-scope https:// URLs (www.python.org, nothing
serves them); postgres: all 1170 pages linked, 10 in-scope https:// URLs; handbook: all 3303 pages
linked, every book page links http://debian-handbook.info/get/ (robots), 5 in-scope https:// URLs.
``/`` and ``/index.html`` are the same page on every host.

Alias hosts answer with a 301 to the main host (so a crawl of the root domain finds the docs):
``python.org``/``www.python.org`` -> docs.python.org, ``postgresql.org`` -> www.postgresql.org,
``www.debian-handbook.info`` -> debian-handbook.info.
"""

from __future__ import annotations

import gzip
import html
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

# Bump when the generated layout changes: old site trees are then rebuilt beside the new ones.
LAYOUT_VERSION = 3
PYTHON_HOST = "docs.python.org"
POSTGRES_HOST = "www.postgresql.org"
HANDBOOK_HOST = "debian-handbook.info"
PYTHON_SITEMAP_CHUNK = 300

REPO_ROOT = Path(__file__).resolve().parents[2]
SETUP_SCRIPT = REPO_ROOT / "scripts" / "setup-test-env.sh"
PYTHON_HTML = Path("usr/share/doc/python3.11/html")
POSTGRES_HTML = Path("usr/share/doc/postgresql-doc-15/html")
HANDBOOK_HTML = Path("usr/share/doc/debian-handbook/html")
REQUIRED_STAMPS = ("python3.11-doc_", "postgresql-doc-15_", "debian-handbook_")
# The packaged pages declare canonicals the loopback sites cannot serve: Python's point at
# file:///usr/share/doc/..., the handbook's at https://. Rewritten to the http URL we serve.
PYTHON_CANONICAL = (rb"file:///usr/share/doc/python3\.11/html/", b"http://docs.python.org/")
HANDBOOK_CANONICAL = (
    rb'(rel="canonical" href=")https://debian-handbook\.info/',
    rb"\g<1>http://debian-handbook.info/",
)


@dataclass(frozen=True, slots=True)
class DocSite:
    """One virtual host. Paths are URL paths (``/docs/15/index.html``), sorted."""

    host: str
    root: Path  # site tree to serve; read-only by convention (symlinks into the Debian tree)
    pages: tuple[str, ...]  # every HTML page served (generated home pages included)
    sitemap_pages: tuple[str, ...]  # pages listed in the sitemaps
    sitemaps: tuple[str, ...]  # sitemap paths: /sitemap.xml first, then its children
    robots_disallow: tuple[str, ...]  # Disallow: prefixes in robots.txt
    robots_excluded: tuple[str, ...]  # HTML pages whose path robots.txt disallows
    aliases: tuple[str, ...] = ()  # hosts answering 301 -> http://<host><same path>
    redirects: dict[str, str] = field(default_factory=dict)  # exact path -> 301 target path
    languages: tuple[str, ...] = ()  # debian-handbook only: the book languages

    @property
    def html_count(self) -> int:
        return len(self.pages)

    @property
    def allowed_pages(self) -> tuple[str, ...]:
        """Pages a robots-respecting crawler may fetch."""
        excluded = set(self.robots_excluded)
        return tuple(p for p in self.pages if p not in excluded)

    @property
    def hosts(self) -> tuple[str, ...]:
        return (self.host, *self.aliases)

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}{path}"


@dataclass(frozen=True, slots=True)
class DocSites:
    cache_dir: Path
    sites: dict[str, DocSite]

    def __getitem__(self, host: str) -> DocSite:
        return self.sites[host]

    def __iter__(self) -> Iterator[DocSite]:
        return iter(self.sites.values())

    @property
    def python(self) -> DocSite:
        return self.sites[PYTHON_HOST]

    @property
    def postgres(self) -> DocSite:
        return self.sites[POSTGRES_HOST]

    @property
    def handbook(self) -> DocSite:
        return self.sites[HANDBOOK_HOST]

    @property
    def hosts(self) -> list[str]:
        """Every host served, aliases included."""
        return [h for site in self for h in site.hosts]


def default_cache_dir() -> Path:
    env = os.environ.get("WEBCORPUS_TEST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "webcorpus-test"


def ensure_unpacked(cache_dir: Path) -> Path:
    """The unpacked Debian tree, running the setup script first when it is not there yet."""
    root = cache_dir / "root"
    if not _unpacked(root):
        env = {**os.environ, "WEBCORPUS_TEST_CACHE": str(cache_dir)}
        subprocess.run(["bash", str(SETUP_SCRIPT)], check=True, env=env)
        if not _unpacked(root):
            raise RuntimeError(f"{SETUP_SCRIPT} did not unpack the doc packages into {root}")
    return root


def _unpacked(root: Path) -> bool:
    if not root.is_dir():
        return False
    names = [p.name for p in root.glob(".unpacked-*")]
    return all(any(n.startswith(".unpacked-" + s) for n in names) for s in REQUIRED_STAMPS)


def ensure_doc_sites(cache_dir: Path | None = None) -> DocSites:
    """Build (once) and describe the three doc sites. Cheap when the cache is warm."""
    cache_dir = (cache_dir or default_cache_dir()).resolve()
    debian_root = ensure_unpacked(cache_dir)
    sites_dir = cache_dir / "sites" / f"v{LAYOUT_VERSION}"
    builders = {
        PYTHON_HOST: _python_site,
        POSTGRES_HOST: _postgres_site,
        HANDBOOK_HOST: _handbook_site,
    }
    for old in sites_dir.parent.glob("v*"):  # trees of older layouts
        if old != sites_dir:
            shutil.rmtree(old, ignore_errors=True)
    sites: dict[str, DocSite] = {}
    for host, build in builders.items():
        final = sites_dir / host
        # The description is recomputed every time (cheap); files are written only when missing.
        if (final / ".complete").exists():
            sites[host] = build(debian_root, final, write=False)
            continue
        sites_dir.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{host}-", dir=sites_dir))
        build(debian_root, tmp, write=True)
        (tmp / ".complete").touch()
        if final.exists():
            shutil.rmtree(final)
        tmp.rename(final)
        sites[host] = build(debian_root, final, write=False)
    return DocSites(cache_dir=cache_dir, sites=sites)


# --- the three sites -------------------------------------------------------------------------


def _python_site(debian_root: Path, root: Path, *, write: bool) -> DocSite:
    docs = debian_root / PYTHON_HTML
    pages = sorted("/" + rel for rel in _html_files(docs))
    disallow = ("/_sources/", "/genindex")
    sitemaps = ["/sitemap.xml"]
    chunks = [
        pages[i : i + PYTHON_SITEMAP_CHUNK] for i in range(0, len(pages), PYTHON_SITEMAP_CHUNK)
    ]
    sitemaps += [f"/sitemaps/docs-{n}.xml.gz" for n in range(1, len(chunks) + 1)]
    if write:
        _mirror(docs, root, PYTHON_CANONICAL)
        (root / "sitemaps").mkdir()
        for path, chunk in zip(sitemaps[1:], chunks, strict=True):
            xml = _urlset(PYTHON_HOST, ((p, docs / p[1:]) for p in chunk))
            (root / path[1:]).write_bytes(gzip.compress(xml.encode(), mtime=0))
        (root / "sitemap.xml").write_text(_sitemap_index(PYTHON_HOST, sitemaps[1:]))
        (root / "robots.txt").write_text(_robots(PYTHON_HOST, disallow))
    return DocSite(
        host=PYTHON_HOST,
        root=root,
        pages=tuple(pages),
        sitemap_pages=tuple(pages),
        sitemaps=tuple(sitemaps),
        robots_disallow=disallow,
        robots_excluded=_excluded(pages, disallow),
        aliases=("python.org", "www.python.org"),
    )


def _postgres_site(debian_root: Path, root: Path, *, write: bool) -> DocSite:
    docs = debian_root / POSTGRES_HTML
    doc_pages = sorted("/docs/15/" + rel for rel in _html_files(docs))
    pages = ["/", *doc_pages]
    disallow = ("/search/",)
    if write:
        (root / "docs").mkdir()
        (root / "docs" / "15").symlink_to(docs)
        (root / "index.html").write_text(_postgres_home())
        entries = [("/", root / "index.html")]
        entries += [(p, docs / p.removeprefix("/docs/15/")) for p in doc_pages]
        (root / "sitemap.xml").write_text(_urlset(POSTGRES_HOST, entries))
        (root / "robots.txt").write_text(_robots(POSTGRES_HOST, disallow))
    return DocSite(
        host=POSTGRES_HOST,
        root=root,
        pages=tuple(pages),
        sitemap_pages=tuple(pages),
        sitemaps=("/sitemap.xml",),
        robots_disallow=disallow,
        robots_excluded=_excluded(pages, disallow),
        aliases=("postgresql.org",),
    )


def _handbook_site(debian_root: Path, root: Path, *, write: bool) -> DocSite:
    books = debian_root / HANDBOOK_HTML
    langs = sorted(p.name for p in books.iterdir() if p.is_dir())
    per_lang = {
        lang: sorted(f"/browse/{lang}/stable/{rel}" for rel in _html_files(books / lang))
        for lang in langs
    }
    pages = sorted(["/", *(p for lang in langs for p in per_lang[lang])])
    disallow = ("/get/",)
    sitemaps = ["/sitemap.xml", "/sitemaps/home.xml", *(f"/sitemaps/{lang}.xml" for lang in langs)]
    if write:
        (root / "sitemaps").mkdir()
        (root / "index.html").write_text(_handbook_home(langs))
        home = _urlset(HANDBOOK_HOST, [("/", root / "index.html")])
        (root / "sitemaps" / "home.xml").write_text(home)
        for lang in langs:
            _mirror(books / lang, root / "browse" / lang / "stable", HANDBOOK_CANONICAL)
            prefix = f"/browse/{lang}/stable/"
            entries = [(p, books / lang / p.removeprefix(prefix)) for p in per_lang[lang]]
            (root / "sitemaps" / f"{lang}.xml").write_text(_urlset(HANDBOOK_HOST, entries))
        (root / "sitemap.xml").write_text(_sitemap_index(HANDBOOK_HOST, sitemaps[1:]))
        (root / "robots.txt").write_text(_robots(HANDBOOK_HOST, disallow))
    return DocSite(
        host=HANDBOOK_HOST,
        root=root,
        pages=tuple(pages),
        sitemap_pages=tuple(pages),
        sitemaps=tuple(sitemaps),
        robots_disallow=disallow,
        robots_excluded=_excluded(pages, disallow),
        aliases=("www.debian-handbook.info",),
        redirects={"/browse/stable/": "/browse/en-US/stable/"},
        languages=tuple(langs),
    )


# --- helpers ---------------------------------------------------------------------------------


def _mirror(src: Path, dst: Path, rewrite: tuple[bytes, bytes]) -> None:
    """Mirror src into dst: directories made, HTML files the rewrite changes copied (mtime kept,
    so Last-Modified stays the package's), every other file a symlink (broken ones 404)."""
    pattern = re.compile(rewrite[0])
    for dirpath, _dirs, files in os.walk(src):
        rel = Path(dirpath).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            source, target = Path(dirpath, name), dst / rel / name
            if name.endswith(".html") and source.is_file():
                data = source.read_bytes()
                new = pattern.sub(rewrite[1], data)
                if new != data:
                    target.write_bytes(new)
                    mtime = source.stat().st_mtime
                    os.utime(target, (mtime, mtime))
                    continue
            target.symlink_to(source)


def _html_files(top: Path) -> Iterator[str]:
    """Relative paths of the regular .html files under top (broken symlinks skipped)."""
    for dirpath, _dirs, files in os.walk(top):
        for name in files:
            path = Path(dirpath, name)
            if name.endswith(".html") and path.is_file():
                yield path.relative_to(top).as_posix()


def _excluded(pages: Iterable[str], disallow: Iterable[str]) -> tuple[str, ...]:
    rules = tuple(disallow)
    return tuple(p for p in pages if p.startswith(rules))


def _robots(host: str, disallow: Iterable[str]) -> str:
    lines = ["User-agent: *", *(f"Disallow: {d}" for d in disallow), ""]
    lines.append(f"Sitemap: http://{host}/sitemap.xml")
    return "\n".join(lines) + "\n"


def _lastmod(path: Path) -> str:
    mtime = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return mtime.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def _urlset(host: str, entries: Iterable[tuple[str, Path]]) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for path, file in entries:
        loc = html.escape(f"http://{host}{path}")
        out.append(f"<url><loc>{loc}</loc><lastmod>{_lastmod(file)}</lastmod></url>")
    out.append("</urlset>")
    return "\n".join(out) + "\n"


def _sitemap_index(host: str, children: Iterable[str]) -> str:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    out += [f"<sitemap><loc>http://{host}{c}</loc></sitemap>" for c in children]
    out.append("</sitemapindex>")
    return "\n".join(out) + "\n"


def _postgres_home() -> str:
    return """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">
<title>PostgreSQL: The world's most advanced open source database</title>
<meta name="description" content="PostgreSQL: a powerful, open source object-relational database.">
</head>
<body>
<header><nav><a href="/">Home</a> <a href="/docs/15/index.html">Documentation</a></nav></header>
<main>
<h1>PostgreSQL: The World's Most Advanced Open Source Relational Database</h1>
<p>PostgreSQL is a powerful, open source object-relational database system with over 35 years of
active development that has earned it a strong reputation for reliability, feature robustness,
and performance.</p>
<p>Read the <a href="/docs/15/index.html">PostgreSQL 15 documentation</a>, start with the
<a href="/docs/15/tutorial.html">tutorial</a>, or look up an
<a href="/docs/15/sql-commands.html">SQL command</a>.</p>
</main>
</body>
</html>
"""


def _handbook_home(langs: list[str]) -> str:
    alternates = "\n".join(
        f'<link rel="alternate" hreflang="{lang}" href="/browse/{lang}/stable/">' for lang in langs
    )
    items = "\n".join(
        f'<li><a href="/browse/{lang}/stable/" hreflang="{lang}">{lang}</a></li>' for lang in langs
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">
<title>The Debian Administrator's Handbook</title>
{alternates}
</head>
<body>
<main>
<h1>The Debian Administrator's Handbook</h1>
<p>A reference book presenting the Debian distribution, from initial installation to
configuration of services, available in {len(langs)} languages. Read it online:</p>
<ul>
{items}
</ul>
</main>
</body>
</html>
"""
