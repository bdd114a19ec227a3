"""The facet vocabularies with the number of pages per value (``GET /api/facets``)."""

from __future__ import annotations

from typing import Any

from webcorpus.facets.vocabulary import AUDIENCES, FORMATS, TOPICS, TYPES
from webcorpus.store import Store

_SCORES = {
    "technicality": ("technicality_min", "0 lay reader .. 1 specialist"),
    "depth": ("depth_min", "0 thin .. 1 substantive and specific"),
    "originality": ("originality_min", "0 duplicated / boilerplate / syndicated .. 1 unique"),
    "promotional": ("promotional_max", "0 neutral .. 1 pure sales copy"),
}


def _vocabulary(name: str, vocabulary: dict[str, str], counts: dict[str, int]) -> dict[str, Any]:
    return {
        "facet": name,
        "param": name,
        "kind": "vocabulary",
        "values": [
            {"value": value, "definition": definition, "pages": counts.get(value, 0)}
            for value, definition in vocabulary.items()
        ],
    }


def list_facets(
    store: Store, *, domains: list[str], collection: str | None
) -> tuple[list[dict[str, Any]], int]:
    """Every facet with its values and page counts; also the number of pages in scope.

    Closed vocabularies list every value (0 pages included) with its one-line definition, so a
    client can build any valid filter; locale lists the tags present, most pages first.
    """
    counts = store.facet_counts(domains, collection)
    data = [
        _vocabulary("type", TYPES, counts["type"]),
        _vocabulary("format", FORMATS, counts["format"]),
        _vocabulary("audience", AUDIENCES, counts["audience"]),
        _vocabulary("topics", TOPICS, counts["topics"]),
        {
            "facet": "locale",
            "param": "locale",
            "kind": "tags",
            "definition": "BCP 47 language tag, region when the page states one; the filter "
            "de matches de, de-DE, de-AT",
            "values": [{"value": v, "pages": n} for v, n in counts["locale"].items()],
        },
        {
            "facet": "has_code",
            "param": "has_code",
            "kind": "boolean",
            "definition": "the main content shows at least one code block of code or commands "
            "(inline identifiers alone do not count)",
            "values": [
                {"value": True, "pages": counts["has_code"]["true"]},
                {"value": False, "pages": counts["has_code"]["false"]},
            ],
        },
        *(
            {
                "facet": name,
                "param": param,
                "kind": "score",
                "definition": definition,
                "range": [0.0, 1.0],
            }
            for name, (param, definition) in _SCORES.items()
        ),
        {
            "facet": "words",
            "param": "words_min",
            "kind": "integer",
            "definition": "words of main content",
        },
        {
            "facet": "published",
            "param": "published_after",
            "kind": "date",
            "definition": "publication date stated by the page (or its sitemap), else null",
        },
    ]
    return data, int(counts["pages"])
