"""Page locale: the declared language tag, checked against the language detected in the text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

# Detection labels and declared tags that name the same language for our purposes.
_SAME = [
    {"no", "nb", "nn", "da"},
    {"hr", "sr", "bs", "sh"},
    {"id", "ms"},
    {"zh", "wuu", "yue"},
    {"ar", "ary", "arz"},
    {"fa", "prs"},
    {"tl", "fil"},
]
_ALIAS = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv"}
_TAG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?$")
_URL_LOCALE = re.compile(r"^([a-z]{2})(?:[-_]([a-z]{2}))?$", re.I)
MIN_CHARS = 200
MIN_PROB = 0.9
SAMPLE = 2000
_WINDOWS = 8  # stretches of _WINDOW chars checked when detection contradicts a declaration
_WINDOW = 300


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def normalize_tag(tag: str | None) -> str | None:
    """``en_us`` → ``en-US``, ``zh-hant-tw`` → ``zh-Hant-TW``; None when not a language tag."""
    if not tag:
        return None
    m = _TAG.match(tag.strip())
    if not m:
        return None
    lang = _ALIAS.get(m[1].lower(), m[1].lower())
    parts = [lang]
    if m[2]:
        parts.append(m[2].title())
    if m[3]:
        parts.append(m[3].upper())
    return "-".join(parts)


def same_language(a: str, b: str) -> bool:
    a, b = a.split("-")[0].lower(), b.split("-")[0].lower()
    return a == b or any(a in g and b in g for g in _SAME)


def detect(text: str) -> tuple[str | None, float]:
    """(language, probability) of ``text``; (None, 0) when there is too little to tell."""
    return _detect(text, sum(map(str.isalpha, text[:SAMPLE])))


def _detect(text: str, letters: int) -> tuple[str | None, float]:
    """``detect`` with the letters among the first ``SAMPLE`` characters already counted."""
    if letters < 20:
        return None, 0.0
    # Sample the middle too: openings are often menus or boilerplate in another language.
    sample = (
        text[:SAMPLE]
        if len(text) <= 2 * SAMPLE
        else text[: SAMPLE // 2] + " " + (text[len(text) // 2 : len(text) // 2 + SAMPLE // 2])
    )
    lang, prob = _identifier().classify(sample)
    return str(lang), float(prob)


def _partly_in(text: str, tag: str) -> bool:
    """Whether two or more stretches of ``text`` are in ``tag``'s language: translated pages
    often keep untranslated paragraphs or boxes, and the sample can then read as the source
    language, while an untranslated page (translated title only) has at most one such stretch.
    Only asked when detection contradicts a declaration."""
    n = len(text)
    if n <= SAMPLE:
        return False  # the whole text was the sample
    hits = 0
    for i in range(_WINDOWS):
        window = text[i * n // _WINDOWS : i * n // _WINDOWS + _WINDOW]
        if sum(map(str.isalpha, window)) < _WINDOW // 3:
            continue
        lang, prob = _identifier().classify(window)
        if prob >= 0.7 and same_language(tag, str(lang)):
            hits += 1
            if hits >= 2:
                return True
    return False


def _url_locale(url: str) -> str | None:
    parts = urlsplit(url)
    for seg in parts.path.split("/")[1:3]:
        m = _URL_LOCALE.match(seg)
        if m and (m[2] or len(seg) == 2):
            return normalize_tag(seg)
    return None


def page_locale(
    declared: str | None,
    text: str,
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    hreflang: list[tuple[str, str]] | None = None,
    explain: list[str] | None = None,
) -> str:
    """BCP 47 tag for the page. Declarations win unless detection plainly contradicts them."""
    why = explain if explain is not None else []
    candidates: list[tuple[str, str]] = []
    if tag := normalize_tag(declared):
        candidates.append(("html lang", tag))
    if headers:
        for k, v in headers.items():
            if k.lower() == "content-language" and (tag := normalize_tag(v.split(",")[0])):
                candidates.append(("Content-Language", tag))
    for value, href in hreflang or []:
        if href.rstrip("/") == url.rstrip("/") and (tag := normalize_tag(value)):
            candidates.append(("hreflang self", tag))
    if tag := _url_locale(url):
        candidates.append(("url path", tag))

    letters = sum(map(str.isalpha, text[:SAMPLE]))
    detected, prob = _detect(text, letters)
    enough = letters >= MIN_CHARS
    if detected:
        why.append(f"detected {detected} p={prob:.2f}")
    agreeing: list[str] = []
    partly: dict[str, bool] = {}
    for source, tag in candidates:
        if detected is None or same_language(tag, detected) or not (enough and prob >= MIN_PROB):
            why.append(f"declared {tag} ({source})")
            agreeing.append(tag)
        elif partly.setdefault(tag, _partly_in(text, tag)):
            why.append(f"declared {tag} ({source}): part of the text is {tag.split('-')[0]}")
            agreeing.append(tag)
        else:
            why.append(f"ignored {tag} ({source}): text is {detected}")
    if agreeing:
        first = agreeing[0]
        if "-" not in first:
            # Same language stated with a region elsewhere (hreflang, /en-us/ path): keep it.
            for tag in agreeing[1:]:
                if tag.split("-")[0] == first and "-" in tag:
                    return tag
        return first
    if detected is None:
        why.append("no declaration, too little text: und")
        return "und"
    return {"no": "nb"}.get(detected, detected)
