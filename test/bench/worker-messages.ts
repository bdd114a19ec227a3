/**
 * What crosses `postMessage` from a crawl worker for each page: the worker's answer (processPage's
 * result, the same structured clone the worker posts; the page body never crosses), its size by
 * part and the CPU of cloning it (serialize in the worker, deserialize on the main thread), over
 * every page of a doc site, with the chunker the workers build.
 *
 *   bun test/bench/worker-messages.ts [--site python|postgres|handbook] [--rounds 3]
 */
import { deserialize, serialize } from "bun:jsc";
import { parseArgs } from "node:util";
import type { ProcessedPage } from "../../src/crawl/process-page.ts";
import { benchSite, sitePages, workerStage } from "./support/doc-pages.ts";

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    rounds: { type: "string", default: "3" },
  },
});
const site = benchSite(values.site);
const stage = workerStage();
const pages: ProcessedPage[] = sitePages(site).map(stage.run);
const kb = (bytes: number) => (bytes / pages.length / 1024).toFixed(1);
const parts: Record<string, number> = {};
for (const p of pages) {
  const { markdown, links, assets, ...restOfDoc } = p.doc;
  const { doc: _doc, chunks, explain, ...restOfPage } = p;
  const sizes = {
    markdown,
    chunks,
    links,
    explain,
    assets,
    "rest of doc": restOfDoc,
    rest: restOfPage,
  };
  for (const [name, value] of Object.entries(sizes))
    parts[name] = (parts[name] ?? 0) + serialize(value).byteLength;
}
console.log(
  `${site.host}: ${pages.length} pages; KB per page by part: ${Object.entries(parts)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(", ")}`,
);
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
for (let round = 1; round <= Number(values.rounds); round++) {
  let bytes = 0;
  let t = cpu();
  const clones = pages.map((p) => serialize(p));
  const serializeMs = (cpu() - t) / pages.length;
  for (const c of clones) bytes += c.byteLength;
  t = cpu();
  for (const c of clones) deserialize(c);
  const deserializeMs = (cpu() - t) / pages.length;
  console.log(
    `round ${round}: ${kb(bytes)} KB per page; serialize ${serializeMs.toFixed(2)} CPU ms, deserialize ${deserializeMs.toFixed(2)}`,
  );
}
