/** What a crawl reads of stored pages and writes about its domain, sitemaps and citations. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { domains, links, pages, sitemaps, templateLinks } from "./schema.ts";

export interface PageState {
  readonly id: string;
  readonly url: string;
  readonly contentHash: string;
  readonly textHash: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/** Per fetched page, so prepared once per connection (see page-writes.ts). */
export function pageState(db: Db, id: string): PageState | null {
  return (
    db.$client
      .query<PageState, [string]>(
        `SELECT id, url, content_hash AS contentHash, text_hash AS textHash, etag,
           last_modified AS lastModified FROM pages WHERE id = ?1`,
      )
      .get(id) ?? null
  );
}

export function knownPageUrls(db: Db, domain: string): string[] {
  return db
    .select({ url: pages.url })
    .from(pages)
    .where(eq(pages.domain, domain))
    .all()
    .map((r) => r.url);
}

/** Another stored page of the domain with the same text, or null. */
export function findSameText(
  db: Db,
  domain: string,
  textHash: string,
  excludeId: string,
): string | null {
  return (
    db.$client
      .query<{ url: string }, [string, string, string]>(
        "SELECT url FROM pages WHERE domain = ?1 AND text_hash = ?2 AND id != ?3 LIMIT 1",
      )
      .get(domain, textHash, excludeId)?.url ?? null
  );
}

export function pageInternalLinks(db: Db, id: string): { url: string; body: boolean }[] {
  return db
    .select({ url: links.targetUrl, position: links.position })
    .from(links)
    .where(and(eq(links.srcPageId, id), eq(links.internal, true)))
    .all()
    .map((r) => ({ url: r.url, body: r.position === "body" }));
}

/** (page id, SimHash) of the domain's stored pages: the near-duplicate index of a crawl. */
export function domainSimhashes(db: Db, domain: string): [string, string][] {
  return db
    .select({ id: pages.id, simhash: pages.simhash })
    .from(pages)
    .where(and(eq(pages.domain, domain), sql`${pages.simhash} IS NOT NULL`))
    .all()
    .map((r) => [r.id, r.simhash ?? ""]);
}

export function setDomainEntry(db: Db, domain: string, entryUrl: string): void {
  db.update(domains).set({ entryUrl }).where(eq(domains.domain, domain)).run();
}

export function setDomainRobots(db: Db, domain: string, status: string, at: string): void {
  db.update(domains)
    .set({ robotsStatus: status, robotsCheckedAt: at })
    .where(eq(domains.domain, domain))
    .run();
}

export function saveSitemap(
  db: Db,
  row: {
    domain: string;
    url: string;
    jobId: string;
    status: string;
    urlCount: number;
    lastModified: string | null;
    fetchedAt: string;
  },
): void {
  const { domain: _, url: __, ...update } = row;
  db.insert(sitemaps)
    .values(row)
    .onConflictDoUpdate({ target: [sitemaps.domain, sitemaps.url], set: update })
    .run();
}

/**
 * (target URL, anchor) pairs of the domain's internal links found on more than `share` of the
 * pages that have any; none below `minPages` such pages. Counted in SQL: a large site has
 * hundreds of thousands of internal links.
 */
export function repeatedLinks(
  db: Db,
  domain: string,
  share: number,
  minPages: number,
): [string, string][] {
  const c = db.$client;
  const total =
    c
      .query<{ n: number }, [string]>(
        "SELECT count(DISTINCT l.src_page_id) AS n FROM links l JOIN pages p ON p.id = l.src_page_id WHERE p.domain = ? AND l.internal = 1",
      )
      .get(domain)?.n ?? 0;
  if (total < minPages) return [];
  return c
    .query<{ t: string; a: string }, [string, number]>(
      "SELECT l.target_url AS t, l.anchor AS a FROM links l JOIN pages p ON p.id = l.src_page_id WHERE p.domain = ? AND l.internal = 1 GROUP BY l.target_url, l.anchor HAVING count(DISTINCT l.src_page_id) > ?",
    )
    .all(domain, share * total)
    .map((r) => [r.t, r.a]);
}

/** Stores the domain's template links and recounts body citations without them. */
export function recomputeInlinks(
  db: Db,
  domain: string,
  template: readonly (readonly [string, string])[],
): void {
  db.transaction((tx) => {
    tx.delete(templateLinks).where(eq(templateLinks.domain, domain)).run();
    for (let i = 0; i < template.length; i += 500) {
      tx.insert(templateLinks)
        .values(
          template.slice(i, i + 500).map(([targetUrl, anchor]) => ({ domain, targetUrl, anchor })),
        )
        .onConflictDoNothing()
        .run();
    }
    // Same connection, so inside the transaction.
    db.$client
      .query(
        `UPDATE pages SET inlinks_body = coalesce((
           SELECT count(DISTINCT l.src_page_id) FROM links l
           WHERE l.target_page_id = pages.id AND l.position = 'body'
             AND l.src_page_id != pages.id AND l.internal = 1
             AND NOT EXISTS (SELECT 1 FROM template_links t WHERE t.domain = ?1
                             AND t.target_url = l.target_url AND t.anchor = l.anchor)), 0)
         WHERE domain = ?1`,
      )
      .run(domain);
  });
}
