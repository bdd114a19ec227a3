"""Session-scoped pytest fixtures for the loopback test sites.

Import them into a conftest.py (``from tests.sites.fixtures import doc_sites, nginx_server,
hostile_server``) or a test module. Tests that change a page with ``nginx_server.write_page`` must
call ``nginx_server.reset()`` when done; tests that count requests call ``hostile_server.reset()``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sites.docsites import DocSites, ensure_doc_sites
from tests.sites.hostile import RunningHostile, start_hostile
from tests.sites.nginx import RunningServer, start_nginx


@pytest.fixture(scope="session")
def doc_sites() -> DocSites:
    """The three doc sites (runs scripts/setup-test-env.sh first if the cache is empty)."""
    return ensure_doc_sites()


@pytest.fixture(scope="session")
def nginx_server(
    doc_sites: DocSites, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningServer]:
    server = start_nginx(doc_sites, tmp_path_factory.mktemp("nginx"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def hostile_server() -> Iterator[RunningHostile]:
    server = start_hostile()
    try:
        yield server
    finally:
        server.stop()
