/**
 * A small corpus written through the store's own write path, with what a crawl leaves beside the
 * pages (ledger rows with buckets and response times, sitemaps, the entry origin's robots.txt,
 * two jobs of one domain), for the domain record, the bundle, MCP and the contract suite.
 *
 * acme.test: a bilingual site (en-US under /en-us/, de-DE under /de-de/, a root page saying
 * lang="en" with hreflang alternates), crawled twice: the second job re-checked most pages,
 * modified one, added three and found one gone. globex.test: one finished job, no sitemap.
 * initech.test: on a shelf, never crawled.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import { recordUnchanged } from "../../src/db/page-writes.ts";
import { jobUrls } from "../../src/db/schema.ts";
import { pageIdFor } from "../../src/services/ids.ts";
import { type PageSpec, testJob, writePage } from "./pages.ts";
import { prng } from "./prng.ts";

export const ACME = "acme.test";
export const GLOBEX = "globex.test";
export const INITECH = "initech.test";
export const SHELF = "tools";

const TYPES = ["docs", "docs", "api_reference", "blog", "changelog", "support", "product"];
const FORMATS = ["tutorial", "reference", "article", "listing", "faq"];
const AUDIENCES = ["developers", "technical", "business", "general"];
const TOPICS = ["databases", "security", "devtools", "cloud", "api-integration"];

/** Markdown with the shapes a bundle must keep straight: ATX and setext headings, code with #. */
export function pageMarkdown(title: string, i: number): string {
  return [
    `# ${title}`,
    "",
    `Introduction to ${title.toLowerCase()}, page ${i} of the manual.`,
    "",
    "## Install",
    "",
    "```sh",
    "# a shell comment, not a heading",
    `pip install acme==${i}.0`,
    "```",
    "",
    "Configuration",
    "-------------",
    "",
    "    # indented code stays as it is",
    "",
    `### Options of part ${i}`,
    "",
    "- `--fast`: skip the checks",
    "- `--slow`: run them twice",
    "",
    "###### Deepest",
    "",
    "#hashtag is text",
  ].join("\n");
}

function link(url: string, anchor: string, position: "body" | "template" = "body") {
  const u = new URL(url);
  return {
    targetUrl: url,
    targetPageId: pageIdFor(url),
    targetHost: u.hostname,
    anchor,
    position,
    internal: u.hostname === ACME || u.hostname.endsWith(`.${ACME}`),
  };
}

function finish(db: Db, jobId: string, state: "completed" | "partial", day: string): void {
  db.$client.run("UPDATE jobs SET state = ?, started_at = ?, finished_at = ? WHERE id = ?", [
    state,
    `${day}T10:00:00Z`,
    `${day}T10:05:00Z`,
    jobId,
  ]);
}

function ledger(db: Db, jobId: string, url: string, values: Partial<typeof jobUrls.$inferInsert>) {
  db.insert(jobUrls)
    .values({ jobId, url, bucket: "pending", updatedAt: 0, ...values })
    .onConflictDoUpdate({ target: [jobUrls.jobId, jobUrls.url], set: values })
    .run();
}

export interface AcmePage extends PageSpec {
  facets: NonNullable<PageSpec["facets"]>;
}

