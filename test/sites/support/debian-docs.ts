/**
 * The Debian documentation packages the doc sites are served from, unpacked into a cache dir
 * (`WEBCORPUS_TEST_CACHE`, default `<repo>/.cache/sites`, git-ignored). On a fresh machine they
 * are fetched here: `apt-get download` (after `apt-get update` when that fails), then `dpkg-deb
 * -x` into a scratch dir whose HTML tree is renamed into place, so two processes racing on an
 * empty cache never serve a half-unpacked tree. An unpacked tree is only ever read.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

export interface DocPackage {
  /** The Debian package. */
  readonly name: string;
  /** Its HTML tree, relative to the unpacked root. */
  readonly html: string;
  /** A file of that tree present once it is unpacked. */
  readonly marker: string;
}

export const PYTHON_DOCS: DocPackage = {
  name: "python3.11-doc",
  html: "usr/share/doc/python3.11/html",
  marker: "index.html",
};
export const POSTGRES_DOCS: DocPackage = {
  name: "postgresql-doc-15",
  html: "usr/share/doc/postgresql-doc-15/html",
  marker: "index.html",
};
export const HANDBOOK_DOCS: DocPackage = {
  name: "debian-handbook",
  html: "usr/share/doc/debian-handbook/html",
  marker: "en-US/index.html",
};
export const DOC_PACKAGES: readonly DocPackage[] = [PYTHON_DOCS, POSTGRES_DOCS, HANDBOOK_DOCS];

export const REPO_ROOT = resolve(import.meta.dir, "../../..");

export function defaultCacheDir(): string {
  return process.env.WEBCORPUS_TEST_CACHE || join(REPO_ROOT, ".cache", "sites");
}

/** The HTML tree of each package under `<cache>/root`, fetched and unpacked when missing. */
export function ensureDebianDocs(cacheDir = defaultCacheDir()): string {
  return ensureDebianPackages(DOC_PACKAGES, cacheDir);
}

/** The R manuals as PDFs (the PDF site test serves them). */
export const R_MANUALS: DocPackage = {
  name: "r-doc-pdf",
  html: "usr/share/R/doc/manual",
  marker: "R-intro.pdf",
};

/** Each package's tree (`html`) under `<cache>/root`, fetched and unpacked when missing. */
export function ensureDebianPackages(
  packages: readonly DocPackage[],
  cacheDir = defaultCacheDir(),
): string {
  const root = join(cacheDir, "root");
  for (const pkg of packages) {
    if (unpacked(root, pkg)) continue;
    const deb = download(join(cacheDir, "debs"), pkg.name);
    unpack(deb, root, pkg, cacheDir);
    if (!unpacked(root, pkg))
      throw new Error(`${deb} unpacked, but ${join(root, pkg.html, pkg.marker)} is missing`);
  }
  return root;
}

function unpacked(root: string, pkg: DocPackage): boolean {
  return existsSync(join(root, pkg.html, pkg.marker));
}

interface Run {
  readonly ok: boolean;
  readonly output: string;
}

function run(cmd: string[], cwd?: string): Run {
  try {
    const out = Bun.spawnSync(cmd, { ...(cwd ? { cwd } : {}), stdout: "pipe", stderr: "pipe" });
    return { ok: out.exitCode === 0, output: `${out.stdout.toString()}${out.stderr.toString()}` };
  } catch (err) {
    return { ok: false, output: String(err) };
  }
}

function findDeb(dir: string, name: string): string | null {
  if (!existsSync(dir)) return null;
  const found = readdirSync(dir)
    .filter((f) => f.startsWith(`${name}_`) && f.endsWith(".deb"))
    .sort();
  const last = found.at(-1);
  return last ? join(dir, last) : null;
}

function download(dir: string, name: string): string {
  const cached = findDeb(dir, name);
  if (cached) return cached;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`doc sites: downloading ${name} into ${dir}\n`);
  // As root, apt's _apt sandbox user could not write here: stay root for the download.
  const get = () => run(["apt-get", "download", "-qq", "-o", "APT::Sandbox::User=root", name], dir);
  let attempt = get();
  if (!attempt.ok) {
    const update = run(["apt-get", "update", "-qq"]);
    attempt = get();
    if (!attempt.ok) {
      throw new Error(
        `the doc sites need the Debian package ${name}, and it could not be downloaded into ${dir}` +
          ` (apt-get download: ${attempt.output.trim() || "failed"}; apt-get update: ${update.ok ? "ok" : update.output.trim()}).` +
          " Run the suite as root on Debian 12, or set WEBCORPUS_TEST_CACHE to a dir whose root/ holds the unpacked packages.",
      );
    }
  }
  const deb = findDeb(dir, name);
  if (!deb) throw new Error(`apt-get download ${name} left no ${name}_*.deb in ${dir}`);
  return deb;
}

function unpack(deb: string, root: string, pkg: DocPackage, cacheDir: string): void {
  process.stderr.write(`doc sites: unpacking ${deb}\n`);
  const scratch = join(cacheDir, `.unpack-${pkg.name}-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  try {
    const out = run(["dpkg-deb", "-x", deb, scratch]);
    if (!out.ok) throw new Error(`dpkg-deb -x ${deb} failed: ${out.output.trim()}`);
    const target = join(root, pkg.html);
    mkdirSync(resolve(target, ".."), { recursive: true });
    try {
      renameSync(join(scratch, pkg.html), target);
    } catch (err) {
      // Another process renamed its copy into place first: that one is served.
      if (!unpacked(root, pkg)) throw err;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
