"""``webcorpus inspect FILE --url URL [--header K:V]``: what the page read would show for a saved
HTML page (markdown, metadata, facets with their ``explain`` signals, links with their position),
by running the same extraction and facet scoring the crawler runs. Nothing is stored; no network.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from webcorpus.crawl.domains import registrable_domain
from webcorpus.crawl.urls import normalize_url, page_id, url_host
from webcorpus.extract import extract
from webcorpus.facets import boilerplate_share, score_page, simhash64


def parse_headers(values: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for value in values:
        name, sep, content = value.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"--header wants NAME:VALUE, got {value!r}")
        headers[name.strip().lower()] = content.strip()
    return headers


def inspect_page(html: bytes, url: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The page as ``GET /api/content/<id>?explain=true`` would show it, without a corpus:
    ``metrics`` and ``cited_by`` need other pages and are left out; ``links`` and ``signals``
    are added (every link with its body/template position; timing and boilerplate share)."""
    normalized = normalize_url(url)
    if normalized is None:
        raise ValueError(f"not an http(s) URL: {url!r}")
    hdrs = headers or {}
    t0 = time.process_time()
    doc = extract(html, normalized, headers=hdrs)
    t1 = time.process_time()
    facets = score_page(doc, normalized, headers=hdrs)
    t2 = time.process_time()
    host = url_host(normalized) or ""
    canonical = normalize_url(doc.canonical_url, base=normalized) if doc.canonical_url else None
    return {
        "id": page_id(normalized),
        "url": normalized,
        "canonical_url": canonical or normalized,
        "title": doc.title,
        "description": doc.description,
        "domain": registrable_domain(host, allow_private_suffixes=True) or host,
        "facets": facets.as_dict(),
        "markdown": doc.markdown,
        "metadata": {
            "declared_language": doc.language,
            "hreflang": [{"hreflang": h, "url": u} for h, u in doc.hreflang],
            "noindex": doc.noindex,
            "nofollow": doc.nofollow,
            "jsonld_types": doc.jsonld_types,
            "og_type": doc.og_type,
            "published_extracted": doc.published.isoformat() if doc.published else None,
        },
        "assets": [{"url": a.url, "kind": a.kind, "alt": a.alt} for a in doc.assets],
        "links": [
            {
                "url": link.url,
                "anchor_text": link.anchor_text,
                "position": link.position,
                "nofollow": link.nofollow,
            }
            for link in doc.links
        ],
        "explain": facets.explain,
        "signals": {
            "extract_cpu_ms": round((t1 - t0) * 1000, 2),
            "facets_cpu_ms": round((t2 - t1) * 1000, 2),
            "boilerplate_share": round(boilerplate_share(doc), 3),
            "simhash": simhash64(doc.text) if doc.text else None,
            "body_links": sum(1 for link in doc.links if link.position == "body"),
            "template_links": sum(1 for link in doc.links if link.position == "template"),
        },
    }


def cmd_inspect(args: argparse.Namespace) -> int:
    try:
        html = Path(args.file).read_bytes()
        if b"\x00" in html[:4096]:  # what the crawler would have put in notHtml by its type
            raise ValueError(f"{args.file} is binary data, not an HTML page")
        result = inspect_page(html, args.url, parse_headers(args.header))
    except (OSError, ValueError) as exc:
        print(f"webcorpus inspect: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=None if args.compact else 2)
    sys.stdout.write("\n")
    return 0


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``inspect`` on the ``webcorpus`` subcommand parsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "inspect",
        help="extract and score a saved HTML page; print the page read as JSON (stores nothing)",
    )
    p.add_argument("file", help="saved HTML file")
    p.add_argument("--url", required=True, help="the address the page was served from")
    p.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="NAME:VALUE",
        help="a response header, e.g. 'Content-Language: de-DE' (repeatable)",
    )
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(func=cmd_inspect)
    return p
