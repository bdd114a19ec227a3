import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtractedDocument } from "../../../../src/extract/document.ts";
import { extractDocument } from "../../../../src/extract/extract-document.ts";
import { audienceRates, classifyAudience } from "../../../../src/facets/audience-rules.ts";
import { classifyFormat } from "../../../../src/facets/format-rules.ts";
import { type PageFeatures, pageFeatures } from "../../../../src/facets/model-features.ts";
import { computeSignals, MAX_TEXT } from "../../../../src/facets/signals.ts";
import { decideType, typeScores } from "../../../../src/facets/type-rules.ts";
import { extractorHash, readDocCache, writeDocCache } from "../doc-cache.ts";
import { BENCH_DIR, DOCS_ROOT, type LabelRow, loadHtml } from "../labeled-pages.ts";

export type HandLabels = Readonly<Record<"type" | "format" | "audience", string>>;

export interface RuleView {
  readonly scores: Readonly<Record<string, number>>;
  readonly type: string;
  readonly format: readonly [string, boolean];
  readonly audience: readonly [string, boolean];
  readonly devRate: number;
  readonly techRate: number;
  readonly words: number;
}

export interface PoolPage {
  readonly id: string;
  readonly source: string;
  readonly ref: string;
  readonly url: string;
  /** Pages of one site share features that say little (a template): vocab needs two sites. */
  readonly site: string;
  /** Cross-validation group (a handbook section in every language is one group). */
  readonly group: string;
  readonly feats: PageFeatures;
  readonly rule: RuleView;
  hand?: HandLabels;
}

/** Doc packages: where their HTML is under the docs root, and the site's URL for it. */
const DOC_SITES: readonly (readonly [string, string, string])[] = [
  ["python3.11-doc", "usr/share/doc/python3.11/html/", "https://docs.python.org/3.11/"],
  [
    "postgresql-doc-15",
    "usr/share/doc/postgresql-doc-15/html/",
    "https://www.postgresql.org/docs/15/",
  ],
  [
    "debian-handbook",
    "usr/share/doc/debian-handbook/html/",
    "https://debian-handbook.info/browse/",
  ],
];

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...htmlFiles(p));
    else if (e.isFile() && e.name.endsWith(".html")) out.push(p);
  }
  return out;
}

function docUrl(source: string, base: string, rest: string): string {
  if (source !== "debian-handbook") return base + rest;
  const [lang, ...name] = rest.split("/");
  return `${base}${lang}/stable/${name.join("/")}`;
}

function siteOf(source: string, ref: string, url: string): string {
  if (source === "debian-handbook") return `handbook:${ref.split("/")[5]}`;
  if (DOC_SITES.some(([s]) => s === source)) return source;
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** What the facets read of a document (the rules read at most 20,000 characters of markdown). */
function trimmed(doc: ExtractedDocument): ExtractedDocument {
  return {
    ...doc,
    markdown: doc.markdown.slice(0, 20000),
    text: doc.text.slice(0, MAX_TEXT),
    links: [],
    assets: [],
  };
}

/** A hash of the extractor's source: cached documents from another extractor are not reused. */
function analyse(
  source: string,
  ref: string,
  url: string,
  doc: ExtractedDocument,
): Omit<PoolPage, "id" | "site" | "group"> {
  const sig = computeSignals(doc, doc.text.slice(0, MAX_TEXT), doc.markdown.slice(0, MAX_TEXT));
  const hasDate = doc.published !== null;
  const evidence = typeScores(doc, url, sig, hasDate, []);
  const type = decideType(evidence, []);
  const format = classifyFormat(doc, url, type, sig, []);
  const audience = classifyAudience(doc, url, type, sig, []);
  return {
    source,
    ref,
    url,
    feats: pageFeatures(doc, sig, hasDate),
    rule: {
      scores: Object.fromEntries(evidence.scores),
      type,
      format: [format.label, format.strong],
      audience: [audience.label, audience.strong],
      ...audienceRates(sig),
      words: sig.words,
    },
  };
}

/** Every page of the pool, hand labels attached to the `tune` rows (sorted, deterministic). */
export function collectPool(labels: readonly LabelRow[], cacheFile?: string): PoolPage[] {
  const holdout = new Set(labels.filter((r) => r.split === "holdout").map((r) => r.id));
  const tune = new Map(labels.filter((r) => r.split === "tune").map((r) => [r.id, r]));
  const key = extractorHash();
  const cached = readDocCache(cacheFile, key);
  const docs: [string, ExtractedDocument][] = [];
  const pages: PoolPage[] = [];
  const add = (
    source: string,
    ref: string,
    url: string,
    read: () => Uint8Array,
    rowId?: string,
  ) => {
    const id = rowId ?? `${source}:${ref}`;
    if (holdout.has(id)) return;
    const doc = cached.get(id) ?? trimmed(extractDocument(read(), url));
    docs.push([id, doc]);
    const a = analyse(source, ref, url, doc);
    const group = source === "debian-handbook" ? (ref.split("/").at(-1) ?? ref) : id;
    const row = tune.get(id);
    const page: PoolPage = { ...a, id, site: siteOf(source, ref, url), group };
    if (row) page.hand = { type: row.type, format: row.format, audience: row.audience };
    pages.push(page);
  };
  for (const [source, prefix, base] of DOC_SITES) {
    const files = htmlFiles(join(DOCS_ROOT, prefix)).sort();
    for (const f of files) {
      const ref = f.slice(DOCS_ROOT.length + 1);
      add(source, ref, docUrl(source, base, ref.slice(prefix.length)), () => readFileSync(f));
    }
  }
  const truth = JSON.parse(readFileSync(join(BENCH_DIR, "ground-truth.json"), "utf8")) as Record<
    string,
    { url: string }
  >;
  for (const key of Object.keys(truth).sort()) {
    add("bench", key, truth[key]?.url ?? "", () => loadHtml({ source: "bench", ref: key }));
  }
  for (const row of [...tune.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (row.source === "pages" || row.source === "sites") {
      add(row.source, row.ref, row.url, () => loadHtml(row), row.id);
    }
  }
  if (cacheFile) writeDocCache(cacheFile, key, docs);
  return pages;
}
