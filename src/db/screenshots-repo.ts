/** Screenshots: which pages get one, and the latest PNG of each page, kept beside it. */
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { pages, screenshots } from "./schema.ts";

/** Up to `n` pages of the domain: the homepage first when stored, then the most cited. */
export function screenshotTargets(
  db: Db,
  domain: string,
  homeUrl: string | null,
  n: number,
): { id: string; url: string }[] {
  return db
    .select({ id: pages.id, url: pages.url })
    .from(pages)
    .where(sql`${pages.domain} = ${domain}`)
    .orderBy(sql`(${pages.url} = ${homeUrl ?? ""}) DESC`, sql`${pages.inlinksBody} DESC`, pages.id)
    .limit(n)
    .all();
}

export function saveScreenshot(
  db: Db,
  shot: {
    pageId: string;
    width: number;
    height: number;
    takenAt: string;
    jobId: string;
    png: Uint8Array;
  },
): void {
  const row = { ...shot, png: Buffer.from(shot.png) };
  const { pageId: _, ...update } = row;
  db.insert(screenshots)
    .values(row)
    .onConflictDoUpdate({ target: screenshots.pageId, set: update })
    .run();
}
