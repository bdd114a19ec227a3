/**
 * The text of the client-side apps' pages (render.site.ts): each app bundles it, the test
 * compares what the crawl extracted with it. Sentences drawn from a fixed vocabulary by a seeded
 * generator, so every page has its own words and the same ones on every run.
 */
import { prng } from "../../../helpers/prng.ts";

export interface SpaPage {
  /** The route, as the app's router and the crawl's URLs write it. */
  readonly path: string;
  readonly title: string;
  readonly paragraphs: readonly string[];
}

const WORDS = (
  "anchor harbor lantern meadow quartz ribbon saddle timber velvet walnut amber beacon canyon " +
  "delta ember falcon glacier hollow island jasper kettle lagoon marble nectar orchard pepper " +
  "quiver raven summit thistle umber valley willow yarrow zephyr basalt cedar dune fjord grove " +
  "heron indigo juniper kelp lichen mango nutmeg opal pebble quince reef sorrel tundra upland " +
  "vortex wharf yucca zinnia bramble copper dahlia estuary fennel garnet hazel iris jade kiln " +
  "lotus maple nickel olive prairie quarry rapids sierra topaz urchin vista wren"
).split(" ");

function paragraphs(seed: number, count: number): string[] {
  const next = prng(seed);
  const word = () => WORDS[Math.floor(next() * WORDS.length)] ?? "anchor";
  return Array.from({ length: count }, () => {
    const sentences = Array.from({ length: 5 }, () => {
      const words = Array.from({ length: 8 + Math.floor(next() * 6) }, word);
      const first = words[0] ?? "";
      words[0] = first.charAt(0).toUpperCase() + first.slice(1);
      return `${words.join(" ")}.`;
    });
    return sentences.join(" ");
  });
}

function site(seed: number, pages: readonly [string, string][]): SpaPage[] {
  return pages.map(([path, title], i) => ({
    path,
    title,
    paragraphs: paragraphs(seed * 100 + i, 3),
  }));
}

/** React + react-router, its content fetched as JSON. `/` redirects to `/home` (replaceState):
 * no link names `/home`. */
export const REACT_PAGES = site(1, [
  ["/home", "Harbor Home"],
  ["/about", "About the Harbor"],
  ["/guides/setup", "Setup Guide"],
  ["/guides/deploy", "Deploy Guide"],
  ["/team", "The Harbor Team"],
]);

/** Vue + vue-router (render functions, history mode). */
export const VUE_PAGES = site(2, [
  ["/", "Meadow Start"],
  ["/features", "Meadow Features"],
  ["/pricing", "Meadow Pricing"],
  ["/contact", "Contact Meadow"],
]);

/** docsify in history mode: each page a markdown file the app fetches. */
export const DOCSIFY_PAGES = site(3, [
  ["/", "Lantern Docs"],
  ["/guide", "Lantern Guide"],
  ["/faq", "Lantern FAQ"],
  ["/changelog", "Lantern Changelog"],
]);
