/**
 * robots.txt: robots-parser alone vs our RobotsPolicy (robots-parser behind the RFC 9309 /
 * Google rewrite) on the reference's 104 Google-derived cases, and the cost of one check.
 * Run: bun run test/bench/robots-parsers.ts
 */
import robotsParser from "robots-parser";
import { RobotsPolicy } from "../../src/crawl/robots.ts";
import { GOOGLE_CASES } from "../unit/crawl/robots-cases.ts";

let raw = 0;
let ours = 0;
const rawMisses: string[] = [];
for (const [robots, agent, url, expected] of GOOGLE_CASES) {
  const r = robotsParser("http://foo.bar/robots.txt", robots).isAllowed(url, agent) !== false;
  if (r === expected) raw++;
  else rawMisses.push(`${JSON.stringify(robots.slice(0, 40))} ${agent} ${url}`);
  if (RobotsPolicy.parse(robots, agent, "http://foo.bar/robots.txt").allowed(url) === expected)
    ours++;
}
console.log(
  `cases: ${GOOGLE_CASES.length}; robots-parser alone ${raw} right; RobotsPolicy ${ours} right`,
);
for (const m of rawMisses) console.log(`  robots-parser alone misses: ${m}`);

const rules = Array.from(
  { length: 200 },
  (_, i) => `Disallow: /section-${i}/*.php$\nAllow: /section-${i}/public/`,
).join("\n");
const text = `User-agent: *\n${rules}\nUser-agent: webcorpus\nDisallow: /private/\n${rules}\n`;
const t0 = performance.now();
const policy = RobotsPolicy.parse(text, "webcorpus/0.2.0");
const parseMs = performance.now() - t0;
const urls = Array.from(
  { length: 20_000 },
  (_, i) => `https://example.com/section-${i % 250}/page-${i}.html?x=${i}`,
);
const t1 = performance.now();
let n = 0;
for (const u of urls) n += policy.allowed(u) ? 1 : 0;
const perCheckUs = ((performance.now() - t1) / urls.length) * 1000;
console.log(
  `400-rule group: parse ${parseMs.toFixed(1)} ms; allowed() ${perCheckUs.toFixed(1)} µs per URL (${n} allowed)`,
);
