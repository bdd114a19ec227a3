"""Careful HTML → markdown for a selected content node (lxml), and markdown → plain text.

Keeps what documentation needs intact: fenced code with its language, GFM tables with every
row, nested lists, definition lists, links and emphasis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import methodcaller

from lxml import etree

from webcorpus.extract.document import Asset
from webcorpus.extract.tree import Element, text_of
from webcorpus.extract.urls import resolver

_WS = re.compile(r"\s+")
_BR = "\u2028"  # placeholder for <br> that survives whitespace collapsing
SKIP_TAGS = frozenset(
    [
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "canvas",
        "iframe",
        "object",
        "embed",
        "button",
        "input",
        "select",
        "textarea",
        "option",
        "head",
        "link",
        "meta",
        "title",
        "map",
        "area",
        "audio",
        "video",
        "source",
        "track",
        "dialog",
    ]
)
BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "details",
        "dialog",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "html",
    ]
)
CODE_TAGS = frozenset({"code", "kbd", "samp", "tt", "var"})
# Inline tags rendered as their content alone (no markup of their own).
_PLAIN_INLINE = frozenset(
    {"span", "abbr", "sup", "sub", "small", "big", "font", "u", "ins", "mark", "q", "dfn", "label"}
    | {"time", "data", "bdi", "bdo", "wbr", "nobr", "acronym", "output", "meter", "progress"}
)
_LANG_CLASS = re.compile(
    r"(?:^|\s)(?:highlight|language|lang|brush:?|sourceCode)-?\s*([A-Za-z0-9_+#.\-]+)"
)
_NO_LANG = frozenset(
    {
        "default",
        "none",
        "text",
        "plaintext",
        "plain",
        "nohighlight",
        "txt",
        "notranslate",
        "source",
        "sourcecode",
        "code",
        "highlight",
    }
)
_LANG_MAP = {
    "python3": "python",
    "py": "python",
    "py3": "python",
    "ipython3": "ipython",
    "js": "javascript",
    "ts": "typescript",
    "sh": "shell",
    "psql": "sql",
    "postgresql": "sql",
    "c++": "cpp",
    "yml": "yaml",
    "none": "",
}
# Sphinx/DocBook/etc. decorations inside content that are not content.
_DROP_CLASS = re.compile(
    r"(?:^|\s)(?:headerlink|navheader|navfooter|sphinxsidebar|related|breadcrumbs?|"
    r"skip-?link|sr-only|visually-?hidden|screen-reader-text|copybutton|edit-?this-?page|"
    r"share|social|newsletter|cookie\S*)(?:\s|$)",
    re.IGNORECASE,
)


@dataclass(slots=True)
class Rendered:
    markdown: str
    assets: list[Asset] = field(default_factory=list)
    code_blocks: int = 0
    inline_code_chars: int = 0


def code_language(pre: Element) -> str | None:
    """Language of a <pre> from its own/ancestors'/child <code>'s classes or data-lang."""
    nodes: list[Element] = [pre]
    nodes.extend(c for c in pre if isinstance(c.tag, str) and c.tag == "code")
    parent = pre.getparent()
    for _ in range(3):
        if parent is None:
            break
        nodes.append(parent)
        parent = parent.getparent()
    for node in nodes:
        for attr in ("data-lang", "data-language"):
            if node.get(attr):
                return _norm_lang(node.get(attr, ""))
        for m in _LANG_CLASS.finditer(node.get("class") or ""):
            lang = _norm_lang(m.group(1))
            if lang:
                return lang
    return None


def _norm_lang(lang: str) -> str | None:
    lang = lang.strip().lower()
    lang = _LANG_MAP.get(lang, lang)
    if not lang or lang in _NO_LANG or len(lang) > 20:
        return None
    return lang


@lru_cache(maxsize=16384)
def _dropped_class(cls: str) -> bool:
    """Whether a class value names a decoration to drop (cached: values repeat on every page)."""
    return _DROP_CLASS.search(cls) is not None


def is_dropped(el: Element) -> bool:
    tag = el.tag
    if tag in SKIP_TAGS or tag == "nav":
        return True
    # One call for all attributes: most elements have none or only a class.
    items = el.items()
    if not items:
        return False
    if len(items) == 1 and items[0][0] == "class":  # the usual case
        cls = items[0][1]
        if not cls:
            return False
        return _dropped_class(cls)
    cls = None
    for name, value in items:
        if name == "class":
            cls = value
        elif name == "hidden":
            return True
        elif name == "role":
            if value == "navigation":
                return True
        elif name == "style" and value and "display:none" in value.replace(" ", "").lower():
            return True
    if not cls:
        return False
    return _dropped_class(cls)


# Block tags that ``_Renderer.block`` renders specially; every other block tag is a container.
_SPECIAL_BLOCKS = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "pre", "ul", "ol", "menu", "table", "blockquote", "hr"}
    | {"dt"}
)


class _Renderer:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.absolute = resolver(base_url).absolute
        self.assets: list[Asset] = []
        self.seen_assets: set[str] = set()
        self.code_blocks = 0
        self.inline_code_chars = 0

    # ---- blocks -------------------------------------------------------------------------
    def blocks(self, el: Element) -> list[str]:
        out: list[str] = []
        buf: list[str] = []
        text = el.text
        if text:
            buf.append(text)
        for child in el:
            tag = child.tag
            if isinstance(tag, str):
                tag = tag.lower()
                if is_dropped(child):
                    pass
                elif tag in BLOCK_TAGS:
                    if buf:  # flush the inline run before the block
                        s = " ".join("".join(buf).split())
                        if s:
                            out.append(s)
                        buf.clear()
                    if tag in _SPECIAL_BLOCKS:
                        out.extend(self.block(child, tag))
                    else:
                        out.extend(self.blocks(child))
                else:
                    buf.append(self._inline(child, tag))
            tail = child.tail
            if tail:
                buf.append(tail)
        if buf:
            s = " ".join("".join(buf).split())
            if s:
                out.append(s)
        return out

    def block(self, el: Element, tag: str) -> list[str]:
        if tag not in _SPECIAL_BLOCKS:
            return self.blocks(el)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = _clean_inline(self.inline_children(el)).replace("\n", " ")
            return [f"{'#' * int(tag[1])} {text}"] if text else []
        if tag == "pre":
            return [self.pre(el)]
        if tag in ("ul", "ol", "menu"):
            return [s] if (s := self.list_(el, ordered=tag == "ol")) else []
        if tag == "table":
            return self.table(el)
        if tag == "blockquote":
            inner = "\n\n".join(self.blocks(el))
            return (
                ["\n".join("> " + ln if ln else ">" for ln in inner.split("\n"))] if inner else []
            )
        if tag == "hr":
            return ["---"]
        # dt
        text = _clean_inline(self.inline_children(el))
        if not text:
            return []
        if "sig" in (el.get("class") or "").split():
            return ["`" + _WS.sub(" ", text_of(el)).strip().rstrip("¶").strip() + "`"]
        return [f"**{text}**"]

    def pre(self, el: Element) -> str:
        self.code_blocks += 1
        code = text_of(el).replace("\r\n", "\n").strip("\n")
        code = "\n".join(line.rstrip() for line in code.split("\n"))
        lang = code_language(el) or ""
        fence = "```"
        while fence in code:
            fence += "`"
        return f"{fence}{lang}\n{code}\n{fence}"

    def list_(self, el: Element, *, ordered: bool) -> str:
        items: list[str] = []
        n = _int(el.get("start"), 1)
        for li in el:
            if not isinstance(li.tag, str) or is_dropped(li):
                continue
            if li.tag != "li":  # stray content directly inside a list
                parts = self.blocks(li) if li.tag in BLOCK_TAGS else [self._inline(li, li.tag)]
            else:
                parts = self.blocks(li)
            parts = [p for p in parts if p.strip()]
            if not parts:
                continue
            marker = f"{n}. " if ordered else "- "
            n += 1
            pad = " " * len(marker)
            body = parts[0]
            for part in parts[1:]:
                sep = "\n" if _is_list(part) else "\n\n"
                body += sep + part
            items.append(marker + _indent(body, pad))
        return "\n".join(items)

    def table(self, el: Element) -> list[str]:
        rows: list[Element] = []
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "tr":
                rows.append(child)
            elif child.tag in ("thead", "tbody", "tfoot"):
                rows.extend(r for r in child if isinstance(r.tag, str) and r.tag == "tr")
        grid: list[list[str]] = []
        layout = False
        for tr in rows:
            cells: list[str] = []
            for cell in tr:
                if not isinstance(cell.tag, str) or cell.tag not in ("td", "th"):
                    continue
                if cell.find(".//table") is not None:
                    layout = True
                text = " <br> ".join(
                    b.replace("\n", " ") for b in self.blocks(cell) if b.strip()
                ).replace("|", "\\|")
                cells.append(text)
                cells.extend([""] * (min(_int(cell.get("colspan"), 1), 50) - 1))
            if any(c.strip() for c in cells):
                grid.append(cells)
        width = max((len(r) for r in grid), default=0)
        if not grid:
            return []
        if layout or width == 1:
            return self.blocks(el)
        lines = []
        for i, row in enumerate(grid):
            row = row + [""] * (width - len(row))
            lines.append("| " + " | ".join(row) + " |")
            if i == 0:
                lines.append("|" + "---|" * width)
        if len(grid) == 1:  # header-only table: still valid GFM
            pass
        return ["\n".join(lines)]

    # ---- inline -------------------------------------------------------------------------
    def inline_children(self, el: Element) -> str:
        parts: list[str] = [el.text or ""]
        for child in el:
            tag = child.tag
            if isinstance(tag, str) and not is_dropped(child):
                parts.append(self._inline(child, tag.lower()))
            tail = child.tail
            if tail:
                parts.append(tail)
        return "".join(parts)

    def inline(self, el: Element, tag: str) -> str:
        return "" if is_dropped(el) else self._inline(el, tag)

    def _inline(self, el: Element, tag: str) -> str:
        """``inline`` for an element known not to be dropped."""
        if tag in _PLAIN_INLINE:
            if not len(el):  # no children: its text, as inline_children would give
                return el.text or ""
            return self.inline_children(el)
        if tag == "br":
            return _BR
        if tag == "img":
            return self.img(el)
        if tag in CODE_TAGS:
            text = " ".join(text_of(el).split())  # == _WS.sub(" ", ...).strip()
            if not text:
                return ""
            self.inline_code_chars += len(text)
            tick = "``" if "`" in text else "`"
            return f"{tick}{text}{tick}"
        inner = self.inline_children(el)
        if tag == "a":
            href = (el.get("href") or "").strip()
            text = " ".join(inner.split())  # (no newline left to replace)
            if not text or not href or href.lower().startswith(("javascript:", "data:")):
                return inner
            url = self.absolute(href)
            return f"[{text}]({url})" if url else text
        if tag in ("strong", "b"):
            return _wrap(inner, "**")
        if tag in ("em", "i", "cite"):
            return _wrap(inner, "*")
        if tag in ("del", "s", "strike"):
            return _wrap(inner, "~~")
        if tag in BLOCK_TAGS:  # block inside inline (e.g. <a><div>…</div></a>)
            return " " + inner + " "
        return inner

    def img(self, el: Element) -> str:
        src = el.get("src") or el.get("data-src") or ""
        if not src or src.startswith("data:"):
            return ""
        if el.get("width") in ("0", "1") or el.get("height") in ("0", "1"):
            return ""
        url = self.absolute(src.strip())
        if not url:
            return ""
        alt = _WS.sub(" ", el.get("alt") or "").strip()
        if url not in self.seen_assets:
            self.seen_assets.add(url)
            self.assets.append(Asset(url=url, kind="image", alt=alt))
        return f"![{alt}]({url})"


def _indent(body: str, pad: str) -> str:
    """``body`` with ``pad`` before every line but the first, empty lines left empty."""
    if "\n\n" not in body and not body.endswith("\n"):  # no empty line: one C-level replace
        return body.replace("\n", "\n" + pad)
    lines = body.split("\n")
    return lines[0] + "".join("\n" + (pad + ln if ln else "") for ln in lines[1:])


def _is_list(s: str) -> bool:
    return bool(re.match(r"(?:- |\d+\. )", s))


def _int(v: str | None, default: int) -> int:
    try:
        return max(1, int(v)) if v is not None else default
    except ValueError:
        return default


def _wrap(inner: str, mark: str) -> str:
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return f"{lead}{mark}{_WS.sub(' ', core)}{mark}{trail}"


def _clean_inline(s: str) -> str:
    # str.split() treats _BR (U+2028) as whitespace, like the \s+ collapse it replaces.
    return " ".join(s.split())


def render(node: Element, base_url: str) -> Rendered:
    """Render an element's content as markdown."""
    r = _Renderer(base_url)
    try:
        blocks = r.blocks(node)
    except RecursionError:  # absurdly deep nesting: fall back to its text
        blocks = [_WS.sub(" ", etree.tostring(node, method="text", encoding="unicode")).strip()]
    md = "\n\n".join(b for b in blocks if b.strip())
    return Rendered(md, r.assets, r.code_blocks, r.inline_code_chars)


