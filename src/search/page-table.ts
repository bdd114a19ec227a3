/**
 * The pages of a shard and their facets, one row per page rather than per chunk: facets are a
 * page's, so a filter is decided once per page and a re-scored page changes one row. Orama's
 * default keeps a FlatTree or AVL tree per facet with a Set entry per chunk, and `where` builds a
 * Set of every matching chunk id per clause per query.
 *
 * `matchWhere` decides Orama `where` clauses on these rows: enum facets (`eq`, `in`, `nin`),
 * enum[] facets (`containsAny`, `containsAll`), number facets (`eq`, `gt`, `gte`, `lt`, `lte`,
 * `between`) and `and` / `or` / `not`, with Orama's meaning. Anything else throws.
 */

export type FacetKind = "enum" | "enum[]" | "number";
export type FacetValue = string | number | readonly (string | number)[];

export class WhereError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WhereError";
  }
}

interface PageRow {
  id: string;
  /** Live chunks of the page in the shard. */
  chunks: number;
  /** The caller's version of the page (e.g. a content hash), "" when none was given. */
  version: string;
  /** Facet codes: enum → code (-1 none), enum[] → codes, number → value (NaN none). */
  facets: (number | number[])[];
}

export interface PageTableRaw {
  readonly facets: readonly { name: string; kind: FacetKind; values: (string | number)[] }[];
  readonly pages: readonly { id: string; version: string; facets: (number | number[])[] }[];
}

export class PageTable {
  readonly #names: string[];
  readonly #kinds: FacetKind[];
  readonly #dictionaries: Map<string | number, number>[];
  readonly #values: (string | number)[][];
  #rows: (PageRow | undefined)[] = [];
  #byId = new Map<string, number>();
  #free: number[] = [];

  constructor(facets: Record<string, FacetKind>) {
    this.#names = Object.keys(facets);
    this.#kinds = Object.values(facets);
    this.#dictionaries = this.#names.map(() => new Map());
    this.#values = this.#names.map(() => []);
  }

  /** Pages with at least one live chunk or a row not yet released. */
  get size(): number {
    return this.#byId.size;
  }

  /** Upper bound of row numbers (for per-row arrays). */
  get rowCount(): number {
    return this.#rows.length;
  }

  facetIndex(name: string): number {
    return this.#names.indexOf(name);
  }

  /** The row of page `id`, created empty when new. */
  intern(id: string): number {
    const known = this.#byId.get(id);
    if (known !== undefined) return known;
    const row = this.#free.pop() ?? this.#rows.length;
    this.#rows[row] = { id, chunks: 0, version: "", facets: this.#kinds.map(emptyCode) };
    this.#byId.set(id, row);
    return row;
  }

  row(id: string): number | undefined {
    return this.#byId.get(id);
  }

  pageId(row: number): string {
    return this.#rows[row]?.id ?? "";
  }

  addChunk(row: number): void {
    const page = this.#rows[row];
    if (page) page.chunks++;
  }

  /** One chunk of the page is gone; the row is freed with its last chunk. */
  removeChunk(row: number): void {
    const page = this.#rows[row];
    if (!page) return;
    page.chunks--;
    if (page.chunks <= 0) {
      this.#byId.delete(page.id);
      this.#rows[row] = undefined;
      this.#free.push(row);
    }
  }

  chunkCount(row: number): number {
    return this.#rows[row]?.chunks ?? 0;
  }

  setVersion(row: number, version: string): void {
    const page = this.#rows[row];
    if (page) page.version = version;
  }

