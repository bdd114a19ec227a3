/**
 * A small website on loopback for crawl tests: pages by path (editable while it runs), with
 * `redirect:` and `status:` forms, hits recorded. It stands for `host` (and `www.host`) through
 * connect-to rules: port 80 goes to it, port 443 to a port nothing listens on, refused at once.
 */

export const REDIRECT = "redirect:";
export const STATUS = "status:";
/** `slow:0.2:<body>` answers `<body>` after 0.2 s. */
export const SLOW = "slow:";

export interface TestSite {
  readonly host: string;
  readonly port: number;
  readonly pages: Record<string, string>;
  readonly hits: string[];
  /** When each hit arrived (performance.now()), in the order of `hits`. */
  readonly hitTimes: number[];
  /** Connect-to rules for WEBCORPUS_CONNECT_TO. */
  connectTo(): string;
  count(path: string): number;
  stop(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  txt: "text/plain; charset=utf-8",
  xml: "application/xml",
  css: "text/css",
  png: "image/png",
  pdf: "application/pdf",
};

export const LAST_MODIFIED = "Tue, 03 Nov 2026 08:00:00 GMT";

function closedPort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

export function serveSite(host: string, pages: Record<string, string>): TestSite {
  const hits: string[] = [];
  const hitTimes: number[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      hits.push(path);
      hitTimes.push(performance.now());
      let body = pages[path] ?? pages[url.pathname];
      if (body?.startsWith(SLOW)) {
        const [seconds = "0", ...rest] = body.slice(SLOW.length).split(":");
        await Bun.sleep(Number(seconds) * 1000);
        body = rest.join(":");
      }
      if (body === undefined) return new Response("not found", { status: 404 });
      if (body.startsWith(REDIRECT)) {
        return new Response(null, {
          status: 301,
          headers: { location: body.slice(REDIRECT.length) },
        });
      }
      if (body.startsWith(STATUS)) {
        const [status, ...rest] = body.slice(STATUS.length).split(":");
        return new Response(rest.join(":"), { status: Number(status) });
      }
      const ext = url.pathname.split(".").pop() ?? "";
      const type = TYPES[ext] ?? "text/html; charset=utf-8";
      const etag = `"${Bun.hash(body).toString(16)}"`;
      if (request.headers.get("if-none-match") === etag)
        return new Response(null, { status: 304, headers: { etag } });
      return new Response(body, {
        headers: { "content-type": type, etag, "last-modified": LAST_MODIFIED },
      });
    },
  });
  const port = server.port ?? 0;
  const refused = closedPort();
  return {
    host,
    port,
    pages,
    hits,
    hitTimes,
    connectTo() {
      return [host, `www.${host}`]
        .flatMap((h) => [`${h}:80:127.0.0.1:${port}`, `${h}:443:127.0.0.1:${refused}`])
        .join(",");
    },
    count(path) {
      return hits.filter((h) => h === path).length;
    },
    async stop() {
      await server.stop(true);
    },
  };
}

/** A page with site navigation (template links) around its main content. */
export function page(title: string, body: string, nav = ""): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav>${nav}</nav><main><h1>${title}</h1>${body}</main><footer>Acme Corp</footer></body></html>`;
}

/** A page of main content alone (no navigation). */
export function article(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

/** Twelve sentences about `topic`: enough text to fill a chunk of its own. */
export function steps(topic: string): string {
  return Array.from(
    { length: 12 },
    (_, i) =>
      `Step ${i + 1} of ${topic}: the scheduler records the attempt, the worker reports its progress, and the dashboard shows the state it reached.`,
  ).join(" ");
}

export const PROSE =
  "Acme Widgets keep a queue of jobs in a single table and let workers lease them one at a time. Each worker renews its lease while it runs, and a job whose lease lapses goes back to the queue for another worker to take. ";
