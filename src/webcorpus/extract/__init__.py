"""HTML bytes + URL in, an extracted document out. Pure functions, no I/O."""

from webcorpus.extract.core import count_words, extract
from webcorpus.extract.document import Asset, ExtractedDocument, Link

__all__ = ["Asset", "ExtractedDocument", "Link", "count_words", "extract"]
