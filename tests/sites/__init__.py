"""Real websites on loopback for crawler tests: Debian doc sites behind nginx, a hostile site."""

from tests.sites.docsites import DocSite, DocSites, ensure_doc_sites
from tests.sites.hostile import (
    ALSO_ACCEPTABLE,
    EXPECTED_BUCKETS,
    HOSTILE_HOST,
    INTERNAL_HOST,
    TRAPS,
    RunningHostile,
    start_hostile,
)
from tests.sites.nginx import RunningServer, running_nginx, start_nginx

__all__ = [
    "ALSO_ACCEPTABLE",
    "EXPECTED_BUCKETS",
    "HOSTILE_HOST",
    "INTERNAL_HOST",
    "TRAPS",
    "DocSite",
    "DocSites",
    "RunningHostile",
    "RunningServer",
    "ensure_doc_sites",
    "running_nginx",
    "start_hostile",
    "start_nginx",
]
