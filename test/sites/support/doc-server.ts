/**
 * One `Bun.serve` on loopback answering every doc-site host by its Host header, straight from the
 * unpacked Debian tree, as nginx would: ETag and Last-Modified from the file (its mtime), 304 on a
 * matching If-None-Match or an If-Modified-Since not older than the file, gzip for text when
 * asked (weak ETag then), 301 from a directory without its slash and from alias hosts. An
 * in-memory overlay changes, adds or deletes a page during a test; `reset()` drops it. The tree
 * is never written to.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { allHosts, type DocSite, type DocSites, type Mount } from "./doc-sites.ts";

export interface Hit {
  readonly host: string;
  readonly path: string;
  readonly status: number;
  /** Date.now() when answered. */
  readonly at: number;
}

export interface DocServer {
  readonly port: number;
  /** A loopback port nothing listens on: a connection there is refused at once. */
  readonly refusedPort: number;
  readonly sites: DocSites;
  /** Requests answered so far (when recording). */
  readonly hits: Hit[];
  /** WEBCORPUS_CONNECT_TO rules (every host by default): port 80 here, 443 refused. */
  connectTo(hosts?: readonly string[]): string;
  /** Serves `body` at `path` on `host` from now on (a new or changed page). */
  write(host: string, path: string, body: string | Uint8Array): void;
  /** `path` on `host` answers 404 from now on. */
  remove(host: string, path: string): void;
  /** Drops every write and removal. */
  reset(): void;
  stop(): Promise<void>;
}

const MIME: Readonly<Record<string, string>> = {
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  txt: "text/plain",
  xml: "text/xml",
  js: "application/javascript",
  json: "application/json",
  gz: "application/gzip",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  woff: "font/woff",
  woff2: "font/woff2",
};
const GZIP_TYPES = new Set([
  "text/html",
  "text/css",
  "text/plain",
  "text/xml",
  "application/xml",
  "application/javascript",
  "application/json",
]);
const GZIP_MIN = 256;

interface Representation {
  readonly body: Uint8Array | (() => Uint8Array);
  readonly type: string;
  readonly mtimeMs: number;
  readonly etag: string;
}

type Resolved =
  | { readonly kind: "file"; readonly rep: Representation }
  | { readonly kind: "redirect"; readonly location: string }
  | { readonly kind: "status"; readonly status: number };

const NOT_FOUND: Resolved = { kind: "status", status: 404 };
const HTML_404 =
  "<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>\n";

function typeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return MIME[ext] ?? "application/octet-stream";
}

function closedPort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

const fileEtag = (mtimeMs: number, size: number) =>
  `"${Math.floor(mtimeMs / 1000).toString(16)}-${size.toString(16)}"`;

function fromMount(mount: Mount, rel: string): Resolved {
  const file = join(mount.dir, rel.endsWith("/") || rel === "" ? `${rel}index.html` : rel);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return NOT_FOUND;
  if (stat.isDirectory()) return { kind: "redirect", location: "" }; // caller appends the slash
  if (!stat.isFile()) return NOT_FOUND;
  const type = typeOf(file);
  const { rewrite } = mount;
  const read = (): Uint8Array => {
    const bytes = new Uint8Array(readFileSync(file));
    if (!rewrite || type !== "text/html") return bytes;
    const text = new TextDecoder().decode(bytes);
    return text.includes(rewrite.from)
      ? new TextEncoder().encode(text.replaceAll(rewrite.from, rewrite.to))
      : bytes;
  };
  return {
    kind: "file",
    rep: { body: read, type, mtimeMs: stat.mtimeMs, etag: fileEtag(stat.mtimeMs, stat.size) },
  };
}

/** What `path` (decoded, absolute) answers on `site`, before the overlay. */
export function resolvePath(site: DocSite, path: string): Resolved {
  const target = site.redirects[path];
  if (target) return { kind: "redirect", location: target };
  const generated = site.generated.get(path.endsWith("/") ? `${path}index.html` : path);
  if (generated) {
    return {
      kind: "file",
      rep: {
        ...generated,
        etag: fileEtag(generated.mtimeMs, generated.body.length),
      },
    };
  }
  for (const mount of site.mounts) {
    if (!path.startsWith(mount.prefix)) continue;
    const found = fromMount(mount, path.slice(mount.prefix.length));
    return found.kind === "redirect" ? { kind: "redirect", location: `${path}/` } : found;
  }
  // A directory on the way to a mount: /docs/15 -> /docs/15/; /browse/ has no index (403).
  const dir = path.endsWith("/") ? path : `${path}/`;
  if (site.mounts.some((m) => m.prefix.startsWith(dir)))
    return dir === path ? { kind: "status", status: 403 } : { kind: "redirect", location: dir };
  return NOT_FOUND;
}

