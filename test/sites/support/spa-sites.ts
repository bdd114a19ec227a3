/**
 * Client-side apps on loopback for the render tests and benchmark: a React app (react-router,
 * content fetched as JSON), a Vue app (vue-router) and a docsify site (history mode), each built
 * from npm packages with Bun.build into a temp dir at test time and served by Bun.serve with the
 * SPA fallback (a path without a file answers the app's index.html). Every site stands for a
 * public-looking host through WEBCORPUS_CONNECT_TO.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOCSIFY_PAGES, REACT_PAGES, type SpaPage, VUE_PAGES } from "./spa/content.ts";

export const SPA_NAMES = ["react", "vue", "docsify"] as const;
export type SpaName = (typeof SPA_NAMES)[number];

export interface SpaSite {
  readonly name: SpaName;
  readonly host: string;
  readonly port: number;
  readonly pages: readonly SpaPage[];
  readonly hits: string[];
  connectTo(): string;
  url(path: string): string;
  stop(): Promise<void>;
}

interface File {
  readonly body: string | Uint8Array;
  readonly type: string;
}

const HERE = import.meta.dir;
const JS = "text/javascript; charset=utf-8";

/** An entry point bundled for the browser (production React and Vue) into a temp dir. */
async function bundle(entry: string): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), "webcorpus-spa-"));
  try {
    const built = await Bun.build({
      entrypoints: [join(HERE, "spa", entry)],
      outdir,
      target: "browser",
      minify: true,
      define: {
        "process.env.NODE_ENV": JSON.stringify("production"),
        __VUE_OPTIONS_API__: "true",
        __VUE_PROD_DEVTOOLS__: "false",
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
      },
    });
    if (!built.success) throw new Error(built.logs.map(String).join("\n"));
    const out = built.outputs.find((o) => o.kind === "entry-point");
    if (!out) throw new Error(`${entry}: no bundle`);
    return readFileSync(out.path, "utf8");
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const shell = (title: string, mount: string, scripts: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><div id="${mount}"></div><noscript>You need to enable JavaScript to run this app.</noscript>${scripts}</body></html>`;

async function files(name: SpaName): Promise<{ index: string; files: Record<string, File> }> {
  if (name === "react") {
    const data: Record<string, File> = {};
    for (const p of REACT_PAGES)
      data[`/data${p.path}.json`] = { body: JSON.stringify(p), type: "application/json" };
    return {
      index: shell("Harbor", "root", `<script type="module" src="/assets/app.js"></script>`),
      files: { "/assets/app.js": { body: await bundle("react-app.jsx"), type: JS }, ...data },
    };
  }
  if (name === "vue") {
    return {
      index: shell("Meadow", "app", `<script type="module" src="/assets/app.js"></script>`),
      files: { "/assets/app.js": { body: await bundle("vue-app.js"), type: JS } },
    };
  }
  const markdown = "text/markdown; charset=utf-8";
  const docs: Record<string, File> = {};
  for (const p of DOCSIFY_PAGES) {
    const file = p.path === "/" ? "/README.md" : `${p.path}.md`;
    docs[file] = { body: `# ${p.title}\n\n${p.paragraphs.join("\n\n")}\n`, type: markdown };
  }
  const sidebar = DOCSIFY_PAGES.map((p) => `- [${p.title.split(" ")[1]}](${p.path})`).join("\n");
  docs["/_sidebar.md"] = { body: `${sidebar}\n`, type: markdown };
  const docsify = readFileSync(join(HERE, "../../../node_modules/docsify/dist/docsify.min.js"));
  const config = `<script>window.$docsify = { name: "Lantern", routerMode: "history", loadSidebar: true };</script>`;
  return {
    index: shell("Lantern", "app", `${config}<script src="/assets/docsify.js"></script>`),
    files: { "/assets/docsify.js": { body: docsify, type: JS }, ...docs },
  };
}

const PAGES: Record<SpaName, readonly SpaPage[]> = {
  react: REACT_PAGES,
  vue: VUE_PAGES,
  docsify: DOCSIFY_PAGES,
};

/** Builds and serves one app as `host`. */
export async function serveSpa(name: SpaName, host = `${name}-app.test`): Promise<SpaSite> {
  const built = await files(name);
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      hits.push(pathname);
      const file = built.files[pathname];
      if (file) return new Response(file.body, { headers: { "content-type": file.type } });
      // A file that is not there is a 404; any other path is a route of the app.
      if (/\.[a-z0-9]+$/i.test(pathname)) return new Response("not found", { status: 404 });
      return new Response(built.index, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  const port = server.port ?? 0;
  return {
    name,
    host,
    port,
    pages: PAGES[name],
    hits,
    connectTo: () => `${host}:80:127.0.0.1:${port}`,
    url: (path) => `http://${host}${path}`,
    stop: () => server.stop(true),
  };
}
