/**
 * The doc sites served on loopback for a site-suite file, with crawlers of them: the server starts
 * before the file's tests and stops, with every crawler made here, after them.
 */
import { afterAll, beforeAll } from "bun:test";
import { type Crawler, crawler } from "../../helpers/crawl.ts";
import { type DocServer, serveDocSites } from "./doc-server.ts";
import { type DocSites, docSites } from "./doc-sites.ts";

export interface DocCrawls {
  readonly sites: DocSites;
  readonly server: DocServer;
  /** A crawler through a server's connect-to rules (this file's by default): two workers, 16
   * fetches at once; closed after the file's tests. */
  crawler(through?: DocServer): Crawler;
}

export function docCrawls(): DocCrawls {
  let sites: DocSites | null = null;
  let server: DocServer | null = null;
  const crawlers: Crawler[] = [];
  beforeAll(() => {
    sites = docSites();
    server = serveDocSites(sites);
  });
  afterAll(async () => {
    for (const c of crawlers) c.close();
    await server?.stop();
  });
  const started = <T>(value: T | null): T => {
    if (value === null) throw new Error("the doc sites are served from beforeAll on");
    return value;
  };
  return {
    get sites() {
      return started(sites);
    },
    get server() {
      return started(server);
    },
    crawler(through) {
      const c = crawler({
        CONNECT_TO: (through ?? started(server)).connectTo(),
        WORKER_PROCESSES: "2",
        HOST_CONCURRENCY: "16",
        MAX_CONCURRENCY: "16",
      });
      crawlers.push(c);
      return c;
    },
  };
}
