import { describe, expect, test } from "bun:test";
import { FacetModel, HEADS, type Head } from "../../../src/facets/facet-model.ts";
import type { FeatureGroup } from "../../../src/facets/model-features.ts";
import { decodeModel, encodeModel } from "../../../src/facets/model-file.ts";
import { packagedModel } from "../../../src/facets/packaged-model.ts";
import { scorePage } from "../../../src/facets/score-page.ts";
import { AUDIENCES, FORMATS, TYPES } from "../../../src/facets/vocabulary.ts";
import { makeDoc } from "./helpers.ts";

const NEUTRAL_URL = "https://example.org/p/4711";
const PROSE =
  "The meeting took place on a rainy afternoon. Several people spoke about the plans for the " +
  "coming year, the budget and the new building, and the discussion went on until the evening. ";

/** A model with no useful features whose biases vote for the given labels with probability p. */
function constantModel(labels: Record<Head, string>, lead = 6): FacetModel {
  const others: Record<Head, string[]> = {
    type: ["other", "zzz"],
    format: ["other", "zzz"],
    audience: ["general", "zzz"],
  };
  const head = (h: Head) => ({
    classes: [labels[h], ...others[h]],
    bias: Float32Array.from([lead, 0, 0]),
  });
  const vocab = new Map<FeatureGroup, Map<string, number>>([["f", new Map([["words0", 0]])]]);
  const heads = { type: head("type"), format: head("format"), audience: head("audience") };
  return new FacetModel(vocab, heads, new Float32Array(9));
}

const REFERENCE_PAGE = [
  "## os.path — Common pathname manipulations",
  "This module implements some useful functions on pathnames. To read or write files see " +
    "open(), and for accessing the filesystem see the os module. The path parameters can be " +
    "passed as strings, or bytes, or any object implementing the os.PathLike protocol.",
  "os.path.join(path, *paths)",
  "Join one or more path segments intelligently. The return value is the concatenation of " +
    "path and all members of *paths, with exactly one directory separator following each " +
    "non-empty part except the last. If a segment is an absolute path, all previous segments " +
    "are thrown away and joining continues from the absolute path segment.",
  "Changed in version 3.6: Accepts a path-like object for path and paths.",
  "os.path.split(path)",
  "Split the pathname path into a pair, (head, tail) where tail is the last pathname " +
    "component and head is everything leading up to that. The tail part will never contain a " +
    "slash; if path ends in a slash, tail will be empty.",
  "```python\n>>> os.path.split('/usr/lib/python3')\n('/usr/lib', 'python3')\n```",
  "os.path.normpath(path)",
  "Normalize a pathname by collapsing redundant separators and up-level references so that " +
    "A//B, A/B/, A/./B and A/foo/../B all become A/B. This string manipulation may change the " +
    "meaning of a path that contains symbolic links.",
  "os.path.exists(path)",
  "Return True if path refers to an existing path or an open file descriptor. Returns False " +
    "for broken symbolic links. On some platforms, this function may return False if " +
    "permission is not granted to execute os.stat() on the requested file.",
];

