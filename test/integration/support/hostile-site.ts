/**
 * A hostile site on loopback: every way a website can make a crawler misbehave, with knobs and a
 * record of the hits. `startHostileSite()` serves it on 127.0.0.1:<random port>; stop it in
 * afterEach. It answers any Host header, so it can stand for `hostile.example` through a
 * connect-to rule. A second listener on 127.0.0.2 (the SSRF target the guard must refuse)
 * records any request that reaches it in `ssrfHits`.
 */
import { createServer, type Server as NetServer } from "node:net";
import { deflateRawSync, constants as z } from "node:zlib";

const MB = 1 << 20;

/** ~`mib` MiB of spaces as a gzip stream of repeated full-flushed deflate blocks (~1 KiB/MiB). */
export function gzipBomb(mib: number): Uint8Array {
  const block = deflateRawSync(new Uint8Array(MB).fill(0x20), {
    level: 9,
    finishFlush: z.Z_FULL_FLUSH,
  });
  const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
  const parts: Uint8Array[] = [header];
  for (let i = 0; i < mib; i++) parts.push(block);
  parts.push(Uint8Array.of(3, 0, 0, 0, 0, 0, 0, 0, 0, 0)); // empty final block; CRC not computed
  return Buffer.concat(parts);
}

/** A loopback server answering every request with `bomb` as a chunked gzip stream (no
 * Content-Length to refuse it on), 256 KiB at a time. */
export function serveGzipBomb(bomb: Uint8Array) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= bomb.length) return c.close();
          c.enqueue(bomb.subarray(at, at + 256 * 1024));
          at += 256 * 1024;
        },
      });
      return new Response(body, { headers: { "content-encoding": "gzip" } });
    },
  });
}

let bombCache: Uint8Array | null = null;
let brBombCache: Uint8Array | null = null;

/** What the home page links to (a crawl of the site meets every trap from here). */
export const HOME_LINKS = [
  "/ok",
  "/gz",
  "/bomb",
  "/huge",
  "/slow",
  "/flaky",
  "/flaky500",
  "/limited",
  "/gateway",
  "/plain",
  "/noindex-header",
  "/redirect/chain-1",
  "/redirect/loop-a",
  "/redirect/to-loopback",
  "/redirect/to-internal",
  "/redirect/to-file",
  "/status/404",
  "/status/410",
  "/status/500",
  "/private/secret",
  "/calendar?month=1",
  "/a/",
  "/files/report.pdf",
  "mailto:someone@hostile.example",
  "https://elsewhere.org/",
];
const SITEMAP_PATHS = ["/", "/ok", "/status/410"];

export interface Hit {
  readonly host: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface HostileKnobs {
  /** Seconds /slow waits before its headers. */
  slowS: number;
  /** Milliseconds between the bytes of /drip. */
  dripMs: number;
  /** Bytes of /huge (a real HTML page, with Content-Length). */
  hugeBytes: number;
  /** robots.txt answer: a status, or a body for a 200. */
  robots: number | string;
}

export interface HostileSite {
  readonly base: string;
  readonly port: number;
  /** A raw listener that promises 100000 bytes, sends 1000 and closes the connection. */
  readonly dropUrl: string;
  /** A raw listener that announces a 500 MiB body, sends 1 KiB and stalls. */
  readonly hugeClUrl: string;
  readonly hits: Hit[];
  readonly ssrfHits: Hit[];
  readonly knobs: HostileKnobs;
  count(path: string): number;
  stop(): Promise<void>;
}

const html = (title: string, body = "") =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

function page(text: string, init: ResponseInit = {}): Response {
  return new Response(text, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...init.headers },
  });
}

function stream(
  pull: (c: ReadableStreamDefaultController<Uint8Array>) => Promise<void> | void,
  headers: Record<string, string>,
) {
  return new Response(new ReadableStream<Uint8Array>({ pull }), { headers });
}

/**
 * Raw TCP answers Bun.serve cannot give (it sends a streamed body chunked, without the
 * Content-Length we set): `/drop` promises 100000 bytes, sends 1000 and closes the connection;
 * `/huge-cl` announces 500 MiB, sends 1 KiB and stalls.
 */
