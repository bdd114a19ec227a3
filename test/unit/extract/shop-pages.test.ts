/** Main content of shop and catalogue pages, and pages whose content a script reveals or a
 * tab hides: small hand-written pages. */
import { expect, test } from "bun:test";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { companyPage as page } from "../../helpers/company-page.ts";

test("a <main> taken for its data table (a product's specifications) loses its promos and upsells", () => {
  const html = page(
    `<main><h1>Trail runner 2</h1><p>A light shoe for rough ground, with a grippy outsole and a rock plate under the forefoot.</p>
<table><tr><th>Weight</th><td>280 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr><tr><th>Stack</th><td>28 mm</td></tr></table>
<div class="promo"><p>Members get free shipping on every order over fifty dollars this month.</p></div>
<div class="related-products"><h2>You may also like</h2><p>Road runner 4, Trail runner 1, Hiking boot</p></div></main>`,
    `<script type="application/ld+json">{"@type":"Product","name":"Trail runner 2"}</script>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/trail-runner-2");
  expect(doc.text).toContain("rock plate under the forefoot");
  expect(doc.text).toContain("280 g");
  for (const gone of ["Members get free shipping", "You may also like"])
    expect(doc.text).not.toContain(gone);
});

test("a shop's <div class=body> holding its <h1> is not a Sphinx page: its sign-up form goes", () => {
  const html = page(
    `<div class="body"><h1>Winter sale</h1><p>Every jacket in the shop is a third off until Sunday; the sale ends at midnight.</p>
<form action="/subscribe"><p>Sign up for our letters and get ten percent off your first order.</p><input type="email" name="email"></form></div>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/winter-sale");
  expect(doc.text).toContain("Every jacket in the shop is a third off");
  expect(doc.text).not.toContain("Sign up for our letters");
});

test("a page that is mostly short blocks (a heading, a sentence, a list of editions) is the page without its chrome, not Readability's pick: the list and the <h1> stay", () => {
  const langs = ["de-DE", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "nl-NL", "pt-BR", "ru-RU"];
  const items = langs.map((l) => `<li><a href="/browse/${l}/">${l}</a></li>`).join("");
  const html = page(
    `<main><h1>The Field Guide</h1><p>A reference book on the birds of the coast, from the first sighting to the ringing of a nest, in ${langs.length} languages. Read it online:</p><ul>${items}</ul></main>`,
  );
  const doc = extractDocument(html, "https://guide.example.org/");
  expect(doc.markdown).toStartWith("# The Field Guide");
  for (const l of langs) expect(doc.text).toContain(l);
  expect(doc.text).not.toContain("Imprint");
});

test("a hidden wrapper that a script reveals is the content even when the header and footer hold more text; a tiny hidden stub is not", () => {
  const menu = Array.from(
    { length: 40 },
    (_, i) => `<a href="/c/${i}">Category number ${i}</a>`,
  ).join("");
  const body = `<header class="site-header">${menu}</header>
<div class="product-wrapper defer-block" style="display:none"><h1>Almond thins</h1>
<p>Our family baked these crunchy almond crisps for get-togethers; a lighter version of a secret family recipe.</p>
<p>Baked with simple ingredients found in most kitchens: no cholesterol, no dairy, no preservatives, no added salt.</p>
<p>Extremely snackable and crunchy, they are perfect on their own or with toppings, and excellent with cheese.</p></div>
<footer>${menu}</footer>`;
  const doc = extractDocument(
    `<!doctype html><html><head><title>Almond thins</title></head><body>${body}</body></html>`,
    "https://shop.example.com/p/almond-thins",
  );
  expect(doc.text).toContain("crunchy almond crisps");
  expect(doc.text).not.toContain("Category number 7");

  const shell = extractDocument(
    `<!doctype html><html><head><title>Item</title></head><body><div style="display:none"><a href="#search">I'm shopping for...</a></div><div id="root"></div><footer><h5>Help</h5><p>${menu}</p></footer></body></html>`,
    "https://shop.example.com/item/1",
  );
  expect(shell.text).not.toContain("shopping for");
});

test("the page's <footer> is chrome even when its site map holds most of the text", () => {
  const sitemap = Array.from(
    { length: 60 },
    (_, i) => `<li><a href="/topic/${i}">Topic page number ${i} of the archive</a></li>`,
  ).join("");
  const cards = ["Press releases", "Annual reports", "Media kit"]
    .map(
      (t) =>
        `<div class="card"><h2>${t}</h2><p>${t} of the company since 1998, as published.</p></div>`,
    )
    .join("");
  const html = `<!doctype html><html><head><title>Newsroom</title></head><body><div class="hero"><h1>Newsroom</h1></div>${cards}<footer><ul>${sitemap}</ul></footer></body></html>`;
  const doc = extractDocument(html, "https://corp.example.com/newsroom");
  expect(doc.text).toContain("Annual reports of the company");
  expect(doc.text).not.toContain("Topic page number 7");
});

test("a shop's up-sells and cross-sells and a disclaimer beside a product go", () => {
  const html = page(
    `<main><div class="product"><h1>Iris hemp dress</h1><p class="price">€132.34</p>
<div class="woocommerce-product-details__short-description"><p>A relaxed summer dress cut from hemp and organic cotton, with a wrap front and pockets deep enough for a phone.</p></div></div>
<section class="up-sells upsells products"><h2>You may also like</h2><ul><li><a href="/p/aspen">Aspen beige hemp pants</a> €95.25</li><li><a href="/p/linen">Linen shirt</a> €70.00</li></ul></section>
<div class="cross-sells"><h2>Complete the look</h2><p>Straw hat and woven sandals from our summer line.</p></div>
<p class="disclaimer">Colours may vary slightly from the photographs depending on the settings of your screen.</p></main>`,
    `<script type="application/ld+json">{"@type":"Product","name":"Iris hemp dress"}</script>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/iris-hemp-dress");
  expect(doc.text).toContain("relaxed summer dress");
  for (const gone of ["Aspen beige", "Straw hat", "Colours may vary"])
    expect(doc.text).not.toContain(gone);
});

test("a collapsed accordion panel or an inactive tab is the page's text; a hidden menu is not", () => {
  const html = page(
    `<main><h1>Summit fire pit</h1><p>Our most advanced fire pit: lights three times faster.</p>
<div class="chakra-accordion"><button>Description</button><div class="chakra-collapse" style="display:none"><div role="region"><p>At the heart of the new Summit is a cone that delivers an easy-light fire in seconds, with kindling or gel.</p></div></div></div>
<div class="tabs"><div id="tab-specs" class="tab-pane" style="display:none"><p>Stainless steel, 24 inches across, 15 kilograms.</p></div></div>
<div class="mega-dropdown" style="display:none"><a href="/fire-pits">Fire pits</a><a href="/grills">Grills</a><a href="/accessories">Accessories</a></div></main>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/summit");
  expect(doc.text).toContain("easy-light fire in seconds");
  expect(doc.text).toContain("24 inches across");
  expect(doc.text).not.toContain("Accessories");
});

test("a shop's category (og:type product.group) keeps its grid of product links beside a long description: it is not one product's page", () => {
  const products = ["Beard oil", "Beard balm", "Beard wash", "Beard comb"];
  const grid = products
    .map((name, i) => `<li class="grid-item"><a href="/p/${i}">${name} ${30 + i} ml</a></li>`)
    .join("");
  const about = `<div class="collection-description"><p>Our beard oils soften the hair and the skin beneath it, with argan and jojoba oils pressed cold and scented with cedar, vetiver and a little citrus.</p><p>Use three drops after a shower, work them in from the roots, then comb; one bottle lasts a beard of medium length about three months of daily use.</p></div>`;
  const html = page(
    `<main><h1>Beard oil</h1>${about}<ul class="product-grid">${grid}</ul></main>`,
    `<meta property="og:type" content="product.group">`,
  );
  const doc = extractDocument(html, "https://shop.example.com/collections/beard-oil");
  expect(doc.text).toContain("argan and jojoba oils");
  for (const name of products) expect(doc.text).toContain(name);
});

test("beside one product, lines that are only a price or a discount go (the price box, the add-ons' prices); prices inside a sentence stay", () => {
  const addons = ["Coin tray", "Cash strap", "Money clip"]
    .map(
      (name) =>
        `<div class="addon"><h3>${name}</h3><span class="price">$18</span> <s>$25</s> <span>28% OFF</span></div>`,
    )
    .join("");
  const html = page(
    `<main><h1>Aluminum wallet</h1><div class="price-box"><span>From: £29.98</span><span>(£29.98 inc. VAT)</span></div>
<p>A slim wallet of two aluminum plates held by an elastic band: it holds up to twelve cards and costs $95 with its cash strap.</p>
<p>Every wallet is covered by a warranty for life and a trial of ninety-nine days, returns free of charge.</p>${addons}</main>`,
    `<script type="application/ld+json">{"@type":"Product","name":"Aluminum wallet"}</script>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/wallet");
  expect(doc.text).toContain("costs $95 with its cash strap");
  expect(doc.text).toContain("Coin tray");
  for (const gone of ["$18", "$25", "28% OFF", "£29.98"]) expect(doc.text).not.toContain(gone);
});

test("a category's cards lose the labels each one repeats (a call to action, a badge); names, prices, colour lists and links inside sentences stay", () => {
  const cams = ["Vantrue S1 Pro dash cam", "Thinkware U1000 dash cam", "Viofo A229 dash cam"];
  const cards = cams
    .map(
      (name, i) =>
        `<li class="card"><span class="badge">New</span><h3><a href="/p/${i}">${name}</a></h3><p>${300 + i} EUR</p><ul class="swatches"><li>Black</li><li>Silver</li><li>Red</li></ul><a class="button" href="/p/${i}#options">Choose options</a></li>`,
    )
    .join("");
  const notes = ["Berlin", "Munich", "Hamburg"]
    .map(
      (city) =>
        `<p>Free fitting of any dash cam at our shop in ${city}, <a href="/shops">see the shops</a> for hours.</p>`,
    )
    .join("");
  const html = page(`<main><h1>4K dash cams</h1><ul class="grid">${cards}</ul>${notes}</main>`);
  const doc = extractDocument(html, "https://shop.example.com/c/4k-dash-cams");
  for (const name of cams) expect(doc.text).toContain(name);
  expect(doc.text).toContain("301 EUR");
  expect(doc.text).toContain("Silver");
  expect(doc.text).toContain("our shop in Munich, see the shops for hours");
  for (const gone of ["Choose options", "New"]) expect(doc.text).not.toContain(gone);
});
