/** An embedding backlog: pages of an older job whose chunks all wait for vectors. */

import type { Db } from "../../src/db/client.ts";
import { markEmbedded } from "./embedded.ts";
import { testJob, writePage } from "./pages.ts";

export interface BacklogSpec {
  readonly domain: string;
  readonly jobId: string;
  readonly pages: number;
  readonly chunksPerPage: number;
  /** Mark them embedded (a finished job's chunks): they are in the index, not in the backlog. */
  readonly embedded?: boolean;
}

/** Writes the pages through the store's own write path, in one transaction; the chunk count. */
export function writeBacklog(db: Db, spec: BacklogSpec): number {
  testJob(db, spec.domain, spec.jobId);
  const prose =
    "Workers take leases on queued jobs and renew them while they run; a lapsed lease sends the job back.";
  db.$client.transaction(() => {
    for (let p = 0; p < spec.pages; p++) {
      const chunks = Array.from({ length: spec.chunksPerPage }, (_, i) => ({
        index: i,
        heading: `Section ${i}`,
        text: `${prose} Page ${p}, part ${i}.`,
        tokens: 30,
      }));
      writePage(db, spec.jobId, {
        url: `http://${spec.domain}/p${p}.html`,
        title: `P${p}`,
        chunks,
      });
    }
  })();
  const ids = db.$client
    .query<{ id: number }, [string]>("SELECT id FROM chunks WHERE job_id = ?1")
    .all(spec.jobId)
    .map((r) => r.id);
  if (spec.embedded)
    for (let i = 0; i < ids.length; i += 500) markEmbedded(db, ids.slice(i, i + 500));
  return ids.length;
}