async function rawServer(): Promise<NetServer> {
  const server = createServer((socket) => {
    socket.once("data", (data) => {
      const path = data.toString("latin1").split(" ")[1] ?? "/";
      const length = path === "/huge-cl" ? 500 * MB : 100_000;
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${length}\r\n\r\n${"x".repeat(1000)}`,
      );
      if (path === "/huge-cl") setTimeout(() => socket.destroy(), 5000);
      else setTimeout(() => socket.destroy(), 30);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

export async function startHostileSite(knobs: Partial<HostileKnobs> = {}): Promise<HostileSite> {
  const k: HostileKnobs = {
    slowS: 3,
    dripMs: 500,
    hugeBytes: 60 * MB,
    robots: "User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n",
    ...knobs,
  };
  const hits: Hit[] = [];
  const ssrfHits: Hit[] = [];
  const counts = new Map<string, number>();
  const drop = await rawServer();
  const dropPort = (drop.address() as { port: number }).port;
  let port = 0;

  const record = (req: Request, into: Hit[]) => {
    const u = new URL(req.url);
    const path = u.pathname + u.search;
    const headers: Record<string, string> = {};
    req.headers.forEach((v, key) => {
      headers[key] = v;
    });
    into.push({ host: req.headers.get("host") ?? "", path, headers });
    counts.set(u.pathname, (counts.get(u.pathname) ?? 0) + 1);
    return { u, n: counts.get(u.pathname) ?? 0 };
  };

  const routes = async (req: Request): Promise<Response> => {
    const { u, n } = record(req, hits);
    const p = u.pathname;
    switch (p) {
      case "/":
        return page(
          html("Hostile home", HOME_LINKS.map((l) => `<a href="${l}">${l}</a>`).join("\n")),
        );
      case "/sitemap.xml":
        return new Response(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${SITEMAP_PATHS.map((p) => `<url><loc>http://${req.headers.get("host")}${p}</loc><lastmod>2026-03-02</lastmod></url>`).join("")}</urlset>`,
          { headers: { "content-type": "application/xml" } },
        );
      case "/noindex-header":
        return page(html("Staging notes"), { headers: { "x-robots-tag": "noindex" } });
      case "/private/secret":
        return page(html("Private area"));
      case "/files/report.pdf":
        return new Response("%PDF-1.4", { headers: { "content-type": "application/pdf" } });
      case "/ok":
        return page("hello");
      case "/echo":
        return Response.json(Object.fromEntries(req.headers));
      case "/plain":
        return new Response("just text", { headers: { "content-type": "text/plain" } });
      case "/untyped":
        return new Response("<!doctype html><html><body>x</body></html>", {
          headers: { "content-type": "" },
        });
      case "/gz":
        return new Response(
          Bun.gzipSync(new TextEncoder().encode("<p>compressed page</p>".repeat(100))),
          {
            headers: { "content-encoding": "gzip", "content-type": "text/html" },
          },
        );
      case "/bomb":
        bombCache ??= gzipBomb(1024);
        return new Response(bombCache, {
          headers: { "content-encoding": "gzip", "content-type": "text/html" },
        });
      case "/br-bomb": {
        const { brotliCompressSync } = await import("node:zlib");
        brBombCache ??= brotliCompressSync(new Uint8Array(256 * MB), {
          params: { [z.BROTLI_PARAM_QUALITY]: 5 },
        });
        return new Response(brBombCache, {
          headers: { "content-encoding": "br", "content-type": "text/html" },
        });
      }
      case "/bad-gzip":
        return new Response("this is not gzip at all", { headers: { "content-encoding": "gzip" } });
      case "/big": {
        let sent = 0; // 4 MiB, chunked: no Content-Length to refuse early
        return stream(
          (c) => {
            if (sent++ >= 64) c.close();
            else c.enqueue(new Uint8Array(64 * 1024).fill(0x78));
          },
          { "content-type": "text/html" },
        );
      }
      case "/huge": {
        let sent = 0;
        const chunk = new TextEncoder().encode(`<p>${"This page never ends. ".repeat(2900)}</p>\n`);
        return stream(
          (c) => {
            if (sent >= k.hugeBytes) return c.close();
            const part = chunk.subarray(0, Math.min(chunk.byteLength, k.hugeBytes - sent));
            sent += part.byteLength;
            c.enqueue(part);
          },
          { "content-type": "text/html" },
        );
      }
      case "/slow":
        await Bun.sleep(k.slowS * 1000);
        return page("late");
      case "/drip":
        return stream(
          async (c) => {
            await Bun.sleep(k.dripMs);
            c.enqueue(new TextEncoder().encode("x"));
          },
          { "content-type": "text/html" },
        );
      case "/flaky":
        return n === 1
          ? new Response("busy", { status: 503, headers: { "retry-after": "1" } })
          : page("recovered");
      case "/flaky500":
        return n % 2 === 1 ? new Response("oops", { status: 500 }) : page("second try");
      case "/limited":
        return new Response("slow down", { status: 429, headers: { "retry-after": "3600" } });
      case "/throttle-once":
        return n === 1
          ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } })
          : page("thanks");
      case "/gateway":
        return new Response("bad gateway", { status: 502 });
      case "/cond":
        if (req.headers.get("if-none-match") === '"v1"')
          return new Response(null, { status: 304, headers: { etag: '"v1"' } });
        if (req.headers.get("if-modified-since")) return new Response(null, { status: 304 });
        return page("fresh", {
          headers: { etag: '"v1"', "last-modified": "Mon, 02 Mar 2026 10:00:00 GMT" },
        });
      case "/redirect":
        return new Response(null, { status: 302, headers: { location: "/ok" } });
      case "/redirect/chain-1":
        return new Response(null, { status: 301, headers: { location: "/redirect/chain-2" } });
      case "/redirect/chain-2":
        return new Response(null, { status: 302, headers: { location: "/redirect/final" } });
      case "/redirect/final":
        return page("where redirects end");
      case "/redirect/loop-a":
        return new Response(null, { status: 301, headers: { location: "/redirect/loop-b" } });
      case "/redirect/loop-b":
        return new Response(null, { status: 301, headers: { location: "/redirect/loop-a" } });
      case "/redirect/to-loopback":
        return new Response(null, {
          status: 302,
          headers: { location: `http://127.0.0.1:${port}/ssrf-target` },
        });
      case "/redirect/to-internal":
        return new Response(null, {
          status: 302,
          headers: { location: "http://internal.hostile.example/ssrf-target" },
        });
      case "/redirect/to-file":
        return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
      case "/redirect/to-other-site":
        return new Response(null, {
          status: 302,
          headers: { location: "http://elsewhere.example/robots.txt" },
        });
      case "/robots.txt":
        return typeof k.robots === "number"
          ? new Response("robots", { status: k.robots })
          : new Response(k.robots, { headers: { "content-type": "text/plain" } });
      case "/calendar": {
        const month = Number(u.searchParams.get("month") ?? "1") || 1;
        return page(
          html(`Calendar ${month}`, `<a href="/calendar?month=${month + 1}">Next month</a>`),
        );
      }
      case "/ssrf-target":
        return page("SSRF TARGET REACHED");
    }
    if (/^(\/a)+\/$/.test(p)) return page(html(`Level ${p.length / 2}`, '<a href="a/">Deeper</a>'));
    const status = /^\/status\/(\d{3})$/.exec(p)?.[1];
    if (status) return page(html(`Error ${status}`), { status: Number(status) });
    return page(html("Not found"), { status: 404 });
  };

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: routes, idleTimeout: 30 });
  port = server.port ?? 0;
  const internal = Bun.serve({
    hostname: "127.0.0.2",
    port,
    fetch(req) {
      record(req, ssrfHits);
      return page("SSRF TARGET REACHED");
    },
  });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    dropUrl: `http://127.0.0.1:${dropPort}/drop`,
    hugeClUrl: `http://127.0.0.1:${dropPort}/huge-cl`,
    hits,
    ssrfHits,
    knobs: k,
    count: (path) => counts.get(path) ?? 0,
    async stop() {
      await Promise.all([server.stop(true), internal.stop(true)]);
      await new Promise<void>((resolve) => drop.close(() => resolve()));
    },
  };
}
