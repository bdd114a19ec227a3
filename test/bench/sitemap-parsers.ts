/**
 * Sitemap XML parsers on a 50,000-URL sitemap (~7 MB), a truncated file, billion laughs and XXE:
 * our parseSitemap (htmlparser2's streaming parser, linkedom's own) against linkedom's DOM, and
 * sax / fast-xml-parser when they are installed (they are not dependencies: `bun add -d sax
 * fast-xml-parser` in a scratch checkout to include them).
 * Run: bun run test/bench/sitemap-parsers.ts
 */
import { DOMParser } from "linkedom";
import { parseSitemap } from "../../src/crawl/sitemaps.ts";

const N = 50_000;
const body =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
  Array.from(
    { length: N },
    (_, i) =>
      `<url><loc>https://example.com/docs/section-${i}/page.html?a=1&amp;b=${i}</loc><lastmod>2024-05-0${1 + (i % 9)}</lastmod></url>\n`,
  ).join("") +
  "</urlset>\n";
const truncated = body.slice(0, 5000);
const lols = Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
).join("");
const billion = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY lol0 "lol">${lols}]><urlset><url><loc>https://example.com/&lol9;</loc></url><url><loc>https://example.com/ok</loc></url></urlset>`;
const xxe = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/hostname">]><urlset><url><loc>https://example.com/&xxe;</loc></url></urlset>`;

type Candidate = [string, (text: string) => string[]];
const candidates: Candidate[] = [
  [
    "parseSitemap (htmlparser2)",
    (t) =>
      parseSitemap(new TextEncoder().encode(t), "https://example.com/sitemap.xml").urls.map(
        (u) => u.loc,
      ),
  ],
  [
    "linkedom DOMParser",
    (t) =>
      [...new DOMParser().parseFromString(t, "text/xml").querySelectorAll("loc")].map((e) =>
        (e.textContent ?? "").trim(),
      ),
  ],
];
try {
  const sax = (await import(String("sax"))).default;
  candidates.push([
    "sax (non-strict)",
    (t) => {
      const locs: string[] = [];
      let buf: string | null = null;
      const p = sax.parser(false, { lowercase: true });
      p.onerror = () => {
        p.error = null;
        p.resume();
      };
      p.onopentag = (n: { name: string }) => {
        if (n.name.endsWith("loc")) buf = "";
      };
      p.ontext = (x: string) => {
        if (buf !== null) buf += x;
      };
      p.onclosetag = (n: string) => {
        if (buf !== null && n.endsWith("loc")) {
          locs.push(buf.trim());
          buf = null;
        }
      };
      p.write(t).close();
      return locs;
    },
  ]);
} catch {
  console.log("sax: not installed");
}
try {
  const { XMLParser } = await import(String("fast-xml-parser"));
  candidates.push([
    "fast-xml-parser",
    (t) => {
      const urls = new XMLParser({ ignoreAttributes: true }).parse(t)?.urlset?.url;
      return (Array.isArray(urls) ? urls : urls ? [urls] : []).map((u: { loc: unknown }) =>
        String(u.loc),
      );
    },
  ]);
} catch {
  console.log("fast-xml-parser: not installed");
}

console.log(`sitemap: ${N} URLs, ${(body.length / 1e6).toFixed(1)} MB`);
for (const [name, fn] of candidates) {
  const row: string[] = [name];
  const attempt = (label: string, f: () => string) => {
    try {
      row.push(`${label} ${f()}`);
    } catch (err) {
      row.push(`${label} threw (${(err as Error).message.slice(0, 40)})`);
    }
  };
  attempt("50k:", () => {
    Bun.gc(true);
    const t0 = performance.now();
    const n = fn(body).length;
    return `${n} URLs in ${(performance.now() - t0).toFixed(0)} ms`;
  });
  attempt("truncated:", () => `${fn(truncated).length} URLs recovered`);
  attempt(
    "billion laughs:",
    () => `longest loc ${Math.max(0, ...fn(billion).map((l) => l.length))} chars`,
  );
  attempt("XXE:", () => JSON.stringify(fn(xxe)));
  console.log(row.join(" | "));
}
