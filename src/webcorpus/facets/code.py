"""has_code: does the main content show code?

Definition (what a user filtering ``has_code=true`` means): the page's main content holds at least
one code *block* (a ``<pre>``, rendered as a fenced block in the markdown) whose content is code,
commands, configuration or a syntax synopsis. Inline identifiers (```chown```, ``DATABASE_URL``)
alone do not make a page "have code", however many there are; a block of plain prose that merely
sits in a ``<pre>`` (a poem, a quoted letter) does not either. Code in the page template
(navigation, footer) is not main content and never counts: only the extracted markdown is read,
so the facet always agrees with what the page read shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^[ \t]{0,12}(`{3,}|~{3,})[ \t]*([^`\s]*)[^\n]*$")
# Characters or shapes that prose hardly ever has but code, commands and config do.
_CODE_MARK = re.compile(
    r"[{}\[\]();=<>$#|\\/*&%@]|^\s*[-+]{1,2}\w|\w\.\w+\(|::|->|=>|^\s*\w+:\s|\w_\w",
    re.M,
)
# A paragraph made only of code spans that starts with a shell/REPL prompt: a <pre> of commands
# that the extractor (trafilatura) flattened into inline code, e.g. "`$` **`diff -u a b`**".
_SPAN = re.compile(r"`+([^`\n]+)`+")
_PROMPT = re.compile(r"^(\$|#|%|>>>|\w+@[\w.-]+:\S*[$#]|PS [^>]*>)\s*")
_PROSE_LANGS = frozenset({"text", "txt", "plain", "plaintext", "none", "output", "console-output"})


@dataclass(frozen=True, slots=True)
class CodeBlock:
    language: str
    body: str

    @property
    def is_code(self) -> bool:
        lines = [ln for ln in self.body.splitlines() if ln.strip()]
        if not lines:
            return False
        if self.language and self.language.lower() not in _PROSE_LANGS:
            return True
        return bool(_CODE_MARK.search(self.body))


def code_blocks(markdown: str) -> list[CodeBlock]:
    """Fenced blocks of the markdown (``` or ~~~, possibly indented inside lists)."""
    blocks: list[CodeBlock] = []
    fence: str | None = None
    lang = ""
    body: list[str] = []
    for line in markdown.splitlines():
        if fence is None:
            m = _OPEN.match(line)
            if m:
                fence, lang, body = m.group(1), m.group(2), []
            continue
        stripped = line.strip()
        if stripped.startswith(fence) and not stripped.strip(fence[0]):
            blocks.append(CodeBlock(lang, "\n".join(body)))
            fence = None
        else:
            body.append(line)
    if fence is not None and body:  # unterminated fence: still a block
        blocks.append(CodeBlock(lang, "\n".join(body)))
    return blocks


def _prompt_lines(markdown: str) -> int:
    n = 0
    for line in markdown.splitlines():
        spans = _SPAN.findall(line)
        if not spans or _SPAN.sub("", line).strip(" *_\t"):
            continue  # not a line made only of code spans
        joined = " ".join(s.strip() for s in spans)
        if _PROMPT.match(joined) and len(_PROMPT.sub("", joined).strip()) >= 2:
            n += 1
    return n


def has_code(markdown: str) -> tuple[bool, str]:
    """(has_code, reason) for the main-content markdown of a page."""
    blocks = code_blocks(markdown)
    code = [b for b in blocks if b.is_code]
    if code:
        langs = sorted({b.language for b in code if b.language})
        tag = f" ({', '.join(langs[:5])})" if langs else ""
        return True, f"{len(code)} code block(s){tag}"
    if prompts := _prompt_lines(markdown):
        return True, f"{prompts} command line(s) shown after a prompt"
    if blocks:
        return False, f"{len(blocks)} preformatted block(s), none of them code"
    return False, "no code blocks (inline identifiers alone do not count)"
