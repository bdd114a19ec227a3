/**
 * The meaning of filter values, shared by the HTTP and MCP adapters. The schemas have checked
 * types and bounds; these rules normalize values (lists, root domains, language tags, dates),
 * check vocabularies and say what `filters.applied` echoes.
 */
import { DomainError, validateRootDomain } from "../crawl/domains.ts";
import { normalizeTag } from "../facets/bcp47.ts";
import { invalidParam } from "./errors.ts";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A list argument as the comma list the HTTP parameter takes (MCP passes arrays too). */
export function joinList(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === "string" ? value : value.join(",");
}

export function splitList(
  param: string,
  value: string | undefined,
  vocabulary?: readonly string[],
): string[] {
  if (value === undefined) return [];
  const items = value
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  if (items.length === 0) throw invalidParam(param, "must not be empty");
  if (vocabulary) {
    const bad = items.filter((v) => !vocabulary.includes(v));
    if (bad.length > 0) {
      throw invalidParam(
        param,
        `unknown value(s) ${bad.join(", ")}; allowed: ${vocabulary.join(", ")}`,
      );
    }
  }
  return [...new Set(items)];
}

export function parseDomains(value: string | undefined, allowPrivateSuffixes: boolean): string[] {
  return [
    ...new Set(
      splitList("domain", value).map((item) => {
        try {
          return validateRootDomain(item, { allowPrivateSuffixes });
        } catch (err) {
          if (err instanceof DomainError) throw invalidParam("domain", err.message);
          throw err;
        }
      }),
    ),
  ];
}

/** Language tags as pages write them (`en-US`, `zh-Hant-TW`, `he` for `iw`); matching ignores case. */
export function parseLocales(value: string | undefined): string[] {
  const out: string[] = [];
  for (const item of splitList("locale", value)) {
    const parts = item.split("-");
    const lang = parts[0] ?? "";
    if (!/^[a-z]{2,3}$/.test(lang) || !parts.every((p) => /^[a-z0-9]{1,8}$/.test(p))) {
      throw invalidParam(
        "locale",
        `${JSON.stringify(item)} is not a BCP 47 tag such as de or en-US`,
      );
    }
    out.push(normalizeTag(item) ?? item);
  }
  return [...new Set(out)];
}

export interface PublishedAfter {
  /** As `filters.applied` shows it: the date, or the time in UTC (RFC 3339). */
  readonly applied: string;
  /** Pages published strictly after this date (YYYY-MM-DD). */
  readonly after: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 1 &&
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d
  );
}

/**
 * A date keeps pages published after that day. Pages carry a date without a time, so a time keeps
 * pages published on its day (in UTC) too: they may well be after it.
 */
export function parsePublishedAfter(value: string | undefined): PublishedAfter | null {
  if (value === undefined) return null;
  const text = value.trim();
  const bad = () =>
    invalidParam("published_after", "must be a date (YYYY-MM-DD) or an RFC 3339 time");
  if (text.length === 10) {
    if (!validDate(text)) throw bad();
    return { applied: text, after: text };
  }
  const m = TIME.exec(text);
  if (!m?.[1] || !validDate(m[1])) throw bad();
  if (!m[6]) {
    throw invalidParam("published_after", "a time needs its offset, e.g. 2026-03-02T09:00:00Z");
  }
  const ms = Date.parse(
    `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}${m[5] ?? ""}${m[6].toUpperCase()}`,
  );
  if (Number.isNaN(ms)) throw bad();
  const utc = new Date(ms);
  const dayBefore = new Date(
    Date.UTC(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate() - 1),
  );
  if (utc.getUTCFullYear() < 1 || dayBefore.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) {
    throw invalidParam("published_after", "must be a time from 0001-01-02 to 9999-12-31 in UTC");
  }
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  // toISOString writes years 0-9999 as four digits.
  return { applied: `${utc.toISOString().slice(0, 19)}Z`, after: iso(dayBefore) };
}

/** A shelf's slug, lowercased as the `collection` filter takes it. */
export function checkSlug(slug: string, param = "slug"): string {
  const value = slug.trim().toLowerCase();
  if (!SLUG.test(value)) {
    throw invalidParam(
      param,
      "must be 1-63 letters, digits or hyphens, not starting with a hyphen",
    );
  }
  return value;
}

export function parseCollection(value: string | undefined): string | null {
  return value === undefined ? null : checkSlug(value, "collection");
}

export function checkQ(q: string | undefined): string | null {
  if (q === undefined) return null;
  if (!q.trim()) throw invalidParam("q", "must not be empty");
  return q;
}

/** Drops the filters a query did not use, for `filters.applied`. */
export function applied(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}
