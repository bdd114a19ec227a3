/** The files a doc site adds to its Debian package: robots.txt, sitemaps, generated home pages. */

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function robotsTxt(host: string, disallow: readonly string[]): string {
  const rules = disallow.map((d) => `Disallow: ${d}`).join("\n");
  return `User-agent: *\n${rules}\n\nSitemap: http://${host}/sitemap.xml\n`;
}

/** `2023-03-29T10:20:30+00:00`, the W3C datetime sitemaps use. */
export function lastmod(mtimeMs: number): string {
  return `${new Date(Math.floor(mtimeMs / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;
}

export function urlset(host: string, entries: readonly (readonly [string, number])[]): string {
  const urls = entries.map(
    ([path, mtime]) =>
      `<url><loc>${escapeXml(`http://${host}${path}`)}</loc><lastmod>${lastmod(mtime)}</lastmod></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function sitemapIndex(host: string, children: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...children.map((c) => `<sitemap><loc>http://${host}${c}</loc></sitemap>`),
    "</sitemapindex>",
    "",
  ].join("\n");
}

export function postgresHome(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">
<title>PostgreSQL: The world's most advanced open source database</title>
<meta name="description" content="PostgreSQL: a powerful, open source object-relational database.">
</head>
<body>
<header><nav><a href="/">Home</a> <a href="/docs/15/index.html">Documentation</a></nav></header>
<main>
<h1>PostgreSQL: The World's Most Advanced Open Source Relational Database</h1>
<p>PostgreSQL is a powerful, open source object-relational database system with over 35 years of
active development that has earned it a strong reputation for reliability, feature robustness,
and performance.</p>
<p>Read the <a href="/docs/15/index.html">PostgreSQL 15 documentation</a>, start with the
<a href="/docs/15/tutorial.html">tutorial</a>, or look up an
<a href="/docs/15/sql-commands.html">SQL command</a>.</p>
</main>
</body>
</html>
`;
}

export function handbookHome(langs: readonly string[]): string {
  const alternates = langs
    .map((l) => `<link rel="alternate" hreflang="${l}" href="/browse/${l}/stable/">`)
    .join("\n");
  const items = langs
    .map((l) => `<li><a href="/browse/${l}/stable/" hreflang="${l}">${l}</a></li>`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">
<title>The Debian Administrator's Handbook</title>
${alternates}
</head>
<body>
<main>
<h1>The Debian Administrator's Handbook</h1>
<p>A reference book presenting the Debian distribution, from initial installation to
configuration of services, available in ${langs.length} languages. Read it online:</p>
<ul>
${items}
</ul>
</main>
</body>
</html>
`;
}
