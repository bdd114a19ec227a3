"""Page facets: type, format, audience, locale, topics and scores. Pure functions, no I/O."""

from webcorpus.facets.code import has_code
from webcorpus.facets.score import (
    Facets,
    boilerplate_share,
    max_similarity,
    originality_from,
    score_page,
)
from webcorpus.facets.similarity import SimhashIndex, simhash64, similarity
from webcorpus.facets.templates import template_link_keys
from webcorpus.facets.vocabulary import AUDIENCES, FORMATS, TOPICS, TYPES

__all__ = [
    "AUDIENCES",
    "FORMATS",
    "TOPICS",
    "TYPES",
    "Facets",
    "SimhashIndex",
    "boilerplate_share",
    "has_code",
    "max_similarity",
    "originality_from",
    "score_page",
    "simhash64",
    "similarity",
    "template_link_keys",
]
