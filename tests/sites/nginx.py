"""A real nginx serving the doc sites on one loopback port, one ``server`` block per host.

Each host is served from a per-run writable overlay in front of the pristine site tree: a file
written with :meth:`RunningServer.write_page` is served instead of the pristine one (new ETag and
Last-Modified), :meth:`RunningServer.delete_page` makes a page 404, :meth:`RunningServer.reset`
undoes both. The cached tree is never written to.
"""

from __future__ import annotations

import ctypes
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from tests.sites.docsites import DocSite, DocSites

DELETED_DIR = ".deleted"  # whiteouts: <overlay>/.deleted/<path> present -> 404
MIME_TYPES = {
    "text/html": "html htm",
    "text/css": "css",
    "text/plain": "txt",
    "text/xml": "xml",
    "application/javascript": "js",
    "application/json": "json",
    "application/gzip": "gz",
    "application/pdf": "pdf",
    "image/png": "png",
    "image/jpeg": "jpg jpeg",
    "image/gif": "gif",
    "image/svg+xml": "svg",
    "font/woff": "woff",
    "font/woff2": "woff2",
}


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if not found:
        raise RuntimeError("nginx not installed: run scripts/setup-test-env.sh")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RunningServer:
    port: int
    workdir: Path
    sites: dict[str, DocSite]
    process: subprocess.Popen[bytes]
    # A bound, never-listening socket: connecting to its port is refused at once.
    _refuser: socket.socket = field(repr=False)

    @property
    def hosts(self) -> list[str]:
        return [h for site in self.sites.values() for h in site.hosts]

    @property
    def refused_port(self) -> int:
        return int(self._refuser.getsockname()[1])

    @property
    def access_log(self) -> Path:
        return self.workdir / "logs" / "access.log"

    @property
    def error_log(self) -> Path:
        return self.workdir / "logs" / "error.log"

    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def connect_to(
        self, hosts: Iterable[str] | None = None, *, refuse_https: bool = False
    ) -> list[str]:
        """curl ``--connect-to`` entries ``HOST:80:127.0.0.1:PORT`` (all hosts by default).

        ``refuse_https`` adds ``HOST:443:127.0.0.1:<closed port>`` so an https attempt fails fast
        with "connection refused" instead of resolving the real name.
        """
        out: list[str] = []
        for host in self.hosts if hosts is None else hosts:
            out.append(f"{host}:80:127.0.0.1:{self.port}")
            if refuse_https:
                out.append(f"{host}:443:127.0.0.1:{self.refused_port}")
        return out

    def connect_to_env(
        self, hosts: Iterable[str] | None = None, *, refuse_https: bool = False
    ) -> str:
        """The value for ``WEBCORPUS_CONNECT_TO``."""
        return ",".join(self.connect_to(hosts, refuse_https=refuse_https))

    def overlay(self, host: str) -> Path:
        return self.workdir / "overlay" / self.sites[host].host

    def write_page(self, host: str, path: str, body: bytes | str) -> Path:
        """Serve ``body`` at ``path`` on ``host`` from now on (a new or changed page)."""
        target = self.overlay(host) / path.lstrip("/")
        if path.endswith("/"):
            target = target / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        data = body.encode() if isinstance(body, str) else body
        target.write_bytes(data)
        self._whiteout(host, path).unlink(missing_ok=True)
        return target

    def delete_page(self, host: str, path: str) -> None:
        """Make ``path`` answer 404 from now on."""
        mark = self._whiteout(host, path)
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()

    def reset(self) -> None:
        """Drop every change made with write_page/delete_page."""
        for host in self.sites:
            overlay = self.overlay(host)
            shutil.rmtree(overlay, ignore_errors=True)
            overlay.mkdir(parents=True)

    def access_log_lines(self) -> list[str]:
        """``<host> <method> <uri> <status>`` per request so far."""
        if not self.access_log.exists():
            return []
        return self.access_log.read_text(errors="replace").splitlines()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: fast shutdown of master and workers
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._refuser.close()

    def _whiteout(self, host: str, path: str) -> Path:
        return self.overlay(host) / DELETED_DIR / path.lstrip("/")

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_nginx(sites: DocSites | Iterable[DocSite], workdir: Path | None = None) -> RunningServer:
    """Start nginx in the foreground (``daemon off``) on a free 127.0.0.1 port."""
    site_map = {s.host: s for s in sites}
    workdir = Path(workdir or tempfile.mkdtemp(prefix="webcorpus-nginx-"))
    (workdir / "logs").mkdir(parents=True, exist_ok=True)
    (workdir / "temp").mkdir(exist_ok=True)
    for host in site_map:
        (workdir / "overlay" / host).mkdir(parents=True, exist_ok=True)
    refuser = socket.socket()
    refuser.bind(("127.0.0.1", 0))
    last_error = ""
    for _attempt in range(3):  # the free port may be taken between probe and bind
        port = free_port()
        conf = workdir / "nginx.conf"
        conf.write_text(render_config(site_map, workdir, port))
        log = (workdir / "logs" / "stderr.log").open("ab")
        proc = subprocess.Popen(
            [
                nginx_binary(),
                "-p",
                str(workdir),
                "-c",
                str(conf),
                "-e",
                str(workdir / "logs" / "error.log"),
            ],
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            # PDEATHSIG follows the forking *thread*: only tie nginx to the main thread's life.
            preexec_fn=_die_with_parent
            if threading.current_thread() is threading.main_thread()
            else None,
        )
        log.close()
        if _wait_listening(proc, port, timeout=10):
            return RunningServer(port, workdir, site_map, proc, refuser)
        with suppress(ProcessLookupError):
            proc.kill()
        proc.wait(timeout=5)
        last_error = (workdir / "logs" / "error.log").read_text(errors="replace")[-2000:]
    refuser.close()
    raise RuntimeError(f"nginx did not start: {last_error}")