# ---- markdown → plain text --------------------------------------------------------------
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_EMPH = re.compile(r"(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1")
# The "*" before the look-behind (which checks the character before it) and the first backtick
# outside the group give the regex engine a literal to scan for: several times faster than the
# equivalent (?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*]) and (`+)(.+?)\1.
_EM1 = re.compile(r"\*(?<![\w*]\*)(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_TICKS = re.compile(r"`(`*)(.+?)`\1")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
_TABLE_SEP = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_QUOTE = re.compile(r"^\s*>\s?")
_ESC = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")


# The inline rewrites of markdown_to_text never match across a line break (``.`` and the classes
# exclude "\n"), so they run once over all prose lines joined by "\n" instead of once per line:
# same result, a fraction of the calls. In _LINK the loop is possessive: a link target cannot
# end inside what the loop took, so backtracking into it never finds a match.
_IMG = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^()\s]++|\([^)\n]*\))*+\)")
_NL3 = re.compile(r"\n\n\n+")
_GROUP1 = methodcaller("group", 1)
_GROUP2 = methodcaller("group", 2)


def markdown_to_text(md: str) -> str:
    out: list[str] = []
    prose: list[str] = []  # lines that get the inline rewrites, in order
    prose_at: list[int] = []  # their index in ``out``
    fence: str | None = None
    for line in md.split("\n"):
        stripped = line.strip()
        first = stripped[:1]
        m = _FENCE.match(stripped) if first in ("`", "~") and first else None
        if fence is not None:
            if m and stripped.startswith(fence) and stripped.strip("`~") == "":
                fence = None
            else:
                out.append(line)
            continue
        if m:
            fence = m.group(1)
            continue
        if "-" in stripped and _TABLE_SEP.match(stripped):
            continue
        if first == ">":
            line = _QUOTE.sub("", line)
        lead = line.lstrip()[:1]
        if lead == "#":
            line = _HEADING.sub("", line)
            lead = line.lstrip()[:1]
        if lead and (lead in "-*+" or lead.isdigit()):
            line = _BULLET.sub(_GROUP1, line)
        if stripped.startswith("|") and stripped.endswith("|"):
            line = " ".join(c.strip() for c in stripped.strip("|").split(" | "))
            line = line.replace("<br>", " ")
        if stripped in ("---", "***", "___"):
            continue
        prose_at.append(len(out))
        out.append("")
        prose.append(line)
    if prose:
        joined = "\n".join(prose)
        if "](" in joined:
            joined = _IMG.sub("", joined)
            joined = _LINK.sub(_GROUP1, joined)
        if "`" in joined:
            joined = _TICKS.sub(_GROUP2, joined)
        if "**" in joined or "__" in joined or "~~" in joined:
            joined = _EMPH.sub(_GROUP2, joined)
        if "*" in joined:
            joined = _EM1.sub(_GROUP1, joined)
        if "\\" in joined:
            joined = _ESC.sub(_GROUP1, joined)
        for i, line in zip(prose_at, joined.split("\n"), strict=True):
            out[i] = line.rstrip()
    return _NL3.sub("\n\n", "\n".join(out)).strip()
