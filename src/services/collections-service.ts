/** Shelves (collections) of companies: list, read, create/update, place and remove members. */
import type { Config } from "../config.ts";
import { DomainError, validateRootDomain } from "../crawl/domains.ts";
import type { Db } from "../db/client.ts";
import {
  deleteMember,
  getShelf,
  listShelves,
  putMember,
  putShelf,
  type ShelfRow,
  shelfMembers,
} from "../db/collections-repo.ts";
import { isoNow } from "./clock.ts";
import type { ListPage } from "./envelope.ts";
import { invalidBody, invalidParam, notFound } from "./errors.ts";
import { checkSlug } from "./params.ts";

export type PlacedBy = "person" | "agent";

export function listCollections(db: Db, limit: number, offset: number) {
  return listShelves(db, limit, offset);
}

/** Every shelf (at most 1000), as the list envelope pages it. */
export function shelfList(db: Db): ListPage<ShelfRow> {
  const { rows, total } = listShelves(db, 1000, 0);
  return { data: rows, total, limit: 1000, offset: 0, sort: "slug", applied: {} };
}

export function collectionView(
  db: Db,
  rawSlug: string,
): ShelfRow & { members: ReturnType<typeof members> } {
  const slug = checkSlug(rawSlug);
  const shelf = getShelf(db, slug);
  if (!shelf) throw notFound(`collection ${slug}`);
  return { ...shelf, members: members(db, slug) };
}

function members(db: Db, slug: string) {
  return shelfMembers(db, slug).map((m) => ({ ...m, crawled: m.pages > 0 }));
}

export function putCollection(
  db: Db,
  rawSlug: string,
  body: { name: string; description?: string },
) {
  const slug = checkSlug(rawSlug);
  const name = body.name.trim();
  if (!name) throw invalidBody("name", "must not be empty");
  const created = putShelf(db, slug, name, (body.description ?? "").trim(), isoNow());
  return { shelf: collectionView(db, slug), created };
}

function rootDomain(config: Config, value: string, where: "field" | "param"): string {
  try {
    return validateRootDomain(value, { allowPrivateSuffixes: config.allowPrivateSuffixes });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw where === "field"
      ? invalidBody("domain", err.message)
      : invalidParam("domain", err.message);
  }
}

export function placeOnShelf(
  db: Db,
  config: Config,
  rawSlug: string,
  body: { domain: string; reason?: string; placed_by?: PlacedBy },
) {
  const slug = checkSlug(rawSlug);
  const domain = rootDomain(config, body.domain, "field");
  const created = putMember(db, {
    slug,
    domain,
    reason: (body.reason ?? "").trim(),
    placedBy: body.placed_by ?? "person",
    at: isoNow(),
  });
  if (created === null) throw notFound(`collection ${slug}`);
  const member = members(db, slug).find((m) => m.domain === domain);
  if (!member) throw notFound(`${domain} on collection ${slug}`);
  return { member, created };
}

export function removeFromShelf(db: Db, config: Config, rawSlug: string, rawDomain: string): void {
  const slug = checkSlug(rawSlug);
  const domain = rootDomain(config, rawDomain, "param");
  if (!getShelf(db, slug)) throw notFound(`collection ${slug}`);
  if (!deleteMember(db, slug, domain)) throw notFound(`${domain} on collection ${slug}`);
}
