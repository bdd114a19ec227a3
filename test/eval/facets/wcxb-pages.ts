/**
 * WCXB's development split (CC-BY-4.0; https://github.com/Murrough-Foley/web-content-extraction-benchmark):
 * 1,497 pages of 1,295 sites, each labeled with one of seven page kinds. Only the development
 * split is read here; the test split is WCXB's holdout and is never opened.
 *
 * Pages are extracted by src/extract as the crawler extracts them (extractDocument with the
 * page URL). Extraction takes minutes on this machine, so the documents can be cached in a JSON
 * file keyed by a hash of src/extract (as training/pool.ts does); scoring is always recomputed.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { getDomain } from "tldts";
import type { ExtractedDocument } from "../../../src/extract/document.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { PAGE_KINDS, type PageKind } from "../../../src/facets/page-kind-model.ts";
import { extractorHash, readDocCache, writeDocCache } from "./doc-cache.ts";

export interface WcxbPage {
  readonly id: string;
  readonly url: string;
  readonly kind: PageKind;
  /** The registrable part of the host (www. dropped): pages of one site share a fold. */
  readonly site: string;
  readonly doc: ExtractedDocument;
}

/** The registrable domain (tldts): pages of one site share a cross-validation fold. */
export function siteOf(url: string): string {
  return getDomain(url) ?? url;
}

/** What the facets and the page-kind features read of a document: markdown and text cut as
 * they cut them (links and their positions kept). */
function trimmed(doc: ExtractedDocument): ExtractedDocument {
  return {
    ...doc,
    markdown: doc.markdown.slice(0, 20000),
    text: doc.text.slice(0, 8000),
    assets: [],
    links: doc.links.slice(0, 2000),
  };
}

/** Every page of `dir` (WCXB's `dev` directory: html/NNNN.html.gz, ground-truth/NNNN.json). */
export function loadWcxb(dir: string, cacheFile?: string): WcxbPage[] {
  const key = `${extractorHash()}:${dir}`;
  const cached = readDocCache(cacheFile, key);
  const kinds = new Set<string>(PAGE_KINDS);
  const pages: WcxbPage[] = [];
  const files = readdirSync(join(dir, "ground-truth"))
    .filter((f) => f.endsWith(".json"))
    .sort();
  let extracted = 0;
  for (const f of files) {
    const id = f.replace(/\.json$/, "");
    const gt = JSON.parse(readFileSync(join(dir, "ground-truth", f), "utf8")) as {
      url?: string | null;
      _internal?: { page_type?: { primary?: string } };
    };
    const kind = gt._internal?.page_type?.primary ?? "";
    if (!kinds.has(kind)) continue;
    let doc = cached.get(id);
    if (!doc) {
      const html = gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`)));
      doc = trimmed(extractDocument(html, gt.url || `https://unknown-${id}.invalid/`));
      extracted++;
      if (extracted % 100 === 0) console.error(`extracted ${extracted}`);
    }
    // A few pages have no URL: they are scored at a placeholder URL, each its own site.
    const url = gt.url?.includes("://") ? gt.url : `https://unknown-${id}.invalid/`;
    pages.push({ id, url, kind: kind as PageKind, site: siteOf(url), doc });
  }
  if (cacheFile && extracted > 0)
    writeDocCache(
      cacheFile,
      key,
      pages.map((p) => [p.id, p.doc] as const),
    );
  return pages;
}

/** Fold of a site in grouped K-fold (a hash of the site: a site's pages share one fold). */
export function foldOf(site: string, k: number): number {
  return Number(
    BigInt(`0x${createHash("sha1").update(site).digest("hex").slice(0, 12)}`) % BigInt(k),
  );
}