function decodePath(raw: string): string | null {
  try {
    const path = decodeURIComponent(raw);
    if (path.includes("\0") || path.split("/").some((s) => s === "..")) return null;
    return path;
  } catch {
    return null;
  }
}

function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  return /(^|[,\s])gzip(?!\s*;\s*q=0(\.0*)?\s*(,|$))/i.test(header);
}

function notModified(request: Request, rep: Representation, etag: string): boolean {
  const match = request.headers.get("if-none-match");
  if (match !== null) {
    const bare = (t: string) => t.trim().replace(/^W\//, "");
    return match.trim() === "*" || match.split(",").some((t) => bare(t) === bare(etag));
  }
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return Number.isFinite(since) && Math.floor(rep.mtimeMs / 1000) * 1000 <= since;
}

export interface ServeOptions {
  /** Record every request in `hits` (default true; the benchmark's server does not). */
  readonly record?: boolean;
}

export function serveDocSites(sites: DocSites, options: ServeOptions = {}): DocServer {
  const byHost = new Map<string, DocSite>();
  const aliasOf = new Map<string, DocSite>();
  for (const site of sites.all) {
    byHost.set(site.host, site);
    for (const alias of site.aliases) aliasOf.set(alias, site);
  }
  const overlay = new Map<string, Representation | null>();
  const gzipped = new Map<string, Uint8Array>();
  const hits: Hit[] = [];
  const record = options.record ?? true;

  const answer = (request: Request): Response => {
    const url = new URL(request.url);
    const host = (request.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
    const alias = aliasOf.get(host);
    if (alias) return redirect(`http://${alias.host}${url.pathname}${url.search}`);
    const site = byHost.get(host);
    const path = decodePath(url.pathname);
    if (!site || path === null) return status(404);
    const key = `${host}${path}`;
    const resolved: Resolved = overlay.has(key)
      ? (() => {
          const rep = overlay.get(key);
          return rep ? { kind: "file", rep } : NOT_FOUND;
        })()
      : resolvePath(site, path);
    if (resolved.kind === "redirect") return redirect(resolved.location);
    if (resolved.kind === "status") return status(resolved.status);
    const { rep } = resolved;
    const gzip = GZIP_TYPES.has(rep.type) && acceptsGzip(request);
    const etag = gzip ? `W/${rep.etag}` : rep.etag;
    const headers: Record<string, string> = {
      "content-type": rep.type,
      "last-modified": new Date(rep.mtimeMs).toUTCString(),
      etag,
    };
    if (GZIP_TYPES.has(rep.type)) headers.vary = "Accept-Encoding";
    if (notModified(request, rep, etag)) return new Response(null, { status: 304, headers });
    const plain = typeof rep.body === "function" ? rep.body() : rep.body;
    if (!gzip || plain.length < GZIP_MIN) return new Response(plain, { headers });
    const cacheKey = `${key}\n${rep.etag}`;
    let packed = gzipped.get(cacheKey);
    if (!packed) {
      packed = Bun.gzipSync(plain as Uint8Array<ArrayBuffer>, { level: 1 });
      gzipped.set(cacheKey, packed);
    }
    headers["content-encoding"] = "gzip";
    return new Response(packed, { headers });
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const response = answer(request);
      if (record) {
        const url = new URL(request.url);
        hits.push({
          host: (request.headers.get("host") ?? "").replace(/:\d+$/, ""),
          path: url.pathname + url.search,
          status: response.status,
          at: Date.now(),
        });
      }
      return response;
    },
  });
  const port = server.port ?? 0;
  const refusedPort = closedPort();
  return {
    port,
    refusedPort,
    sites,
    hits,
    connectTo(hosts = allHosts(sites)) {
      return hosts
        .flatMap((h) => [`${h}:80:127.0.0.1:${port}`, `${h}:443:127.0.0.1:${refusedPort}`])
        .join(",");
    },
    write(host, path, body) {
      const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
      const mtimeMs = Date.now();
      const file = path.endsWith("/") ? `${path}index.html` : path;
      const rep: Representation = {
        body: bytes,
        type: typeOf(file),
        mtimeMs,
        etag: `"ov-${Bun.hash(bytes).toString(16)}-${bytes.length.toString(16)}"`,
      };
      overlay.set(`${host}${path}`, rep);
      if (path.endsWith("/")) overlay.set(`${host}${file}`, rep);
    },
    remove(host, path) {
      overlay.set(`${host}${path}`, null);
    },
    reset() {
      overlay.clear();
    },
    async stop() {
      await server.stop(true);
    },
  };
}

function redirect(location: string): Response {
  return new Response(null, { status: 301, headers: { location } });
}

function status(code: number): Response {
  return new Response(code === 404 ? HTML_404 : `<html><body><h1>${code}</h1></body></html>\n`, {
    status: code,
    headers: { "content-type": "text/html" },
  });
}
