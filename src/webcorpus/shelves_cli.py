"""``webcorpus shelves list|show|put|add|remove|crawl``: shelves of companies from the shell.

Wired into ``cli.py`` with ``shelves_cli.add_parser(sub)``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from webcorpus.config import Settings


def _store_and_settings() -> tuple[Any, Settings]:
    from webcorpus.cli import load_settings
    from webcorpus.store import open_store

    settings = load_settings()
    return open_store(settings), settings


def _print(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def cmd_shelves(args: argparse.Namespace) -> int:
    from webcorpus.services import collections, crawls
    from webcorpus.services.errors import ServiceError

    store, settings = _store_and_settings()
    try:
        return _run(args, store, settings, collections, crawls)
    except ServiceError as exc:
        print(f"error: {exc.detail}", file=sys.stderr)
        return 2
    finally:
        store.close()


def _run(
    args: argparse.Namespace, store: Any, settings: Settings, collections: Any, crawls: Any
) -> int:
    from webcorpus.services.errors import ServiceError

    cmd = args.shelves_cmd
    if cmd == "list":
        data, _total = collections.list_collections(store, 1000, 0)
        if args.json:
            _print(data)
        for s in [] if args.json else data:
            print(f"{s['slug']}\t{s['companies']} companies\t{s['crawled']} crawled\t{s['name']}")
        return 0
    if cmd == "show":
        shelf = collections.get_collection(store, args.slug)
        if args.json:
            _print(shelf)
            return 0
        print(f"{shelf['slug']}: {shelf['name']}")
        if shelf["description"]:
            print(shelf["description"])
        for m in shelf["members"]:
            state = f"{m['pages']} pages" if m["crawled"] else "not crawled"
            print(f"  {m['domain']}\t{state}\t{m['placed_by']}\t{m['reason']}")
        return 0
    if cmd == "put":
        body = collections.parse_shelf_body(
            {"name": args.name or args.slug, "description": args.description or ""}
        )
        slug = collections.check_slug(args.slug)
        _shelf, created = collections.put_collection(store, slug, body["name"], body["description"])
        print(f"{'created' if created else 'updated'} {slug}", file=sys.stderr)
        return 0
    if cmd == "add":
        for domain in args.domains:
            body = collections.parse_member_body(
                {"domain": domain, "reason": args.reason or "", "placed_by": args.placed_by},
                settings,
            )
            _member, created = collections.add_member(
                store, args.slug, body["domain"], body["reason"], body["placed_by"]
            )
            print(f"{'placed' if created else 'updated'} {body['domain']}", file=sys.stderr)
        return 0
    if cmd == "remove":
        from webcorpus.services.domains import parse_domain

        for domain in args.domains:
            collections.remove_member(store, args.slug, parse_domain(settings, domain))
            print(f"removed {domain}", file=sys.stderr)
        return 0
    if cmd == "crawl":
        shelf = collections.get_collection(store, args.slug)
        failures = 0
        for m in shelf["members"]:
            if args.uncrawled and m["crawled"]:
                continue
            request: dict[str, Any] = {"domain": m["domain"], "budget": args.budget}
            if args.refresh:
                request["refresh"] = True
            try:
                params = crawls.parse_crawl_body(request, settings)
                job = crawls.start_crawl(store, params, None)
            except ServiceError as exc:
                failures += 1
                print(f"{m['domain']}\terror: {exc.detail}", file=sys.stderr)
                continue
            print(f"{job.id}\t{job.domain}")
        print(
            "queued; a running `webcorpus serve` or `webcorpus worker` crawls them",
            file=sys.stderr,
        )
        return 1 if failures else 0
    return 2


def add_parser(sub: Any) -> argparse.ArgumentParser:
    shelves = sub.add_parser("shelves", help="manage shelves (collections) of companies")
    ssub = shelves.add_subparsers(dest="shelves_cmd", required=True)
    ls = ssub.add_parser("list", help="every shelf with company and crawled counts")
    ls.add_argument("--json", action="store_true")
    show = ssub.add_parser("show", help="one shelf and its members")
    show.add_argument("slug")
    show.add_argument("--json", action="store_true")
    put = ssub.add_parser("put", help="create or update a shelf")
    put.add_argument("slug")
    put.add_argument("--name", help="display name (default: the slug)")
    put.add_argument("--description")
    add = ssub.add_parser("add", help="place companies (root domains) on a shelf")
    add.add_argument("slug")
    add.add_argument("domains", nargs="+")
    add.add_argument("--reason")
    add.add_argument("--placed-by", choices=("person", "agent"), default="person")
    remove = ssub.add_parser("remove", help="take companies off a shelf")
    remove.add_argument("slug")
    remove.add_argument("domains", nargs="+")
    crawl = ssub.add_parser("crawl", help="start a crawl of every company on a shelf")
    crawl.add_argument("slug")
    crawl.add_argument("--budget", type=int, default=500)
    crawl.add_argument("--refresh", action="store_true")
    crawl.add_argument("--uncrawled", action="store_true", help="only companies not crawled yet")
    shelves.set_defaults(func=cmd_shelves)
    return shelves
