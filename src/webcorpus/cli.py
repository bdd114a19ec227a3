"""Command line: webcorpus serve | worker | crawl | keys | inspect | shelves."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from webcorpus import __version__, inspect_cli, shelves_cli
from webcorpus.config import Settings


def _host(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty host would listen on every interface")
    return value.strip()


def _port(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port from 1 to 65535")
    return int(value)


def load_settings() -> Settings:
    """The settings from the environment and ``.env``; a bad value ends the command with one
    line per setting instead of a traceback, and an unknown ``WEBCORPUS_`` name (a misspelled
    setting, silently ignored otherwise) gets a warning naming the closest setting."""
    from pydantic import ValidationError

    for line in unknown_settings():
        print(f"warning: {line}", file=sys.stderr)
    try:
        return Settings()
    except ValidationError as exc:
        lines = [
            (
                f"error: WEBCORPUS_{'_'.join(str(p) for p in err['loc']).upper()}: "
                if err["loc"]
                else "error: "
            )
            + err["msg"].removeprefix("Value error, ")
            + (f" (got {err['input']!r})" if isinstance(err.get("input"), str | int) else "")
            for err in exc.errors()
        ]
        print("\n".join(lines), file=sys.stderr)
        raise SystemExit(2) from None
    except UnicodeDecodeError:
        print("error: .env is not UTF-8 text", file=sys.stderr)
        raise SystemExit(2) from None


# Variables with the prefix that are not settings: the install and test scripts' own.
_NOT_SETTINGS = ("WEBCORPUS_VENV", "WEBCORPUS_PYTHON", "WEBCORPUS_TEST_")


def unknown_settings(env_file: Path | str = str(Settings.model_config["env_file"])) -> list[str]:
    """One line per ``WEBCORPUS_`` name in the environment or ``env_file`` that no setting has."""
    import difflib

    from dotenv import dotenv_values

    known = {f"WEBCORPUS_{name.upper()}" for name in Settings.model_fields}
    sources = [(name, "environment") for name in os.environ]
    with contextlib.suppress(OSError, UnicodeDecodeError):
        sources += [(name, str(env_file)) for name in dotenv_values(env_file)]
    out = []
    for name, where in sources:
        upper = name.upper()
        if not upper.startswith("WEBCORPUS_") or upper in known or upper.startswith(_NOT_SETTINGS):
            continue
        close = difflib.get_close_matches(upper, known, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        out.append(f"{name} ({where}) is not a setting and is ignored{hint}")
    return out


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from webcorpus.api.app import create_app

    settings = load_settings()
    if args.host is not None:
        settings.host = args.host
    if args.port is not None:
        settings.port = args.port
    if args.no_worker:
        settings.worker = False
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(settings)
    print(
        f"webcorpus {__version__} on http://{settings.host}:{settings.port} "
        f"(data: {settings.data_dir.resolve()})",
        file=sys.stderr,
    )
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        access_log=args.access_log,
    )
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from webcorpus.crawl.worker import Worker
    from webcorpus.store import open_store

    settings = load_settings()
    store = open_store(settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(Worker(settings, store).run())
    return 0


def _progress_line(view: dict[str, Any]) -> str:
    p = view["progress"]
    eta = p.get("eta")
    eta_s = f" eta {eta['low_s']}-{eta['high_s']}s" if eta and view["state"] == "running" else ""
    return (
        f"{view['state']:<9} indexed {p['indexed']:>5}  pending {p['pending']:>5}  "
        f"discovered {p['discovered']:>5}  {p['pages_per_min']:>7.1f} pages/min"
        + (f"  embed backlog {backlog}" if (backlog := p["embedding_backlog"]) is not None else "")
        + eta_s
    )


def cmd_crawl(args: argparse.Namespace) -> int:
    from webcorpus.crawl.worker import Worker
    from webcorpus.services import crawls, jobs
    from webcorpus.services.errors import ServiceError
    from webcorpus.store import open_store

    settings = load_settings()
    store = open_store(settings)
    body: dict[str, Any] = {
        "domain": args.domain,
        "budget": settings.default_budget if args.budget is None else args.budget,
        "refresh": args.refresh,
        "force": args.force,
        "shots": args.shots,
    }
    try:
        params = crawls.parse_crawl_body(body, settings)
        job = crawls.start_crawl(store, params, None)
    except ServiceError as exc:
        print(f"error: {exc.detail}", file=sys.stderr)
        return 2
    print(f"{job.id} {job.domain}", file=sys.stderr)
    interrupted: list[bool] = []

    async def main() -> None:
        worker = Worker(settings, store, only_job=job.id)
        task = asyncio.create_task(worker.run())
        loop = asyncio.get_running_loop()

        def cancel_on_interrupt() -> None:
            """First Ctrl-C: cancel the job and wait until it has ended (a second Ctrl-C leaves
            it unfinished, for `webcorpus serve` to resume and end)."""
            loop.remove_signal_handler(signal.SIGINT)
            interrupted.append(True)
            store.request_cancel(job.id)
            sys.stderr.write("\ncancelling (Ctrl-C again to stop at once)\n")

        with contextlib.suppress(NotImplementedError):  # no signal handlers on this platform
            loop.add_signal_handler(signal.SIGINT, cancel_on_interrupt)
        try:
            while True:
                await asyncio.sleep(1.0)
                view = jobs.job_view(
                    store, jobs.get_job(store, job.id), embeddings=settings.embeddings
                )
                sys.stderr.write("\r" + _progress_line(view))
                sys.stderr.flush()
                if view["state"] in ("completed", "partial", "failed", "cancelled"):
                    break
        finally:
            worker.stop()
            await task

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        store.request_cancel(job.id)
        print("\ncancel requested", file=sys.stderr)
        return 130
    view = jobs.job_view(store, jobs.get_job(store, job.id), embeddings=settings.embeddings)
    sys.stderr.write("\n")
    print(
        json.dumps(
            view
            if args.json
            else {
                "id": view["id"],
                "state": view["state"],
                "progress": view["progress"],
                "coverage": {k: v["count"] for k, v in view["coverage"]["buckets"].items()},
                **({"error": view["error"]} if view["error"] else {}),
            },
            indent=2,
        )
    )
    if interrupted:
        return 130  # as a shell reports a command ended by Ctrl-C
    return 0 if view["state"] in ("completed", "partial") else 1


def cmd_keys(args: argparse.Namespace) -> int:
    from webcorpus.services import keys
    from webcorpus.services.errors import ServiceError
    from webcorpus.store import ConflictError, open_store

    store = open_store(load_settings())
    if args.keys_cmd == "create":
        try:
            key = keys.create_key(
                store, args.name, scopes="read" if args.read_only else "read,write"
            )
        except (ServiceError, ConflictError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(key)
        return 0
    if args.keys_cmd == "list":
        for k in keys.list_keys(store):
            state = f"revoked {k['revoked_at']}" if k["revoked_at"] else "active"
            print(f"{k['name']}\t{k['prefix']}…\t{k['scopes']}\t{k['created_at']}\t{state}")
        return 0
    if args.keys_cmd == "revoke":
        if keys.revoke_key(store, args.name):
            print(f"revoked {args.name}", file=sys.stderr)
            return 0
        print(f"error: no active key named {args.name!r}", file=sys.stderr)
        return 1
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="webcorpus", description=__doc__)
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="cmd", required=True)

    serve = sub.add_parser("serve", help="run the API, MCP endpoint and (embedded) crawl worker")
    serve.add_argument("--host", type=_host, help="address to listen on (default: WEBCORPUS_HOST)")
    serve.add_argument("--port", type=_port, help="port to listen on (default: WEBCORPUS_PORT)")
    serve.add_argument("--no-worker", action="store_true", help="API only (scale-out)")
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.add_argument("--access-log", action="store_true")
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="run a crawl worker alone")
    worker.set_defaults(func=cmd_worker)

    crawl = sub.add_parser("crawl", help="crawl a domain and show progress until it ends")
    crawl.add_argument("domain")
    crawl.add_argument("--budget", type=int, help="most pages (default: WEBCORPUS_DEFAULT_BUDGET)")
    crawl.add_argument("--refresh", action="store_true")
    crawl.add_argument("--force", action="store_true")
    crawl.add_argument("--shots", type=int, default=0)
    crawl.add_argument("--json", action="store_true", help="print the whole job record")
    crawl.set_defaults(func=cmd_crawl)

    keys = sub.add_parser("keys", help="manage API keys")
    ksub = keys.add_subparsers(dest="keys_cmd", required=True)
    create = ksub.add_parser("create", help="create a key; prints it once on stdout")
    create.add_argument("name")
    create.add_argument("--read-only", action="store_true")
    ksub.add_parser("list", help="list keys (never the keys themselves)")
    revoke = ksub.add_parser("revoke", help="revoke a key by name")
    revoke.add_argument("name")
    keys.set_defaults(func=cmd_keys)
    inspect_cli.add_parser(sub)
    shelves_cli.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
