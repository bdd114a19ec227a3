from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.sites.fixtures import doc_sites, hostile_server, nginx_server

__all__ = ["doc_sites", "hostile_server", "nginx_server"]