@contextmanager
def running_nginx(
    sites: DocSites | Iterable[DocSite], workdir: Path | None = None
) -> Iterator[RunningServer]:
    server = start_nginx(sites, workdir)
    try:
        yield server
    finally:
        server.stop()


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM nginx if the test process dies without stopping it."""
    with suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _wait_listening(proc: subprocess.Popen[bytes], port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


def render_config(sites: dict[str, DocSite], workdir: Path, port: int) -> str:
    listen = f"127.0.0.1:{port}"
    types = "\n".join(f"        {mime} {exts};" for mime, exts in MIME_TYPES.items())
    temp = workdir / "temp"
    servers = [
        f"""
    server {{
        listen {listen} default_server;
        server_name _;
        return 404;
    }}"""
    ]
    for host, site in sites.items():
        overlay = workdir / "overlay" / host
        redirects = "".join(
            f"\n        location = {src} {{ return 301 {dst}; }}"
            for src, dst in site.redirects.items()
        )
        servers.append(
            f"""
    server {{
        listen {listen};
        server_name {host};
        root {overlay};{redirects}
        location / {{
            if (-f $document_root/{DELETED_DIR}$uri) {{ return 404; }}
            try_files $uri @pristine;
        }}
        location @pristine {{
            root {site.root};
        }}
    }}"""
        )
        if site.aliases:
            servers.append(
                f"""
    server {{
        listen {listen};
        server_name {" ".join(site.aliases)};
        return 301 http://{host}$request_uri;
    }}"""
            )
    return f"""# generated by tests/sites/nginx.py
daemon off;
master_process on;
user root;
worker_processes 2;
pid {workdir}/nginx.pid;
error_log {workdir}/logs/error.log warn;
events {{
    worker_connections 256;
}}
http {{
    types {{
{types}
    }}
    default_type application/octet-stream;
    log_format plain '$host $request_method $request_uri $status $body_bytes_sent';
    access_log {workdir}/logs/access.log plain;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    sendfile on;
    keepalive_timeout 30;
    absolute_redirect off;
    server_tokens off;
    etag on;
    gzip on;
    gzip_vary on;
    gzip_min_length 256;
    gzip_types text/css text/plain text/xml application/xml application/javascript application/json;
{"".join(servers)}
}}
"""
