/**
 * A safety net for CPU work on the crawl workers' stage: every page of the three doc sites
 * (python, postgres, handbook) through processPage with the chunker the crawl workers build, and
 * one SHA-256 of everything it returns but the timings (document, markdown, links, facets,
 * explanation, chunks, hashes). A change meant to be output-neutral must leave the digest as it was.
 *
 *   bun test/bench/output-digest.ts [--site python|postgres|handbook] [--dump FILE]
 *
 * --dump writes one line per page (URL and its own digest) so two runs can be diffed to find the
 * pages that changed.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { benchSite, SITE_NAMES, sitePages, workerStage } from "./support/doc-pages.ts";

const { values } = parseArgs({
  options: { site: { type: "string" }, dump: { type: "string" } },
});
const chosen = (values.site ? [values.site] : SITE_NAMES).map(benchSite);

const stage = workerStage();
const replacer = (_key: string, value: unknown) =>
  typeof value === "bigint" ? `${value}n` : value;

const all = new Bun.CryptoHasher("sha256");
const lines: string[] = [];
const started = performance.now();
for (const site of chosen) {
  const siteHash = new Bun.CryptoHasher("sha256");
  let n = 0;
  for (const sitePage of sitePages(site, 0, site.pages)) {
    const { url } = sitePage;
    const { timings: _timings, ...page } = stage.run(sitePage);
    const json = JSON.stringify(page, replacer);
    siteHash.update(url).update("\n").update(json).update("\n");
    if (values.dump)
      lines.push(
        `${url} ${new Bun.CryptoHasher("sha256").update(json).digest("hex").slice(0, 16)}`,
      );
    n++;
  }
  const digest = siteHash.digest("hex");
  all.update(digest);
  console.log(`${site.host}: ${n} pages, ${digest.slice(0, 32)}`);
}
if (values.dump) writeFileSync(values.dump, `${lines.join("\n")}\n`);
console.log(
  `digest ${all.digest("hex").slice(0, 32)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