describe("the learned model", () => {
  test("the packaged model loads and speaks the vocabularies", () => {
    const model = packagedModel();
    expect(model.features).toBeGreaterThan(1000);
    for (const g of ["t", "h", "b", "f", "y"] as const) {
      expect(model.vocab.get(g)?.size ?? 0).toBeGreaterThan(0);
    }
    const vocabularies = { type: TYPES, format: FORMATS, audience: AUDIENCES };
    for (const h of HEADS) {
      const classes = model.heads[h].classes;
      expect(classes.length).toBeGreaterThanOrEqual(5);
      for (const c of classes) expect(Object.keys(vocabularies[h])).toContain(c);
      expect(Number.isFinite(model.weight(h, 0, 0))).toBe(true);
    }
  });

  test("it reads documentation the rules cannot place", () => {
    const md = REFERENCE_PAGE.join("\n\n");
    const text = md.replaceAll("## ", "").replace("```python\n", "").replace("```", "");
    const page = makeDoc(text, { markdown: md });
    const byRules = scorePage(page, NEUTRAL_URL, { model: null });
    expect(byRules.facets.type).toBe("other");
    expect(
      Object.values(byRules.explain)
        .flat()
        .some((r) => r.includes("model")),
    ).toBe(false);
    const { facets, explain } = scorePage(page, NEUTRAL_URL);
    expect(["docs", "api_reference"]).toContain(facets.type);
    expect(
      explain.type.some((r) => r.startsWith(`${facets.type} +`) && r.includes("model p=")),
    ).toBe(true);
    expect(facets.audience).toBe("developers");
    expect(explain.audience.some((r) => r.startsWith("model: developers p="))).toBe(true);
  });

  test("it decides where the rules are weak and stays out where they are strong", () => {
    const model = constantModel({ type: "blog", format: "tutorial", audience: "consumers" });
    const weak = scorePage(makeDoc(PROSE.repeat(3)), NEUTRAL_URL, { model });
    expect(weak.facets.type).toBe("blog");
    expect(weak.explain.type.some((r) => r.startsWith("blog +") && r.includes("model p="))).toBe(
      true,
    );
    expect(weak.facets.format).toBe("tutorial");
    expect(weak.explain.format.some((r) => r.includes("overrides weak rule article"))).toBe(true);
    expect(weak.facets.audience).toBe("consumers");

    const strong = scorePage(
      makeDoc(PROSE.repeat(3), { title: "Storage Engineer", jsonldTypes: ["JobPosting"] }),
      NEUTRAL_URL,
      { model },
    );
    expect(strong.facets.type).toBe("job");
    expect(strong.explain.type.some((r) => r.includes("not used: rules decisive"))).toBe(true);
    expect(strong.facets.audience).toBe("job_seekers");
    expect(strong.explain.audience.some((r) => r.includes("not used: strong rule"))).toBe(true);
  });

  test("an unsure model leaves the rules' fallbacks", () => {
    const model = constantModel({ type: "blog", format: "tutorial", audience: "consumers" }, 0.3);
    const { facets, explain } = scorePage(makeDoc(PROSE.repeat(3)), NEUTRAL_URL, { model });
    expect(facets.type).toBe("other");
    expect(explain.type.some((r) => r.includes("not used"))).toBe(true);
    expect(facets.format).toBe("article");
    expect(facets.audience).toBe("general");
  });

  test("the data file round-trips, int8 close to the weights and f16 exact to float16", () => {
    const rows = [
      ["t", "pricing"],
      ["t", "plans"],
      ["b", "query"],
      ["f", "words0"],
      ["y", "docs"],
    ] as const;
    const classes = { type: ["docs", "pricing", "other"], format: ["article", "landing", "other"] };
    const heads = {
      type: { classes: classes.type, bias: [0.5, -0.25, 0] },
      format: { classes: classes.format, bias: [0, 0, 0] },
      audience: { classes: ["general", "developers", "business"], bias: [1, 0, -1] },
    };
    const weights = Float32Array.from({ length: rows.length * 9 }, (_, i) => Math.sin(i) * 2);
    for (const precision of ["int8", "f16"] as const) {
      const model = decodeModel(encodeModel({ rows, heads, weights }, precision));
      expect(model.features).toBe(rows.length);
      expect(model.heads.type.classes).toEqual(classes.type);
      const tolerance = precision === "int8" ? 2 / 127 : 2e-3;
      for (let r = 0; r < rows.length; r++) {
        for (let j = 0; j < 3; j++) {
          expect(
            Math.abs(model.weight("format", r, j) - (weights[r * 9 + 3 + j] as number)),
          ).toBeLessThan(tolerance);
        }
      }
      const z = model.logits({ t: ["pricing", "plans", "unknown"], b: ["query"] });
      const p = model.predict("type", z);
      expect(classes.type).toContain(p.label);
      expect(p.prob).toBeGreaterThan(0);
      expect(p.prob).toBeLessThanOrEqual(1);
    }
  });
});