/** The pages of acme.test's first crawl. */
export function acmePages(): AcmePage[] {
  const random = prng(11);
  const out: AcmePage[] = [];
  out.push({
    url: "https://acme.test/",
    title: "Acme",
    markdown: "# Acme\n\nDatabases for everyone.",
    hreflang: [
      ["en-US", "https://acme.test/en-us/"],
      ["de-DE", "https://acme.test/de-de/"],
    ],
    facets: {
      type: "homepage",
      format: "landing",
      audience: "business",
      locale: "en",
      promotional: 0.7,
    },
  });
  for (let i = 0; i < 24; i++) {
    const german = i % 4 === 3;
    const lang = german ? "de-de" : "en-us";
    const path = i === 0 ? "" : `guide/part-${i}.html`;
    const title = german ? `Handbuch Teil ${i}` : `Guide part ${i}`;
    const url = `https://acme.test/${lang}/${path}`;
    const other = `https://acme.test/${german ? "en-us" : "de-de"}/${path}`;
    const links = [
      link("https://acme.test/", "Home", "template"),
      link(`https://acme.test/${lang}/guide/part-${(i % 23) + 1}.html`, `part ${(i % 23) + 1}`),
      link(`https://acme.test/${lang}/guide/part-1.html`, "getting started"),
    ];
    if (i % 3 === 0) links.push(link(`https://en.wikipedia.org/wiki/Page_${i}`, "wiki"));
    if (i % 6 === 0) links.push(link("https://de.wikipedia.org/wiki/Datenbank", "Datenbank"));
    if (i === 5) links.push(link("https://github.com/acme/acme", "source"));
    out.push({
      url,
      title,
      markdown: pageMarkdown(title, i),
      hreflang: [[german ? "en-US" : "de-DE", other]],
      links,
      assets:
        i % 5 === 0
          ? [{ url: `https://acme.test/img/${i}.png`, kind: "image", alt: `figure ${i}` }]
          : [],
      facets: {
        type: TYPES[i % TYPES.length] ?? "docs",
        format: FORMATS[i % FORMATS.length] ?? "article",
        audience: AUDIENCES[i % AUDIENCES.length] ?? "general",
        locale: german ? "de-DE" : "en-US",
        topics: TOPICS.filter((_, k) => (i + k) % 3 === 0).slice(0, 3),
        technicality: Math.round(random() * 1000) / 1000,
        depth: Math.round(random() * 1000) / 1000,
        originality: Math.round(random() * 1000) / 1000,
        promotional: Math.round(random() * 300) / 1000,
        hasCode: i % 2 === 0,
        words: 200 + ((i * 137) % 1800),
        published: i % 3 === 1 ? `2026-0${1 + (i % 9)}-1${i % 10}` : null,
      },
    });
  }
  return out;
}

export interface BuiltCorpus {
  readonly acmeJobs: readonly [string, string];
  readonly globexJob: string;
  /** acme.test's pages stored by its first job, by URL. */
  readonly acme: ReadonlyMap<string, string>;
  readonly modified: string;
  readonly removed: string;
  readonly added: readonly string[];
}

