"""Schemathesis against /api/openapi.json of a live server holding a small crawled corpus.

Every operation of the OpenAPI document (all but /api/mcp, which the document does not describe)
gets a handful of generated requests, valid ones (positive) and invalid ones (negative), sent
over real HTTP with a write key. The run is bounded: ``MAX_EXAMPLES`` per operation and mode and
``TIME_BUDGET_S`` for the whole module. Findings are grouped by check:

- ``not_a_server_error`` and ``response_schema_conformance``: the API never answers 5xx and never
  answers with a body that breaks the schema it declares (hard failures);
- ``status_code_conformance``, ``content_type_conformance``: every status code and media type the
  API answers with is declared in the document (problem+json 4xx included).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer

pytestmark = pytest.mark.slow

MAX_EXAMPLES = {GenerationMode.POSITIVE: 12, GenerationMode.NEGATIVE: 8}
TIME_BUDGET_S = 120.0
HARD = {"not_a_server_error": not_a_server_error}
HARD["response_schema_conformance"] = response_schema_conformance
DECLARED = {
    "status_code_conformance": status_code_conformance,
    "content_type_conformance": content_type_conformance,
}

Findings = dict[str, dict[str, set[str]]]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    lines = [line.strip() for line in text if line.strip() and not line.startswith("Reproduce")]
    return " | ".join(lines[:3])[:300]


def fuzz(srv: Running) -> tuple[Findings, dict[str, int]]:
    schema = schemathesis.openapi.from_url(f"{srv.base_url}/api/openapi.json")
    findings: Findings = defaultdict(lambda: defaultdict(set))
    counts: dict[str, int] = defaultdict(int)
    deadline = time.monotonic() + TIME_BUDGET_S

    def runner(op: Any, label: str, mode: GenerationMode, examples: int) -> Any:
        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=op.as_strategy(generation_mode=mode))
        def run(case: schemathesis.Case) -> None:
            if time.monotonic() > deadline:
                return
            response = case.call(base_url=srv.base_url, headers=srv.auth, timeout=30)
            counts[label] += 1
            for name, check in {**HARD, **DECLARED}.items():
                try:
                    case.validate_response(response, checks=[check], headers=srv.auth)
                except (Exception, BaseExceptionGroup) as exc:  # a check failed: record it
                    findings[name][label].add(f"{response.status_code}: {_first_line(exc)}")

        return run

    operations = [r.ok() for r in schema.get_all_operations()]  # type: ignore[union-attr]
    assert operations, "the OpenAPI document lists no operation"
    for op in operations:
        if op.path.startswith("/api/mcp"):
            continue
        label = f"{op.method.upper()} {op.path}"
        for mode, examples in MAX_EXAMPLES.items():
            try:
                runner(op, label, mode, examples)()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, label  # nothing to make invalid
    return findings, counts


@pytest.fixture(scope="module")
def fuzzed(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Findings, dict[str, int]]]:
    settings_ = make_settings(
        tmp_path_factory.mktemp("schemathesis"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
        crawl_rate_per_minute=1000,
    )
    with run_server(settings_) as srv:
        view = srv.wait(srv.crawl("www.postgresql.org", budget=20), timeout=300)
        assert view["progress"]["indexed"] > 0
        r = srv.client.put("/api/collections/pg", json={"name": "PG"}, headers=srv.auth)
        assert r.status_code in (200, 201)
        start = time.monotonic()
        findings, counts = fuzz(srv)
        print(
            f"\nschemathesis {schemathesis.__version__}: {sum(counts.values())} requests over "
            f"{len(counts)} operations in {time.monotonic() - start:.0f}s"
        )
        yield findings, counts


def _report(findings: Findings, names: Any) -> str:
    lines = []
    for name in names:
        for label, messages in sorted(findings.get(name, {}).items()):
            for message in sorted(messages)[:3]:
                lines.append(f"{name}: {label}: {message}")
    return "\n".join(lines)


def test_every_operation_was_exercised(fuzzed: tuple[Findings, dict[str, int]]) -> None:
    _, counts = fuzzed
    assert len(counts) >= 16, sorted(counts)
    assert all(n > 0 for n in counts.values())


def test_no_server_error_and_no_response_breaking_its_schema(
    fuzzed: tuple[Findings, dict[str, int]],
) -> None:
    findings, _ = fuzzed
    report = _report(findings, HARD)
    assert not report, "\n" + report


def test_every_status_and_media_type_is_declared(fuzzed: tuple[Findings, dict[str, int]]) -> None:
    findings, _ = fuzzed
    report = _report(findings, DECLARED)
    assert not report, "\n" + report
