/**
 * The hand-labeled pages of the facet evaluation and where their HTML lives:
 * - `pages`: test/eval/facets/pages/<ref> (hand-written company pages, in the repo);
 * - `sites`: test/eval/facets/sites/<ref> (pages of real sites from public repositories, gzipped,
 *   in the repo; labels in labels-sites.jsonl, provenance and labeling rules in sites/SOURCES.md);
 * - `bench`: the extraction benchmark, $WEBCORPUS_BENCH_DIR or
 *   /work/shared/bench/extraction-articles, html/<ref>.html.gz;
 * - `python3.11-doc`, `postgresql-doc-15`, `debian-handbook`: files of the unpacked Debian doc
 *   packages, $WEBCORPUS_DOCS_ROOT or /work/cache/root, + <ref>.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

export interface LabelRow {
  readonly id: string;
  readonly source: string;
  readonly ref: string;
  readonly url: string;
  readonly type: string;
  readonly format: string;
  readonly audience: string;
  readonly locale: string;
  readonly has_code: boolean;
  readonly published: string | null;
  readonly split: "tune" | "holdout";
  readonly technicality_rank?: number;
  readonly promotional_rank?: number;
  /** Where a `sites` page came from: repository@commit:path. */
  readonly provenance?: string;
}

export const HERE = import.meta.dir;
export const BENCH_DIR = Bun.env.WEBCORPUS_BENCH_DIR ?? "/work/shared/bench/extraction-articles";
export const DOCS_ROOT = Bun.env.WEBCORPUS_DOCS_ROOT ?? "/work/cache/root";
export const LABEL_FILES = [join(HERE, "labels.jsonl"), join(HERE, "labels-sites.jsonl")];

export function readLabels(files: readonly string[] = LABEL_FILES): LabelRow[] {
  const rows: LabelRow[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) if (line.trim()) rows.push(JSON.parse(line) as LabelRow);
  }
  return rows;
}

/** Where a row's HTML file is (`.gz` files hold it gzipped). */
export function htmlPath(row: Pick<LabelRow, "source" | "ref">): string {
  switch (row.source) {
    case "pages":
      return join(HERE, "pages", row.ref);
    case "sites":
      return join(HERE, "sites", row.ref);
    case "bench":
      return join(BENCH_DIR, "html", `${row.ref}.html.gz`);
    default:
      return join(DOCS_ROOT, row.ref);
  }
}

export function loadHtml(row: Pick<LabelRow, "source" | "ref">): Uint8Array {
  const path = htmlPath(row);
  const bytes = readFileSync(path);
  return path.endsWith(".gz") ? gunzipSync(bytes) : bytes;
}

/** debian-handbook sections are labeled in several languages, some in tune, some in holdout:
 * the section names labeled in tune (a holdout page with one of them has a translation there). */
export function tuneSections(rows: readonly LabelRow[]): Set<string> {
  return new Set(
    rows
      .filter((r) => r.split === "tune" && r.source === "debian-handbook")
      .map((r) => r.ref.split("/").at(-1) ?? ""),
  );
}
