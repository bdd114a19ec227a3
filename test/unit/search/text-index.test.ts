import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { TextIndex } from "../../../src/search/text-index.ts";
import { tokens } from "../../../src/search/tokenizer.ts";

// Words whose stems are themselves, so FTS5's unicode61 and our tokenizer agree token for token.
const DOCS = [
  {
    title: "Python guide",
    heading: "Setup",
    text: "python on linux with apt and the python shell",
  },
  { title: "Rust book", heading: "Cargo", text: "cargo build and cargo test for rust crates" },
  { title: "Linux admin", heading: "Python", text: "shell tools for linux admin work" },
  { title: "Databases", heading: "SQL", text: "sql joins and indexes in postgres" },
  { title: "Python and Rust", heading: "FFI", text: "call rust from python with a small shim" },
];

function build(): TextIndex {
  const index = new TextIndex();
  DOCS.forEach((d, slot) => {
    index.add(slot, tokens(d.title), 4);
    index.add(slot, tokens(d.heading), 2);
    index.add(slot, tokens(d.text), 1);
  });
  return index;
}

function fts5(query: string[]): Map<number, number> {
  const db = new Database(":memory:");
  db.run(
    "CREATE VIRTUAL TABLE t USING fts5(title, heading, text, tokenize='unicode61 remove_diacritics 2')",
  );
  for (const [i, d] of DOCS.entries()) {
    db.run("INSERT INTO t(rowid, title, heading, text) VALUES (?, ?, ?, ?)", [
      i,
      d.title,
      d.heading,
      d.text,
    ]);
  }
  const match = query.map((t) => `"${t}"`).join(" OR ");
  const rows = db
    .query("SELECT rowid, bm25(t, 4.0, 2.0, 1.0) AS s FROM t WHERE t MATCH ? ORDER BY s")
    .all(match) as { rowid: number; s: number }[];
  db.close();
  return new Map(rows.map((r) => [r.rowid, -r.s]));
}

const LIVE = new Uint8Array(DOCS.length).fill(1);

describe("TextIndex", () => {
  test("scores as SQLite FTS5's bm25(4, 2, 1) does", () => {
    for (const query of [
      ["python"],
      ["rust", "python"],
      ["linux", "shell"],
      ["cargo"],
      ["sql", "python", "and"],
    ]) {
      const expected = fts5(query);
      const hits = build().search(query, 10, LIVE, null);
      expect(hits.map((h) => h.slot).sort()).toEqual([...expected.keys()].sort());
      for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.slot) as number, 9);
    }
  });

  test("top k, best first, ties by slot; accept filters inside the ranking", () => {
    const index = build();
    const all = index.search(["python"], 10, LIVE, null);
    expect(index.search(["python"], 2, LIVE, null)).toEqual(all.slice(0, 2));
    const accept = new Uint8Array([0, 0, 1, 0, 0]);
    expect(index.search(["python"], 1, LIVE, accept).map((h) => h.slot)).toEqual([2]);
    expect(index.search(["nothing"], 5, LIVE, null)).toEqual([]);
  });

  test("a dropped slot scores like a fresh index without it", () => {
    const index = build();
    index.drop(0);
    const live = new Uint8Array([0, 1, 1, 1, 1]);
    const fresh = new TextIndex();
    DOCS.forEach((d, slot) => {
      if (slot === 0) return;
      fresh.add(slot, tokens(d.title), 4);
      fresh.add(slot, tokens(d.heading), 2);
      fresh.add(slot, tokens(d.text), 1);
    });
    for (const q of [["python"], ["linux", "rust"]]) {
      expect(index.search(q, 10, live, null)).toEqual(fresh.search(q, 10, live, null));
    }
  });

  test("save drops dead postings and renumbers; load scores the same", () => {
    const index = build();
    index.drop(1);
    const remap = new Int32Array([0, -1, 1, 2, 3]);
    const raw = index.save(remap, 4);
    expect(raw.terms).not.toContain("cargo");
    const loaded = TextIndex.load(raw);
    const before = index.search(["python", "rust"], 10, new Uint8Array([1, 0, 1, 1, 1]), null);
    const after = loaded.search(["python", "rust"], 10, new Uint8Array(4).fill(1), null);
    expect(after.map((h) => h.score)).toEqual(before.map((h) => h.score));
    expect(after.map((h) => h.slot)).toEqual(before.map((h) => remap[h.slot] as number));
  });

  test("a loaded index with thousands of terms indexes new chunks under its old terms", () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const index = new TextIndex();
    index.add(0, words, 1);
    const loaded = TextIndex.load(index.save(new Int32Array([0]), 1));
    loaded.add(1, ["w2999", "w2999", "w5"], 1);
    const hits = loaded.search(["w2999"], 10, new Uint8Array([1, 1]), null);
    expect(hits.map((h) => h.slot)).toEqual([1, 0]);
    expect(loaded.search(["w5"], 10, new Uint8Array([0, 1]), null).map((h) => h.slot)).toEqual([1]);
  });

  test("bytes counts the posting lists as they grow and as loaded", () => {
    const index = new TextIndex();
    const base = index.bytes;
    index.add(0, ["a", "b"], 1);
    expect(index.bytes - base).toBe(2 * 8); // two lists of room for 2 postings
    index.add(1, ["a"], 1);
    index.add(2, ["a"], 1);
    expect(index.bytes - base).toBe(16 + 8); // a's list grown to 4
    const loaded = TextIndex.load(index.save(new Int32Array([0, 1, 2]), 3));
    expect(loaded.bytes - base).toBe(12 + 8); // a: 3 postings, b: room for 2
    loaded.add(3, ["a"], 1);
    expect(loaded.bytes - base).toBe(24 + 8);
  });

  test("slots must come in order", () => {
    const index = new TextIndex();
    index.add(5, ["a"], 1);
    expect(() => index.add(3, ["a"], 1)).toThrow(RangeError);
  });
});
