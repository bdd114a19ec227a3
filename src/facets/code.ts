/**
 * has_code: does the main content show code?
 *
 * What a user filtering `has_code=true` means: the page's main content holds at least one code
 * block (a `<pre>`, a fenced block in the markdown) whose content is code, commands,
 * configuration or a syntax synopsis. Inline identifiers (`chown`, `DATABASE_URL`) alone do
 * not count, however many; plain prose that sits in a `<pre>` (a poem, a quoted letter) does
 * not either. Only the extracted markdown is read, so code in the page template never counts
 * and the facet agrees with what the page read shows.
 */
import { splitLines, uRegex } from "./unicode-regex.ts";

export interface CodeBlock {
  readonly language: string;
  readonly body: string;
}

const OPEN = /^[ \t]{0,12}(`{3,}|~{3,})[ \t]*([^`\s]*)[^\n]*$/u;
/** Characters or shapes prose hardly ever has but code, commands and configuration do. */
const CODE_MARK = uRegex(
  String.raw`[{}\[\]();=<>$#|\\/*&%@]|^\s*[-+]{1,2}\w|\w\.\w+\(|::|->|=>|^\s*\w+:\s|\w_\w`,
  "m",
);
/** A line made only of code spans that starts with a shell or REPL prompt: a `<pre>` of
 * commands that an extractor flattened into inline code, e.g. "`$` **`diff -u a b`**". */
const SPAN = /`+([^`\n]+)`+/gu;
const PROMPT = uRegex(String.raw`^(\$|#|%|>>>|\w+@[\w.-]+:\S*[$#]|PS [^>]*>)\s*`);
const PROSE_LANGS = new Set([
  "text",
  "txt",
  "plain",
  "plaintext",
  "none",
  "output",
  "console-output",
]);

export function isCode(block: CodeBlock): boolean {
  if (!splitLines(block.body).some((l) => l.trim())) return false;
  if (block.language && !PROSE_LANGS.has(block.language.toLowerCase())) return true;
  return CODE_MARK.test(block.body);
}

/** Fenced blocks of the markdown (``` or ~~~, possibly indented inside lists). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let fence: string | null = null;
  let language = "";
  let body: string[] = [];
  for (const line of splitLines(markdown)) {
    if (fence === null) {
      const m = OPEN.exec(line);
      if (m) {
        fence = m[1] ?? "```";
        language = m[2] ?? "";
        body = [];
      }
      continue;
    }
    const stripped = line.trim();
    if (stripped.startsWith(fence) && [...stripped].every((c) => c === fence?.[0])) {
      blocks.push({ language, body: body.join("\n") });
      fence = null;
    } else {
      body.push(line);
    }
  }
  if (fence !== null && body.length) blocks.push({ language, body: body.join("\n") });
  return blocks;
}

function promptLines(markdown: string): number {
  let n = 0;
  for (const line of splitLines(markdown)) {
    const spans = [...line.matchAll(SPAN)].map((m) => (m[1] ?? "").trim());
    if (!spans.length || line.replace(SPAN, "").replace(/^[ *_\t]+|[ *_\t]+$/g, "")) continue;
    const joined = spans.join(" ");
    if (PROMPT.test(joined) && joined.replace(PROMPT, "").trim().length >= 2) n++;
  }
  return n;
}

/** Whether the main-content markdown shows code, and why. */
export function hasCode(markdown: string): { hasCode: boolean; reason: string } {
  const blocks = codeBlocks(markdown);
  const code = blocks.filter(isCode);
  if (code.length) {
    const langs = [...new Set(code.map((b) => b.language).filter(Boolean))].sort();
    const tag = langs.length ? ` (${langs.slice(0, 5).join(", ")})` : "";
    return { hasCode: true, reason: `${code.length} code block(s)${tag}` };
  }
  const prompts = promptLines(markdown);
  if (prompts) return { hasCode: true, reason: `${prompts} command line(s) shown after a prompt` };
  if (blocks.length) {
    return { hasCode: false, reason: `${blocks.length} preformatted block(s), none of them code` };
  }
  return { hasCode: false, reason: "no code blocks (inline identifiers alone do not count)" };
}