  /** Every page and its version. */
  versions(): Map<string, string> {
    const out = new Map<string, string>();
    for (const page of this.#rows) if (page) out.set(page.id, page.version);
    return out;
  }

  /** Sets facet `name` of the page in `row` (undefined clears it). */
  setFacet(row: number, name: string, value: FacetValue | undefined): void {
    const page = this.#rows[row];
    const f = this.#names.indexOf(name);
    if (!page || f < 0) throw new WhereError(`${name} is not a facet of this shard`);
    const kind = this.#kinds[f] as FacetKind;
    if (value === undefined) {
      page.facets[f] = emptyCode(kind);
    } else if (kind === "number") {
      page.facets[f] = Number(value);
    } else if (kind === "enum") {
      page.facets[f] = this.#code(f, value as string | number);
    } else {
      const list = Array.isArray(value) ? value : [value as string | number];
      page.facets[f] = [...new Set(list.map((v) => this.#code(f, v)))];
    }
  }

  /** The facet values of page `row`, decoded. */
  facets(row: number): Record<string, FacetValue | undefined> {
    const page = this.#rows[row];
    const out: Record<string, FacetValue | undefined> = {};
    if (!page) return out;
    this.#names.forEach((name, f) => {
      const code = page.facets[f];
      const values = this.#values[f] as (string | number)[];
      if (Array.isArray(code)) out[name] = code.map((c) => values[c] as string | number);
      else if (this.#kinds[f] === "number") out[name] = Number.isNaN(code) ? undefined : code;
      else out[name] = code === -1 ? undefined : values[code as number];
    });
    return out;
  }

  #code(f: number, value: string | number): number {
    const dictionary = this.#dictionaries[f] as Map<string | number, number>;
    let code = dictionary.get(value);
    if (code === undefined) {
      code = (this.#values[f] as (string | number)[]).push(value) - 1;
      dictionary.set(value, code);
    }
    return code;
  }

  /** 1 for each row whose page passes `where`, 0 otherwise (and for free rows). */
  matchWhere(where: object): Uint8Array {
    const out = new Uint8Array(this.#rows.length);
    const test = this.#compile(where);
    for (let row = 0; row < this.#rows.length; row++) {
      const page = this.#rows[row];
      if (page && test(page)) out[row] = 1;
    }
    return out;
  }

  #compile(where: object): (page: PageRow) => boolean {
    const parts: ((page: PageRow) => boolean)[] = [];
    for (const [key, op] of Object.entries(where)) {
      if (op === undefined) continue;
      if (key === "and" || key === "or") {
        if (!Array.isArray(op)) throw new WhereError(`${key} takes a list of clauses`);
        const subs = op.map((clause: object) => this.#compile(clause));
        // As Orama: an empty and/or matches nothing.
        parts.push(
          key === "and"
            ? (p) => subs.length > 0 && subs.every((s) => s(p))
            : (p) => subs.some((s) => s(p)),
        );
        continue;
      }
      if (key === "not") {
        const sub = this.#compile(op as object);
        parts.push((p) => !sub(p));
        continue;
      }
      parts.push(this.#facetTest(key, op));
    }
    return (page) => parts.every((part) => part(page));
  }

  #facetTest(name: string, op: unknown): (page: PageRow) => boolean {
    const f = this.#names.indexOf(name);
    if (f < 0) throw new WhereError(`${name} is not a filterable property of this shard`);
    if (typeof op !== "object" || op === null || Array.isArray(op)) {
      throw new WhereError(`the filter on ${name} must be an operator object such as { eq: … }`);
    }
    const entries = Object.entries(op);
    if (entries.length !== 1) throw new WhereError(`the filter on ${name} takes one operator`);
    const [operator, operand] = entries[0] as [string, unknown];
    const kind = this.#kinds[f] as FacetKind;
    const dictionary = this.#dictionaries[f] as Map<string | number, number>;
    const codes = (values: unknown): Set<number> => {
      const list = Array.isArray(values) ? values : [values];
      const out = new Set<number>();
      for (const v of list) {
        const code = dictionary.get(v as string | number);
        if (code !== undefined) out.add(code);
      }
      return out;
    };
    if (kind === "enum") {
      const wanted = codes(operand);
      if (operator === "eq" || operator === "in") {
        return (p) => wanted.has(p.facets[f] as number);
      }
      // As Orama's FlatTree: a page without the facet is in no list, so `nin` leaves it out too.
      if (operator === "nin") {
        return (p) => (p.facets[f] as number) !== -1 && !wanted.has(p.facets[f] as number);
      }
    } else if (kind === "enum[]") {
      const wanted = codes(operand);
      const asked = Array.isArray(operand) ? new Set(operand).size : 1;
      if (operator === "containsAny") {
        return (p) => (p.facets[f] as number[]).some((c) => wanted.has(c));
      }
      if (operator === "containsAll") {
        return (p) =>
          wanted.size === asked && [...wanted].every((c) => (p.facets[f] as number[]).includes(c));
      }
    } else {
      const value = (p: PageRow) => p.facets[f] as number;
      if (operator === "between") {
        if (!Array.isArray(operand) || operand.length !== 2) {
          throw new WhereError(`between on ${name} takes [min, max]`);
        }
        const [lo, hi] = operand as [number, number];
        return (p) => value(p) >= lo && value(p) <= hi;
      }
      if (typeof operand !== "number")
        throw new WhereError(`${operator} on ${name} takes a number`);
      switch (operator) {
        case "eq":
          return (p) => value(p) === operand;
        case "gt":
          return (p) => value(p) > operand;
        case "gte":
          return (p) => value(p) >= operand;
        case "lt":
          return (p) => value(p) < operand;
        case "lte":
          return (p) => value(p) <= operand;
      }
    }
    throw new WhereError(`${operator} is not an operator for ${name} (${kind})`);
  }

  /** The pages in row order; `rows` gives each one's row number now (load renumbers 0..n-1). */
  save(): PageTableRaw & { rows: number[] } {
    const rows: number[] = [];
    const pages: PageRow[] = [];
    this.#rows.forEach((page, row) => {
      if (page) {
        rows.push(row);
        pages.push(page);
      }
    });
    return {
      rows,
      facets: this.#names.map((name, f) => ({
        name,
        kind: this.#kinds[f] as FacetKind,
        values: this.#values[f] as (string | number)[],
      })),
      pages: pages.map((p) => ({ id: p.id, version: p.version, facets: p.facets })),
    };
  }

  /** Rows come back in the order `save` listed them: row i is pages[i]. */
  static load(facets: Record<string, FacetKind>, raw: PageTableRaw): PageTable {
    const table = new PageTable(facets);
    raw.facets.forEach((facet, f) => {
      if (table.#names[f] !== facet.name || table.#kinds[f] !== facet.kind) {
        throw new WhereError(`the saved facets (${facet.name}) differ from the schema`);
      }
      facet.values.forEach((v, code) => {
        (table.#values[f] as (string | number)[]).push(v);
        (table.#dictionaries[f] as Map<string | number, number>).set(v, code);
      });
    });
    raw.pages.forEach((p, row) => {
      table.#rows[row] = { id: p.id, chunks: 0, version: p.version, facets: p.facets };
      table.#byId.set(p.id, row);
    });
    return table;
  }
}

function emptyCode(kind: FacetKind): number | number[] {
  return kind === "enum[]" ? [] : kind === "number" ? Number.NaN : -1;
}
