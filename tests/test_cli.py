"""The command line: keys, and a crawl from the shell with progress until it ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.sites.nginx import RunningServer
from webcorpus.config import Settings
from webcorpus.services import crawls
from webcorpus.store import open_store

CLI = [sys.executable, "-m", "webcorpus.cli"]


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], env=env, capture_output=True, text=True, timeout=300)


def test_keys_create_list_revoke(tmp_path: Path) -> None:
    env = {**os.environ, "WEBCORPUS_DATA_DIR": str(tmp_path)}
    created = run(["keys", "create", "ops"], env)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip()
    assert key.startswith("wck_") and "\n" not in key
    listed = run(["keys", "list"], env)
    assert "ops" in listed.stdout and key not in listed.stdout
    assert run(["keys", "create", "ops"], env).returncode == 2
    assert run(["keys", "revoke", "ops"], env).returncode == 0
    assert "revoked" in run(["keys", "list"], env).stdout
    assert run(["keys", "revoke", "ops"], env).returncode == 1
    again = run(["keys", "create", "ops"], env)
    assert again.returncode == 2 and "revoked; names are not reused" in again.stderr, again.stderr


def test_a_bad_setting_is_named_not_a_traceback(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "WEBCORPUS_DATA_DIR": str(tmp_path),
        "WEBCORPUS_PORT": "eighty",
        "WEBCORPUS_WORKER_JOBS": "0",
    }
    for args in (["keys", "list"], ["serve"]):
        out = run(args, env)
        assert out.returncode == 2
        assert "Traceback" not in out.stderr
        assert "WEBCORPUS_PORT: Input should be a valid integer" in out.stderr
        assert "WEBCORPUS_WORKER_JOBS: Input should be greater than or equal to 1" in out.stderr
        assert not (tmp_path / "webcorpus.db").exists()
    # The scale-out database is not built yet: said so, not a NotImplementedError traceback.
    postgres = {**os.environ, "WEBCORPUS_DATA_DIR": str(tmp_path)}
    postgres["WEBCORPUS_DATABASE_URL"] = "postgresql://webcorpus@localhost/webcorpus"
    out = run(["serve"], postgres)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "WEBCORPUS_DATABASE_URL" in out.stderr and "PostgreSQL backend" in out.stderr


def _crawl_env(nginx: RunningServer, data_dir: Path, **settings: str) -> dict[str, str]:
    """The environment of a shell crawl of the loopback doc sites, embeddings off."""
    env = {
        **os.environ,
        "WEBCORPUS_DATA_DIR": str(data_dir),
        "WEBCORPUS_CONNECT_TO": ",".join(nginx.connect_to(refuse_https=True)),
        "WEBCORPUS_CONNECT_TO_ONLY": "true",
        "WEBCORPUS_EMBEDDINGS": "false",
    }
    return env | {f"WEBCORPUS_{name.upper()}": value for name, value in settings.items()}


def test_settings_that_would_fail_later_are_refused_at_start(tmp_path: Path) -> None:
    """Values that used to pass start-up and then broke every crawl or request (a 500 from the
    rate limiter at 0, a traceback at the first crawl for a malformed connect_to)."""
    base = {**os.environ, "WEBCORPUS_DATA_DIR": str(tmp_path / "data")}
    cases = {
        "WEBCORPUS_CONNECT_TO": ("garbage", "expected HOST:PORT:ADDR:PORT"),
        "WEBCORPUS_ALLOW_NETWORKS": ("nope", "is not a CIDR"),
        "WEBCORPUS_CRAWL_RATE_PER_MINUTE": ("0", "greater than or equal to 1"),
        "WEBCORPUS_PORT": ("70000", "less than or equal to 65535"),
        "WEBCORPUS_READ_TIMEOUT_S": ("-1", "greater than 0"),
        "WEBCORPUS_EMBED_BATCH": ("0", "greater than or equal to 1"),
        "WEBCORPUS_DEFAULT_BUDGET": ("20000", "default_budget (20000) is above max_budget"),
        "WEBCORPUS_DATA_DIR": ("", "is empty: unset it for the default ./data"),
    }
    for name, (value, message) in cases.items():
        for args in (["keys", "list"], ["shelves", "list"]):
            out = run(args, {**base, name: value})
            assert out.returncode == 2, (name, out.stderr)
            assert "Traceback" not in out.stderr and message in out.stderr, (name, out.stderr)
    out = run(["serve", "--port", "0"], base)
    assert out.returncode == 2 and "not a port from 1 to 65535" in out.stderr, out.stderr
    out = run(["serve", "--host", ""], base)
    assert out.returncode == 2 and "every interface" in out.stderr, out.stderr
    out = run(["keys", "create", "tab\tname"], base)
    assert out.returncode != 0 and "no tabs, newlines" in out.stderr, out.stderr
    (tmp_path / "file").write_text("x")
    out = run(["keys", "list"], {**base, "WEBCORPUS_DATA_DIR": str(tmp_path / "file")})
    assert out.returncode == 2 and "is not a directory" in out.stderr, out.stderr


def test_a_misspelled_setting_is_named(tmp_path: Path) -> None:
    env = {**os.environ, "WEBCORPUS_DATA_DIR": str(tmp_path), "WEBCORPUS_EMBEDDING": "false"}
    (tmp_path / ".env").write_text("WEBCORPUS_PUBLICREADS=false\nWEBCORPUS_PORT=8001\n")
    out = subprocess.run(
        [*CLI, "keys", "list"], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert "WEBCORPUS_EMBEDDING (environment) is not a setting" in out.stderr
    assert "did you mean WEBCORPUS_EMBEDDINGS?" in out.stderr
    assert "WEBCORPUS_PUBLICREADS (.env) is not a setting" in out.stderr
    assert "did you mean WEBCORPUS_PUBLIC_READS?" in out.stderr
    assert "WEBCORPUS_PORT" not in out.stderr  # a real setting is not flagged


def test_crawl_from_the_shell(nginx_server: RunningServer, tmp_path: Path) -> None:
    env = _crawl_env(nginx_server, tmp_path, crawl_delay_s="0")
    # A job queued earlier (e.g. by a running service) is not the shell crawl's to run.
    settings = Settings(data_dir=tmp_path)
    store = open_store(settings)
    other = crawls.start_crawl(
        store, crawls.parse_crawl_body({"domain": "python.org"}, settings), None
    )
    done = run(["crawl", "www.postgresql.org", "--budget", "8"], env)
    assert done.returncode == 0, done.stderr[-2000:]
    untouched = store.get_job(other.id)
    assert untouched is not None and untouched.state == "queued" and untouched.started_at is None
    store.close()
    result = json.loads(done.stdout)
    assert result["state"] == "partial"
    assert result["progress"]["indexed"] == 8
    assert result["coverage"]["budget"] > 0 and result["coverage"]["unaccounted"] == 0
    assert "pages/min" in done.stderr
    bad = run(["crawl", "localhost"], env)
    assert bad.returncode == 2 and "error:" in bad.stderr


def test_ctrl_c_cancels_the_shell_crawl_and_waits_for_it(
    nginx_server: RunningServer, tmp_path: Path
) -> None:
    """The job ends `cancelled` with its unfetched URLs in stoppedEarly, instead of being left
    `running` for a later service to find."""
    env = _crawl_env(
        nginx_server,
        tmp_path,
        crawl_delay_s="0.2",
        host_concurrency="1",
        adaptive_delay="false",
    )
    proc = subprocess.Popen(
        [*CLI, "crawl", "www.postgresql.org", "--budget", "500"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    settings = Settings(data_dir=tmp_path)
    store = open_store(settings)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            jobs, _total = store.list_jobs(domain=None, state=None, limit=1, offset=0)
            if jobs and store.bucket_counts(jobs[0].id).get("indexed", 0) >= 3:
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert "cancelling" in err and "Traceback" not in err
    result = json.loads(out)
    assert result["state"] == "cancelled"
    assert result["coverage"]["stoppedEarly"] > 0 and result["coverage"]["pending"] == 0
    record = store.get_job(result["id"])
    assert record is not None and record.state == "cancelled" and record.finished_at
    store.close()
