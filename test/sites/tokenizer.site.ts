/**
 * The tokenizer's ASCII path against the Unicode rules on every page of the three doc sites
 * (English, PostgreSQL, the handbook's 26 languages): `tokens` must give exactly what
 * `unicodeTokens` gives, for each page's HTML whole and for each of its lines.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { tokens, unicodeTokens } from "../../src/search/tokenizer.ts";
import { resolvePath } from "./support/doc-server.ts";
import { docSites } from "./support/doc-sites.ts";

setDefaultTimeout(600_000);

const same = (a: string[], b: string[]) => a.join("\u0001") === b.join("\u0001");

test("tokens equals unicodeTokens on every doc-site page, whole and line by line", () => {
  const decoder = new TextDecoder();
  for (const site of docSites().all) {
    let pages = 0;
    for (const path of site.allowedPages) {
      const found = resolvePath(site, path);
      if (found.kind !== "file") continue;
      const { body } = found.rep;
      const text = decoder.decode(typeof body === "function" ? body() : body);
      if (!same(tokens(text), unicodeTokens(text))) expect({ path }).toEqual({ path: "(none)" });
      for (const line of text.split("\n"))
        if (!same(tokens(line), unicodeTokens(line)))
          expect({ path, line }).toEqual({ path, line: "" });
      pages++;
    }
    expect(pages).toBeGreaterThan(400);
  }
});
