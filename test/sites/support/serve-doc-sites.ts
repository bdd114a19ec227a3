/**
 * The doc sites in a process of their own (the crawl benchmark runs the server beside the
 * crawlers it times): `bun test/sites/support/serve-doc-sites.ts` prints one JSON line
 * `{"port": N, "control": N, "connectTo": "..."}` once listening, and serves until stdin closes
 * or SIGTERM. The control port answers `GET /window` with the requests served since the last
 * `POST /reset`: `{"count", "first", "last"}` (Date.now() of the first and last), so a benchmark
 * times every crawler's requests the same way, from outside.
 */

import { serveDocSites } from "./doc-server.ts";
import { docSites } from "./doc-sites.ts";

const server = serveDocSites(docSites());
const control = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/reset" && request.method === "POST") {
      server.hits.length = 0;
      return Response.json({ ok: true });
    }
    if (pathname === "/window") {
      const { hits } = server;
      return Response.json({
        count: hits.length,
        first: hits[0]?.at ?? null,
        last: hits.at(-1)?.at ?? null,
        statuses: hits.reduce<Record<string, number>>((n, h) => {
          n[h.status] = (n[h.status] ?? 0) + 1;
          return n;
        }, {}),
      });
    }
    return new Response("not found", { status: 404 });
  },
});
console.log(
  JSON.stringify({ port: server.port, control: control.port, connectTo: server.connectTo() }),
);

const stop = () => process.exit(0);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
