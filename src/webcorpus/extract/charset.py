"""Bytes → str: the charset from HTTP headers, then <meta charset>, then BOM / detection."""

from __future__ import annotations

import codecs
import re

_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE
)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([a-zA-Z0-9_:.\-]+)", re.IGNORECASE)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# WHATWG: labels that browsers treat as another encoding.
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "x-sjis": "shift_jis",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}


def _codec(label: str | bytes | None) -> str | None:
    if not label:
        return None
    name = label.decode("ascii", "ignore") if isinstance(label, bytes) else label
    name = _ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def header_charset(headers: dict[str, str] | None) -> str | None:
    if not headers:
        return None
    for key, value in headers.items():
        if key.lower() == "content-type":
            m = _HEADER_CHARSET.search(value)
            return _codec(m.group(1)) if m else None
    return None


def decode_html(data: bytes, headers: dict[str, str] | None = None) -> str:
    """Decode HTML bytes. Never raises on bad bytes (undecodable ones become U+FFFD)."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(enc, errors="replace")
    declared = header_charset(headers)
    if declared is None:
        m = _META_CHARSET.search(data[:4096])
        declared = _codec(m.group(1)) if m else None
        # A page served as bytes that *say* utf-16 in a meta tag is ASCII-compatible in practice.
        if declared and declared.startswith("utf-16"):
            declared = "utf-8"
    if declared:
        return data.decode(declared, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data[:65536]).best()
    guessed = _codec(best.encoding) if best is not None else None
    return data.decode(guessed or "cp1252", errors="replace")
