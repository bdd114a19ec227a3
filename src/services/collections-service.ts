/** Shelves (collections) of companies: list, read, create/update, place and remove members. */
import type { Config } from "../config.ts";
import { DomainError, validateRootDomain } from "../crawl/domains.ts";
import type { Db } from "../db/client.ts";
import {
  deleteMember,
  getShelf,
  insertShelf,
  listShelves,
  putMember,
  putShelf,
  type ShelfRow,
  shelfMembers,
} from "../db/collections-repo.ts";
import { counted } from "../plural.ts";
import { isoNow } from "./clock.ts";
import type { ListPage } from "./envelope.ts";
import { conflict, invalidBody, invalidParam, notFound, ServiceError } from "./errors.ts";
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

/** Slugs named in a 404 for an unknown `collection`; past this, how many more. */
const SLUGS_SHOWN = 50;

/**
 * The `collection` filter of a read (content, search, facets; HTTP and MCP alike) names a shelf
 * that exists, or the read answers 404 with the shelves there are, rather than an empty list.
 */
export function requireShelf(db: Db, slug: string | null): void {
  if (slug === null || getShelf(db, slug)) return;
  const { rows, total } = listShelves(db, SLUGS_SHOWN, 0);
  throw unknownShelf(
    slug,
    rows.map((r) => r.slug),
    total,
  );
}

/** The 404 of a `collection` filter naming no shelf: the shelves there are (the first `slugs`). */
export function unknownShelf(slug: string, slugs: readonly string[], total: number): ServiceError {
  const more = total > slugs.length ? ` and ${total - slugs.length} more` : "";
  const message =
    total === 0
      ? "there are no shelves yet; make one with PUT /api/collections/{slug} or `webcorpus shelves put SLUG`"
      : `there ${total === 1 ? "is" : "are"} ${counted(total, "shelf", "shelves")}: ${slugs.join(", ")}${more}`;
  return new ServiceError("not_found", `collection ${slug} not found: ${message}`, {
    errors: [{ param: "collection", message: `no shelf ${slug}; ${message}` }],
  });
}

/** The 409 of an agent's placement that would change a person's. */
export function personPlacement(domain: string, slug: string, reason: string): ServiceError {
  return conflict(
    `${domain} is on ${slug}, placed by a person${reason ? ` (reason: ${reason})` : ""}; an agent cannot change a person's placement`,
  );
}

function members(db: Db, slug: string) {
  return shelfMembers(db, slug).map((m) => ({ ...m, crawled: m.pages > 0 }));
}

/**
 * A shelf's name is one line of text, as a key's name is: no control or format characters, no
 * line or paragraph separators (a NUL or an escape sequence would reach every list and terminal
 * that shows it). A description may hold format characters (emoji joiners) but no line breaks:
 * lists show it on the shelf's line.
 */
const NOT_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const NOT_IN_DESCRIPTION = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const CONTROL_MESSAGE = "must not contain tabs, newlines or control characters";

function shelfName(field: string, raw: string): string {
  const name = raw.trim();
  if (!name) throw invalidBody(field, "must not be empty");
  if (NOT_IN_NAME.test(name)) throw invalidBody(field, CONTROL_MESSAGE);
  return name;
}

export function putCollection(
  db: Db,
  rawSlug: string,
  body: { name: string; description?: string },
) {
  const slug = checkSlug(rawSlug);
  const name = shelfName("name", body.name);
  const description = (body.description ?? "").trim();
  if (NOT_IN_DESCRIPTION.test(description)) throw invalidBody("description", CONTROL_MESSAGE);
  const created = putShelf(db, slug, name, description, isoNow());
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

/** A shelf's name from its slug: "dev-tools" → "Dev tools". */
const nameOf = (slug: string) => {
  const words = slug.replace(/-+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * Places a company on a shelf. `placed_by: "agent"` never changes a person's placement: the same
 * or no reason answers the placement as it stands; another reason is a conflict saying so.
 * `createShelf` (the MCP tool) makes a missing shelf, described as made by an agent.
 */
export function placeOnShelf(
  db: Db,
  config: Config,
  rawSlug: string,
  body: { domain: string; reason?: string; placed_by?: PlacedBy },
  options: { createShelf?: { name?: string } } = {},
) {
  const slug = checkSlug(rawSlug);
  const domain = rootDomain(config, body.domain, "field");
  const reason = (body.reason ?? "").trim();
  const placedBy = body.placed_by ?? "person";
  const at = isoNow();
  let shelfCreated = false;
  if (options.createShelf && !getShelf(db, slug)) {
    const given = options.createShelf.name;
    const name = given?.trim() ? shelfName("shelf_name", given) : nameOf(slug);
    shelfCreated = insertShelf(db, { slug, name, description: "Made by an agent.", at });
  }
  const result = putMember(db, { slug, domain, reason, placedBy, at });
  if (result.outcome === "no_shelf") throw notFound(`collection ${slug}`);
  if (result.outcome === "kept" && reason && reason !== result.reason) {
    throw personPlacement(domain, slug, result.reason);
  }
  const member = members(db, slug).find((m) => m.domain === domain);
  if (!member) throw notFound(`${domain} on collection ${slug}`);
  return { member, created: result.outcome === "created", shelfCreated };
}

export function removeFromShelf(db: Db, config: Config, rawSlug: string, rawDomain: string): void {
  const slug = checkSlug(rawSlug);
  const domain = rootDomain(config, rawDomain, "param");
  if (!getShelf(db, slug)) throw notFound(`collection ${slug}`);
  if (!deleteMember(db, slug, domain)) throw notFound(`${domain} on collection ${slug}`);
}