export function buildCorpus(db: Db): BuiltCorpus {
  const pages = acmePages();
  const first = testJob(db, ACME, "job_0000000000000000a001");
  db.$client.run(
    "UPDATE domains SET entry_url = 'https://acme.test/', robots_status = 'ok', robots_checked_at = '2026-11-01T10:00:01Z' WHERE domain = ?",
    [ACME],
  );
  const sitemapUrls = pages.map((p) => p.url);
  for (const url of sitemapUrls) ledger(db, first, url, { source: "sitemap" });
  const acme = new Map<string, string>();
  for (const [i, page] of pages.entries()) {
    acme.set(page.url, writePage(db, first, { ...page, fetchedAt: "2026-11-01T10:01:00Z" }));
    ledger(db, first, page.url, { elapsedMs: 20 + i });
  }
  ledger(db, first, "https://acme.test/en-us/guide/part-30.html", {
    source: "sitemap",
    bucket: "budget",
    reason: "the page budget was spent",
  });
  ledger(db, first, "https://acme.test/files/manual.pdf", {
    bucket: "notHtml",
    httpStatus: 200,
    elapsedMs: 15,
  });
  ledger(db, first, "https://acme.test/en-us/gone.html", {
    bucket: "clientError",
    httpStatus: 404,
    reason: "404 Not Found",
    elapsedMs: 12,
  });
  for (const [url, count] of [
    ["https://acme.test/sitemap.xml", 0],
    ["https://acme.test/sitemaps/en-us.xml", 19],
    ["https://acme.test/sitemaps/de-de.xml", 6],
  ] as const) {
    db.$client.run(
      "INSERT INTO sitemaps(domain, url, job_id, status, url_count, last_modified, fetched_at) VALUES (?, ?, ?, 'ok', ?, 'Sun, 01 Nov 2026 08:00:00 GMT', '2026-11-01T10:00:02Z')",
      [ACME, url, first, count],
    );
  }
  finish(db, first, "partial", "2026-11-01");

  // The second crawl: part 3 changed, part 5 is gone, three pages are new, the rest unchanged.
  const second = testJob(db, ACME, "job_0000000000000000a002");
  const modified = "https://acme.test/en-us/guide/part-2.html";
  const removed = "https://acme.test/en-us/guide/part-5.html";
  for (const page of pages) {
    if (page.url === removed) {
      ledger(db, second, page.url, {
        bucket: "clientError",
        httpStatus: 404,
        reason: "404 Not Found",
        elapsedMs: 9,
      });
    } else if (page.url === modified) {
      writePage(db, second, {
        ...page,
        markdown: `${page.markdown}\n\nA new paragraph.`,
        contentHash: "c-modified",
        fetchedAt: "2026-11-20T10:01:00Z",
      });
      ledger(db, second, page.url, { elapsedMs: 30 });
    } else {
      ledger(db, second, page.url, { source: "sitemap" });
      recordUnchanged(db, {
        pageId: acme.get(page.url) ?? "",
        jobId: second,
        ledgerUrl: page.url,
        status: 304,
        fetchedAt: "2026-11-20T10:01:00Z",
        reason: "304 Not Modified",
        etag: null,
        lastModified: null,
      });
      ledger(db, second, page.url, { elapsedMs: 10 });
    }
  }
  const added: string[] = [];
  for (let i = 24; i < 27; i++) {
    const url = `https://acme.test/en-us/guide/part-${i}.html`;
    added.push(url);
    writePage(db, second, {
      url,
      title: `Guide part ${i}`,
      markdown: pageMarkdown(`Guide part ${i}`, i),
      fetchedAt: "2026-11-20T10:02:00Z",
      facets: { type: "docs", format: "tutorial", locale: "en-US", words: 900, technicality: 0.6 },
    });
    ledger(db, second, url, { elapsedMs: 40 });
  }
  finish(db, second, "completed", "2026-11-20");

  const globexJob = testJob(db, GLOBEX, "job_0000000000000000b001");
  for (let i = 0; i < 8; i++) {
    writePage(db, globexJob, {
      url: i === 0 ? "https://www.globex.test/" : `https://www.globex.test/news/${i}`,
      title: i === 0 ? "Globex" : `Globex news ${i}`,
      markdown: `# Globex news ${i}\n\nSome news.`,
      facets: {
        type: i === 0 ? "homepage" : "news",
        format: "article",
        locale: "en",
        words: 100 + i,
      },
    });
  }
  finish(db, globexJob, "completed", "2026-11-05");

  // inlinks_body as the crawler computes it: distinct pages citing from their body.
  db.run(sql`UPDATE pages SET inlinks_body = (SELECT count(DISTINCT l.src_page_id) FROM links l
    WHERE l.target_page_id = pages.id AND l.position = 'body' AND l.internal = 1
    AND l.src_page_id != pages.id)`);
  db.$client.run(
    "INSERT INTO collections(slug, name, description, created_at) VALUES (?, 'Tools', 'Companies that make tools', '2026-11-01T00:00:00Z')",
    [SHELF],
  );
  for (const [domain, reason] of [
    [ACME, "makes databases"],
    [INITECH, "makes staplers"],
  ] as const) {
    db.$client.run(
      "INSERT INTO collection_members(slug, domain, reason, placed_by, placed_at) VALUES (?, ?, ?, 'person', '2026-11-02T00:00:00Z')",
      [SHELF, domain, reason],
    );
  }
  return { acmeJobs: [first, second], globexJob, acme, modified, removed, added };
}
