/**
 * The doc sites in a process of their own (the crawl benchmark runs the server beside the
 * crawlers it times): `bun test/sites/support/serve-doc-sites.ts` prints one JSON line
 * `{"port": N, "connectTo": "..."}` once listening, and serves until stdin closes or SIGTERM.
 */

import { serveDocSites } from "./doc-server.ts";
import { docSites } from "./doc-sites.ts";

const server = serveDocSites(docSites(), { record: false });
console.log(JSON.stringify({ port: server.port, connectTo: server.connectTo() }));

const stop = () => process.exit(0);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.resume();
