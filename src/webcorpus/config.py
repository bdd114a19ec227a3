"""Every setting in one typed place. Environment variables (and ``.env``) with prefix WEBCORPUS_."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from webcorpus import __version__


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="WEBCORPUS_", env_file=".env", extra="ignore", populate_by_name=True
    )

    data_dir: Path = Path("./data")
    database_url: str | None = None
    host: str = Field(default="127.0.0.1", min_length=1)
    port: int = Field(default=8000, ge=1, le=65535)
    public_reads: bool = True

    # Crawler network
    allow_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    connect_to: Annotated[list[str], NoDecode] = Field(default_factory=list)
    connect_to_only: bool = False
    """Reach only hosts named in connect_to; never ask DNS (tests, air-gapped networks)."""
    user_agent: str = f"webcorpus/{__version__} (+https://github.com/webcorpus/webcorpus)"
    crawl_delay_s: float = Field(default=0.25, ge=0)
    host_concurrency: int = Field(default=4, ge=1)
    adaptive_delay: bool = True
    max_concurrency: int = Field(default=32, ge=1)
    connect_timeout_s: float = Field(default=10.0, gt=0)
    read_timeout_s: float = Field(default=30.0, gt=0)
    max_body_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    max_retries: int = Field(default=2, ge=0)
    max_retry_after_s: float = Field(default=60.0, ge=0)
    max_redirects: int = Field(default=10, ge=0)

    # Crawl scope and traps
    allow_private_suffixes: bool = False
    """Accept crawl targets under non-public suffixes (.test, .example, .internal)."""
    max_sitemaps: int = Field(default=50, ge=0)
    max_sitemap_urls: int = Field(default=50000, ge=0)
    max_depth: int = Field(default=30, ge=0)
    max_url_length: int = Field(default=1024, ge=16)
    max_query_params: int = Field(default=8, ge=0)
    max_repeated_segments: int = Field(default=3, ge=1)
    max_query_variants_per_path: int = Field(default=50, ge=1)

    # Limits
    max_budget: int = Field(default=10000, ge=1)
    default_budget: int = Field(default=500, ge=1)
    content_limit: int = Field(default=100, ge=1)
    search_limit: int = Field(default=50, ge=1)
    bundle_limit: int = Field(default=500, ge=1)
    max_body_request_bytes: int = Field(default=16 * 1024, ge=1024)
    max_q_chars: int = Field(default=1000, ge=1)
    crawl_rate_per_minute: int = Field(default=30, ge=1)

    # Search
    embeddings: bool = True
    """Embed chunks for vector search; false keeps text search only (and skips the model)."""
    model_dir: Path | None = None
    """Where the ONNX model built from the packaged weights is cached (default: data_dir/models)."""
    embed_variant: Literal["int8", "fp32"] = "int8"
    """ONNX graph built from the packaged weights: int8-quantized matmuls, or exact fp32."""
    embed_batch: int = Field(default=64, ge=1)
    embed_threads: int = Field(default=0, ge=0)
    """Embedding lanes: batches embedded side by side, one thread each (0: one per core)."""

    # Screenshots (the crawl's `shots`)
    chromium_path: Path | None = None
    """The browser for screenshots (default: chromium or google-chrome on PATH)."""
    screenshot_timeout_s: float = Field(default=20.0, gt=0)
    """Longest wait for a page to load before its screenshot is taken as it stands."""

    # Workers
    worker: bool = True
    worker_jobs: int = Field(default=4, ge=1, le=64)
    """Crawl jobs a worker runs at once (different domains; they share its processing processes)."""
    api_threads: int = Field(default=0, ge=0, le=256)
    """Threads that run the API's blocking work (database reads); 0: two per CPU, at least 4.
    More threads than cores only contend for the interpreter: at 32 concurrent requests, 4
    threads answered 10-40% more requests than anyio's default 40, with a third lower p95."""
    worker_processes: int = Field(default=0, ge=0, le=64)
    """Processing processes per worker (extraction, facets, chunking); 0: one per CPU, at most 4."""
    processing_timeout_s: float = Field(default=120.0, gt=0)
    """A page whose processing runs longer has its process replaced and ends in fetchError."""
    job_lease_s: float = Field(default=60.0, ge=5)

    @field_validator("allow_networks", "connect_to", mode="before")
    @classmethod
    def _split_csv(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("allow_networks")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        from webcorpus.crawl.ssrf import parse_networks

        parse_networks(value)  # at start-up, not at the first crawl
        return value

    @field_validator("connect_to")
    @classmethod
    def _connect_to(cls, value: list[str]) -> list[str]:
        from webcorpus.crawl.ssrf import parse_connect_to

        parse_connect_to(value)
        return value

    @field_validator("data_dir", mode="before")
    @classmethod
    def _not_empty(cls, value: object) -> object:
        """``WEBCORPUS_DATA_DIR=`` (empty) would read as the current directory: a database
        written wherever the service happened to start. Say so instead."""
        if isinstance(value, str) and not value.strip():
            raise ValueError("is empty: unset it for the default ./data, or name a directory")
        return value

    @field_validator("data_dir")
    @classmethod
    def _directory(cls, value: Path) -> Path:
        if str(value) in ("", "."):
            return value
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} exists and is not a directory")
        return value

    @model_validator(mode="after")
    def _budgets(self) -> Settings:
        if self.default_budget > self.max_budget:
            raise ValueError(
                f"default_budget ({self.default_budget}) is above max_budget ({self.max_budget})"
            )
        return self

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is None or value.startswith("sqlite:///"):
            return value
        if value.startswith(("postgresql://", "postgres://")):
            raise ValueError(
                "the PostgreSQL backend is not built yet; leave it unset for the embedded SQLite "
                "database in WEBCORPUS_DATA_DIR"
            )
        raise ValueError("must be sqlite:///PATH (or unset: the SQLite file in the data dir)")

    @property
    def sqlite_path(self) -> Path:
        return self.data_dir / "webcorpus.db"

    @property
    def models_path(self) -> Path:
        return self.model_dir or self.data_dir / "models"

    @property
    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.sqlite_path}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
