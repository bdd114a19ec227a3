/** Pages whose content a script renders from data: a short page is given what its JSON-LD says
 * of its subject (a product's description, an FAQ) and it does not; real content never changes.
 * Small hand-written pages. */
import { expect, test } from "bun:test";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { companyPage as page } from "../../helpers/company-page.ts";

// As sites write it: "</" escaped, so that a tag in a string does not end the script.
const jsonld = (data: unknown) =>
  `<script type="application/ld+json">${JSON.stringify(data).replaceAll("</", "<\\/")}</script>`;

const DESCRIPTION =
  "These socks are made for comfort and built to last, with a cushioned footbed, a seamless toe and a " +
  "ribbed arch that stays in place all day. One pair bought means one pair given.";

const product = (extra: Record<string, unknown> = {}) => ({
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Quarter Socks",
  description: DESCRIPTION,
  sku: "QS-123-WHT",
  image: "https://shop.example.com/socks.jpg",
  offers: { "@type": "Offer", price: "14.00", priceCurrency: "USD" },
  ...extra,
});

/** An app shell: the options a script fills in, no description in the HTML. */
const SHELL = `<main><div id="root"><p>Color: white</p><button>Size Guide</button><p>Size: L</p></div></main>`;

test("an app-shell product page is given its JSON-LD name and description after its own text", () => {
  const doc = extractDocument(
    page(SHELL, jsonld(product())),
    "https://shop.example.com/products/socks",
  );
  expect(doc.markdown).toContain("## Quarter Socks");
  expect(doc.text).toContain("a seamless toe and a ribbed arch");
  expect(doc.text.indexOf("Color: white")).toBeLessThan(doc.text.indexOf("seamless toe"));
  // Ids, URLs and prices of the JSON-LD are not text.
  for (const data of ["QS-123-WHT", "socks.jpg", "14.00"]) expect(doc.text).not.toContain(data);
  expect(doc.words).toBeGreaterThan(30);
});

test("a page with content of its own is left as it is", () => {
  const prose = Array.from(
    { length: 8 },
    (_, i) =>
      `<p>Paragraph ${i} of the product story tells how the yarn is spun, knitted and checked before it ships.</p>`,
  ).join("");
  const doc = extractDocument(
    page(`<main><h1>Quarter Socks</h1>${prose}</main>`, jsonld(product())),
    "https://shop.example.com/products/socks",
  );
  expect(doc.words).toBeGreaterThanOrEqual(100);
  expect(doc.text).not.toContain("seamless toe");
});

test("a short page that already shows its description does not get it twice", () => {
  const doc = extractDocument(
    page(`<main><h1>Quarter Socks</h1><p>${DESCRIPTION}</p></main>`, jsonld(product())),
    "https://shop.example.com/products/socks",
  );
  expect(doc.text.split("seamless toe").length).toBe(2);
  expect(doc.text.split("Quarter Socks").length).toBe(2);
});

test("the site's JSON-LD (organization, website, breadcrumbs) is never page text", () => {
  const site = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        name: "Example Shop",
        description:
          "Example Shop sells socks, shirts and sweaters made from organic cotton, shipped carbon neutral to forty countries since 2012.",
      },
      {
        "@type": "WebSite",
        name: "Example Shop",
        description: "Organic clothing for every day, in every size, from a family business.",
      },
      {
        "@type": "BreadcrumbList",
        itemListElement: [{ "@type": "ListItem", position: 1, name: "Home" }],
      },
    ],
  };
  const doc = extractDocument(page(SHELL, jsonld(site)), "https://shop.example.com/products/socks");
  expect(doc.text).not.toContain("organic cotton");
  expect(doc.text).not.toContain("family business");
  expect(doc.text).toContain("Color: white");
});

test("an FAQ page a script renders gets its questions and answers", () => {
  const faq = {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: [
      {
        "@type": "Question",
        name: "How long does shipping take?",
        acceptedAnswer: {
          "@type": "Answer",
          text: "Orders leave our warehouse within two working days and arrive in three to five more.",
        },
      },
      {
        "@type": "Question",
        name: "Can I return a worn pair?",
        acceptedAnswer: {
          "@type": "Answer",
          text: "<p>Yes: within <strong>60 days</strong>, worn or not.</p><script>track()</script>",
        },
      },
    ],
  };
  const doc = extractDocument(
    page(`<main><div id="app"></div></main>`, jsonld(faq)),
    "https://shop.example.com/faq",
  );
  expect(doc.markdown).toContain("### How long does shipping take?");
  expect(doc.markdown).toContain("### Can I return a worn pair?");
  expect(doc.markdown).toContain("within **60 days**, worn or not");
  expect(doc.text).toContain("arrive in three to five more");
  expect(doc.text).not.toContain("track()");
});

test("a product group's variants repeating its description give it once", () => {
  const group = product({
    "@type": "ProductGroup",
    hasVariant: ["S", "M", "L"].map((size) => ({
      "@type": "Product",
      name: `Quarter Socks - ${size}`,
      description: DESCRIPTION,
    })),
  });
  const doc = extractDocument(
    page(SHELL, jsonld(group)),
    "https://shop.example.com/products/socks",
  );
  expect(doc.text.split("seamless toe").length).toBe(2);
});

test("too little JSON-LD text adds nothing", () => {
  const doc = extractDocument(
    page(SHELL, jsonld({ "@type": "Product", name: "Socks", description: "Soft socks." })),
    "https://shop.example.com/products/socks",
  );
  expect(doc.text).not.toContain("Soft socks");
  expect(doc.text).toContain("Color: white");
});
