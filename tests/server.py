"""A real webcorpus server on loopback for tests: uvicorn in a thread, or `webcorpus serve`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from webcorpus.api.app import create_app
from webcorpus.config import Settings
from webcorpus.services import keys
from webcorpus.store import Store, open_store

FINAL = ("completed", "partial", "failed", "cancelled")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Running:
    base_url: str
    settings: Settings
    store: Store
    key: str
    client: httpx.Client

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def crawl(self, domain: str, **body: Any) -> str:
        r = self.client.post("/api/crawl", json={"domain": domain, **body}, headers=self.auth)
        assert r.status_code == 202, r.text
        return str(r.json()["job_id"])

    def wait(self, job_id: str, timeout: float = 600) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.client.get(f"/api/jobs/{job_id}").json()
            if view["state"] in FINAL:
                return dict(view)
            time.sleep(0.3)
        raise AssertionError(f"job {job_id} did not end in {timeout}s")


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "data_dir": data_dir,
        "crawl_delay_s": 0.0,
        "host_concurrency": 16,
        "max_concurrency": 16,
        "allow_private_suffixes": True,
        "connect_timeout_s": 5.0,
        "read_timeout_s": 20.0,
        "max_retries": 1,
        "job_lease_s": 6.0,
        "connect_to_only": True,
        "embeddings": False,
        "model_dir": Path.home() / ".cache" / "webcorpus-test" / "models",
    }
    base.update(overrides)
    return Settings(**base)


@contextmanager
def run_server(settings: Settings, *, worker: bool = True) -> Iterator[Running]:
    store = open_store(settings)
    key = keys.create_key(store, f"test-{os.urandom(3).hex()}")
    app = create_app(settings, store=store, run_worker=worker)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=30) as client:
        try:
            yield Running(base, settings, store, key, client)
        finally:
            server.should_exit = True
            thread.join(30)
            store.close()


def spawn_serve(settings_env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, **settings_env, "WEBCORPUS_PORT": str(port)}
    out = log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "webcorpus.cli", "serve"], env=env, stdout=out, stderr=out
    )


def assert_buckets_invariant(view: dict[str, Any]) -> None:
    """Every known URL in exactly one bucket: sum = total, unaccounted = 0."""
    cov = view["coverage"]
    buckets = cov["buckets"]
    assert buckets["unaccounted"]["count"] == 0
    assert sum(b["count"] for b in buckets.values()) == cov["total"]
    assert cov["total"] == view["progress"]["discovered"]
    if view["state"] in FINAL:
        assert buckets["pending"]["count"] == 0
    if view["state"] == "completed":
        assert buckets["budget"]["count"] == 0 and buckets["stoppedEarly"]["count"] == 0
