/**
 * A load corpus from the PostgreSQL 15 HTML docs of the Debian package (~1,170 pages), converted
 * crudely (linkedom + turndown, navigation as template links, facets from simple counts) and
 * stored through the crawler's write path, while the crawler is built elsewhere. The same rows
 * can be copied into the reference's database (its schema has the same tables and columns), so
 * both servers answer from the same pages.
 */
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { openStore } from "../../src/db/client.ts";
import { createJob } from "../../src/db/jobs-repo.ts";
import { type LinkRow, savePage } from "../../src/db/page-writes.ts";
import { jobUrls } from "../../src/db/schema.ts";
import { chunkMarkdown } from "../../src/search/chunking.ts";
import { loadTokenCounter } from "../../src/search/model-files.ts";
import { pageIdFor } from "../../src/services/ids.ts";

export const PG_DOCS = "/work/cache/root/usr/share/doc/postgresql-doc-15/html";
export const PG_DOMAIN = "postgresql.org";
const HOST = "www.postgresql.org";
const BASE = `http://${HOST}/docs/15/`;
const JOB = "job_000000000000bench0001";

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

function page(file: string, html: string, turndown: TurndownService) {
  const url = `${BASE}${file}`;
  const { document } = parseHTML(html);
  const title = document.querySelector("title")?.textContent?.trim() ?? null;
  const links: LinkRow[] = [];
  const seen = new Set<string>();
  for (const a of document.querySelectorAll("a[href]")) {
    let target: URL;
    try {
      target = new URL(a.getAttribute("href") ?? "", url);
    } catch {
      continue;
    }
    target.hash = "";
    const href = target.href;
    if (seen.has(href) || href === url) continue;
    seen.add(href);
    const template = a.closest(".navheader, .navfooter") !== null;
    links.push({
      targetUrl: href,
      targetPageId: pageIdFor(href),
      targetHost: target.hostname,
      anchor: (a.textContent ?? "").trim().slice(0, 200),
      position: template ? "template" : "body",
      internal: target.hostname === HOST,
    });
  }
  for (const nav of document.querySelectorAll(".navheader, .navfooter")) nav.remove();
  const body = document.querySelector("body");
  const markdown = turndown.turndown(body?.innerHTML ?? "").trim();
  const text = body?.textContent ?? "";
  const code = document.querySelectorAll("pre").length;
  const n = words(text);
  return {
    url,
    title,
    markdown,
    links,
    facets: {
      type: file === "index.html" ? "homepage" : file.startsWith("sql-") ? "api_reference" : "docs",
      format: file.startsWith("sql-") ? "reference" : "tutorial",
      audience: code > 0 ? "developers" : "technical",
      locale: "en-US",
      topics: ["databases"],
      technicality: round3(Math.min(1, 0.3 + code / 10)),
      depth: round3(Math.min(1, n / 3000)),
      originality: 1,
      promotional: 0,
      hasCode: code > 0,
      words: n,
      published: null,
      explain: {},
    },
  };
}

/** Builds the corpus in `dataDir` (once: a marker file says it is there); returns its page ids. */
export function pgCorpus(dataDir: string): string[] {
  // v2: pages carry their chunks (the crawl's chunker), so both servers can answer search.
  const marker = join(dataDir, "pg-corpus-v2.json");
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, "utf8")) as string[];
  rmSync(join(dataDir, "webcorpus.db"), { force: true });
  for (const suffix of ["-wal", "-shm"])
    rmSync(join(dataDir, `webcorpus.db${suffix}`), { force: true });
  rmSync(join(dataDir, "pg-corpus.json"), { force: true });
  const counter = loadTokenCounter();
  const store = openStore(join(dataDir, "webcorpus.db"));
  const db = store.write;
  createJob(db, {
    id: JOB,
    domain: PG_DOMAIN,
    params: { budget: 3000, refresh: false, force: false, shots: 0 },
    createdAt: "2026-11-25T21:40:00Z",
    keyId: null,
    info: {},
  });
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
  const ids: string[] = [];
  const files = readdirSync(PG_DOCS)
    .filter((f) => f.endsWith(".html"))
    .sort();
  for (const file of files) {
    const p = page(file, readFileSync(join(PG_DOCS, file), "utf8"), turndown);
    const id = pageIdFor(p.url);
    db.insert(jobUrls)
      .values({ jobId: JOB, url: p.url, bucket: "pending", source: "sitemap", updatedAt: 0 })
      .run();
    savePage(
      db,
      {
        id,
        url: p.url,
        canonicalUrl: p.url,
        domain: PG_DOMAIN,
        host: HOST,
        title: p.title,
        description: null,
        markdown: p.markdown,
        contentHash: id,
        textHash: id,
        etag: null,
        lastModified: null,
        httpStatus: 200,
        fetchedAt: "2026-11-25T21:45:00Z",
        jobId: JOB,
        declaredLanguage: "en",
        hreflang: [],
        simhash: null,
        facets: p.facets,
        assets: [],
        links: p.links,
        chunks: chunkMarkdown(p.markdown, counter, { title: p.title }),
      },
      { ledgerUrl: p.url, changed: true, fetched: true },
    );
    ids.push(id);
  }
  db.$client.run(`UPDATE pages SET inlinks_body = (SELECT count(DISTINCT l.src_page_id) FROM links l
    WHERE l.target_page_id = pages.id AND l.position = 'body' AND l.internal = 1
    AND l.src_page_id != pages.id)`);
  db.$client.run(
    "UPDATE jobs SET state = 'completed', started_at = '2026-11-25T21:40:01Z', finished_at = '2026-11-25T21:49:40Z' WHERE id = ?",
    [JOB],
  );
  store.close();
  writeFileSync(marker, JSON.stringify(ids));
  return ids;
}

const TABLES = [
  "domains",
  "jobs",
  "job_urls",
  "pages",
  "page_bodies",
  "page_topics",
  "page_history",
  "assets",
  "links",
  "template_links",
  "chunks",
];

/** Copies the corpus into the reference's (migrated, empty) database: the columns both have. */
export function copyToReference(ours: string, reference: string): void {
  const db = new Database(reference);
  db.run("PRAGMA foreign_keys = OFF");
  db.run(`ATTACH DATABASE '${ours.replace(/'/g, "''")}' AS ours`);
  const columns = (schema: string, table: string) =>
    new Set(
      db
        .query<{ name: string }, []>(`PRAGMA ${schema}.table_info(${table})`)
        .all()
        .map((c) => c.name),
    );
  db.transaction(() => {
    for (const table of TABLES) {
      const theirs = columns("main", table);
      const shared = [...columns("ours", table)].filter((c) => theirs.has(c)).join(", ");
      db.run(`DELETE FROM main.${table}`);
      db.run(`INSERT INTO main.${table} (${shared}) SELECT ${shared} FROM ours.${table}`);
    }
    // The reference searches text in its FTS5 table, filled as its store fills it.
    db.run("DELETE FROM main.chunks_fts");
    db.run(`INSERT INTO main.chunks_fts(rowid, title, heading, text)
      SELECT c.id, coalesce(p.title, ''), c.heading, c.text FROM main.chunks c
      JOIN main.pages p ON p.id = c.page_id ORDER BY c.id`);
  })();
  db.close();
}
