/** Main content of pages that are not documentation: one article, or a whole page of sections,
 * posts or cards, without the site's chrome. Small hand-written pages. */
import { expect, test } from "bun:test";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { companyPage as page } from "../../helpers/company-page.ts";

test("a service page keeps every section, drops nav, footer and the cookie banner", () => {
  const sections = [
    "Ship faster with Example",
    "Everything you need",
    "Simple pricing",
    "Questions and answers",
  ]
    .map(
      (h, i) =>
        `<section><h2>${h}</h2><p>Section ${i} explains one part of the product in a sentence or two, enough to read.</p></section>`,
    )
    .join("");
  const doc = extractDocument(page(`<main>${sections}</main>`), "https://example.com/");
  for (const h of [
    "Ship faster with Example",
    "Everything you need",
    "Simple pricing",
    "Questions and answers",
  ]) {
    expect(doc.markdown).toContain(`## ${h}`);
  }
  for (const chrome of ["Home", "Privacy", "© 2026", "cookies"])
    expect(doc.text).not.toContain(chrome);
  const positions = new Map(doc.links.map((l) => [l.url, l.position]));
  expect(positions.get("https://example.com/pricing")).toBe("template");
});

test("a forum thread keeps its posts, even in elements named comment", () => {
  const posts = [
    "How do I rotate the API key without downtime? We deploy twice a day and cannot stop the workers.",
    "Create the second key first, roll it out to the workers, then revoke the first one when traffic moved.",
    "Thanks, that worked. The docs could say this more plainly, it took me a while to find the answer.",
  ]
    .map(
      (t, i) =>
        `<div class="comment post" id="post-${i}"><span class="author">user${i}</span><p>${t}</p></div>`,
    )
    .join("");
  const doc = extractDocument(
    page(`<main><h1>Rotating API keys</h1>${posts}</main>`),
    "https://forum.example.com/t/1",
  );
  expect(doc.text).toContain("How do I rotate the API key");
  expect(doc.text).toContain("Create the second key first");
  expect(doc.text).toContain("Thanks, that worked");
  expect(doc.text).not.toContain("Pricing");
});

test("a news article drops its byline, share bar, caption and related links", () => {
  const head = `<meta property="og:type" content="article"><script type="application/ld+json">{"@type":"NewsArticle"}</script>`;
  const body = `<article><h1>City opens a new library</h1>
    <div class="byline">By Jane Doe, March 3</div>
    <div class="share-bar"><a href="https://twitter.com/share">Tweet</a><a href="https://facebook.com/share">Share</a></div>
    <figure><img src="/lib.jpg" alt="The library"><figcaption>The new library at dusk. Photo: City</figcaption></figure>
    ${"<p>The new central library opened on Monday with three floors of books, a makerspace and a café, the city said in a statement.</p>".repeat(6)}
    <ul class="related-links"><li><a href="/a">Budget passes</a></li><li><a href="/b">Mayor re-elected</a></li><li><a href="/c">Bridge closed</a></li></ul>
  </article>`;
  const doc = extractDocument(page(body, head), "https://news.example.com/2026/03/03/library");
  expect(doc.text).toContain("three floors of books");
  for (const boilerplate of ["Jane Doe", "Tweet", "Photo: City", "Budget passes"]) {
    expect(doc.text).not.toContain(boilerplate);
  }
  expect(doc.assets.map((a) => a.alt)).toContain("The library");
  expect(doc.published).toBe("2026-03-03");
});

test("DocBook output inside a site layout: the component beside the navheader is the content", () => {
  const html = `<html><head><title>8.1. Numeric Types</title>
<meta name="generator" content="DocBook XSL Stylesheets V1.79.1"></head><body>
<div class="sidebar" id="site-nav"><ul><li><a href="/about/">About</a></li>
<li><a href="/download/">Download</a></li></ul></div>
<div id="docContent">
<div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td>
<td><a href="next.html">Next</a></td></tr></table></div>
<div class="sect1" id="numeric">
<div class="titlepage"><h2 class="title">8.1. Numeric Types</h2></div>
<p>Numeric types consist of two-, four-, and eight-byte integers, four- and eight-byte
floating-point numbers, and selectable-precision decimals, see <a href="t.html">Table 8.2</a>.</p>
<div class="sidebar"><div class="titlepage"><p class="title"><b>Tip</b></p></div>
<p>Use <code>numeric</code> for money.</p>
<pre class="programlisting">SELECT 1.5::numeric;</pre></div>
</div>
<div class="navfooter"><a href="index.html">Home</a></div>
</div>
<div class="footer">Copyright PostgreSQL</div></body></html>`;
  const doc = extractDocument(html, "https://www.example.org/docs/numeric.html");
  expect(doc.markdown).toStartWith("## 8.1. Numeric Types");
  expect(doc.markdown).toContain("```\nSELECT 1.5::numeric;\n```");
  expect(doc.markdown).toContain("**Tip**");
  expect(doc.markdown).toContain("Use `numeric` for money.");
  for (const chrome of ["About", "Download", "Prev", "Next", "Home", "Copyright"]) {
    expect(doc.markdown).not.toContain(chrome);
  }
  const positions = new Map(doc.links.map((l) => [l.anchorText, l.position]));
  expect(positions.get("Table 8.2")).toBe("body");
  for (const t of ["About", "Prev", "Home"]) expect(positions.get(t)).toBe("template");
});

test("React streaming segments (<div hidden id=S:n>) are content", () => {
  const html = page(
    `<main><template id="B:0"></template><div hidden id="S:0"><h1>Black Edition</h1><p>${"A complete meal in a shake with protein and fibre. ".repeat(5)}</p></div></main>`,
  );
  expect(extractDocument(html, "https://shop.example.com/p/black").text).toContain(
    "A complete meal in a shake",
  );
});

test("a blog index whose article is a list of links keeps the list (Readability takes the whole page, its pruning would drop the list)", () => {
  const posts = [
    ["/blog/branching", "How we made branching instant", "March 4, 2026"],
    ["/blog/release-17", "Release 17 is here", "February 20, 2026"],
    ["/blog/pooling", "Connection pooling for serverless functions", "February 2, 2026"],
    ["/blog/scale-to-zero", "Why scale to zero matters", "January 14, 2026"],
  ];
  const items = posts.map(
    ([href, title, date]) => `<li><a href="${href}">${title}</a> — ${date}</li>`,
  );
  const doc = extractDocument(
    page(`<main><article><h1>Blog</h1><ul>${items.join("")}</ul></article></main>`),
    "https://example.com/blog",
  );
  for (const [, title, date] of posts) {
    expect(doc.markdown).toContain(`${title}`);
    expect(doc.text).toContain(`${date}`);
  }
  for (const chrome of ["Pricing", "Privacy", "cookies"]) expect(doc.text).not.toContain(chrome);
});

test("a product page keeps its add-to-cart form, drops sign-in, newsletter and review forms and dialogs", () => {
  const html = page(`<main>
<h1>Walnut desk</h1>
<form action="/cart/add"><p>Price: $649.00</p><label>Finish</label><select><option>Oiled</option></select>
<p>Width options: 120 cm or 140 cm, made to order in four weeks.</p><button>Add to cart</button></form>
<section><h2>Description</h2><p>Solid walnut top on a powder-coated steel frame, finished by hand with natural oil.</p></section>
<section><h2>Details</h2><ul><li>Height 74 cm</li><li>Weight 32 kg</li></ul></section>
<div role="dialog" aria-label="Report"><h2>Report this item</h2><p>Tell us why you are reporting this listing to our team.</p></div>
<form class="login"><label>Your password</label><input type="password"><p>Forgot your password? Reset it here.</p></form>
<form class="newsletter-signup"><p>Get ten percent off your first order when you join our list.</p><input type="email"></form>
<form class="write-review"><p>Write a review of this desk for other buyers.</p><textarea></textarea></form>
</main>`);
  const doc = extractDocument(html, "https://shop.example.com/p/walnut-desk");
  for (const kept of ["Price: $649.00", "Width options", "Solid walnut top", "Height 74 cm"])
    expect(doc.text).toContain(kept);
  for (const dropped of [
    "Report this item",
    "Forgot your password",
    "ten percent off",
    "Write a review",
  ])
    expect(doc.text).not.toContain(dropped);
});

test("a block the page repeats (a panel for phones and for desktops, a quoted post) is kept once", () => {
  const panel = `<h2>Classic II</h2><p>$168.00</p><p>Free shipping over $75 and easy returns within thirty days.</p>`;
  const html =
    page(`<main><div class="d-md-none">${panel}</div><div class="d-none d-md-block">${panel}</div>
<section><h2>Description</h2><p>A clean dial with hex-shaped skeleton hands on a stainless steel case of 44 mm.</p></section></main>`);
  const doc = extractDocument(html, "https://shop.example.com/p/classic-ii");
  expect(doc.text.split("Free shipping over $75").length - 1).toBe(1);
  expect(doc.text).toContain("A clean dial with hex-shaped skeleton hands");

  const question =
    "Has anybody tried a beta of Ubuntu 24.04 yet? Which Qt version will it ship in a week's time?";
  const thread = page(`<main><h1>Which Qt6 version for Ubuntu 24.04</h1>
<div class="post"><p>${question}</p></div>
<div class="post"><blockquote><p>${question}</p></blockquote><p>It ships Qt 6.4, the distribution's packages lag behind the releases by a year or so.</p></div></main>`);
  const forum = extractDocument(thread, "https://forum.example.com/t/qt6-ubuntu");
  expect(forum.text.split("Has anybody tried a beta").length - 1).toBe(1);
  expect(forum.text).toContain("It ships Qt 6.4");
});

test("an article's own repeated paragraphs stay (a recipe's recurring line)", () => {
  const line = "Portion containers: one green, one purple, one red, and one teaspoon of oil.";
  const days = ["Monday", "Tuesday"]
    .map(
      (d) =>
        `<h2>${d}</h2><p>Breakfast for ${d} is a shake with spinach, strawberries and almond milk, blended until smooth and cold.</p><p>${line}</p>`,
    )
    .join("");
  const html = page(
    `<article><h1>A week of meals</h1><p>${"This plan balances protein, fibre and fat across the day. ".repeat(4)}</p>${days}</article>`,
    `<meta property="og:type" content="article">`,
  );
  const doc = extractDocument(html, "https://news.example.com/meals");
  expect(doc.text.split("Portion containers").length - 1).toBe(2);
});

test("a grid page whose article pruning leaves a heading and a sentence keeps its grid", () => {
  const names = Array.from({ length: 16 }, (_, i) => `Desk model ${i + 1}`);
  const grid = `<div class="grid">${names.map((n, i) => `<div class="card"><a href="/p/${i}">${n} — from $${100 + i}</a></div>`).join("")}</div>`;
  const doc = extractDocument(
    page(`<main><h1>Desks</h1><p>Every desk we make.</p>${grid}</main>`),
    "https://shop.example.com/desks",
  );
  for (const name of names) expect(doc.text).toContain(name);
});

const PRODUCT_LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Walnut desk"}</script>`;
const cards = (names: string[]) =>
  `<div class="grid">${names.map((n, i) => `<div class="card"><a href="/p/${i}">${n} — from $${100 + i}</a></div>`).join("")}</div>`;

test("the page without its chrome: beside one product a grid of other products goes, a grid that is most of the page stays", () => {
  const others = [
    "Oak side table",
    "Ash bookshelf",
    "Walnut monitor stand",
    "Cherry desk organizer",
  ];
  const html = page(
    `<main><div class="buy"><h1>Walnut desk</h1><span class="price">$649.00</span><div>In stock, ships in four weeks.</div></div>
<div class="tab"><h2>Description</h2><div>Solid walnut top on a powder-coated steel frame, finished by hand with natural oil.</div></div>
<div class="tab"><h2>Details</h2><ul><li>Height 74 cm</li><li>Width 120 or 140 cm</li><li>Weight 32 kg</li></ul></div>
<h2>Customers also bought</h2>${cards(others)}</main>`,
    PRODUCT_LD,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/walnut-desk", {
    mainContent: "page",
  });
  expect(doc.text).toContain("Solid walnut top");
  expect(doc.text).toContain("Height 74 cm");
  for (const name of others) expect(doc.text).not.toContain(name);

  const many = Array.from({ length: 16 }, (_, i) => `Desk model ${i + 1}`);
  const grid = extractDocument(
    page(`<main><h1>Desks</h1><p>Every desk we make.</p>${cards(many)}</main>`, PRODUCT_LD),
    "https://shop.example.com/desks",
    { mainContent: "page" },
  );
  for (const name of many) expect(grid.text).toContain(name);
});

test("customer reviews beside a product go; a page of reviews keeps them", () => {
  const reviews = [
    "Sturdy and beautiful, assembly took twenty minutes and the finish is flawless.",
    "The oil finish picked up a water ring in the first week, otherwise a lovely desk.",
    "Exactly as pictured, the walnut grain is even nicer in person than in the photos.",
  ]
    .map((r, i) => `<div class="review"><span>Buyer ${i + 1}</span><p>${r}</p></div>`)
    .join("");
  const html = page(
    `<main><h1>Walnut desk</h1><p>Price: $649.00</p>
<section><h2>Description</h2><p>Solid walnut top on a powder-coated steel frame, finished by hand with natural oil. Each top is cut from a single board and sanded three times before it is oiled.</p>
<p>The frame takes a monitor arm and a cable tray; the feet level the desk on an uneven floor. We deliver it in two boxes and take the packaging back.</p></section>
<section class="product-reviews"><h2>Reviews (3)</h2>${reviews}</section></main>`,
  );
  const doc = extractDocument(html, "https://shop.example.com/p/walnut-desk");
  expect(doc.text).toContain("Solid walnut top");
  for (const gone of ["Sturdy and beautiful", "water ring", "Buyer 2"])
    expect(doc.text).not.toContain(gone);

  const wall = extractDocument(
    page(
      `<main><h1>What our customers say</h1><section class="customer-reviews">${reviews}</section></main>`,
    ),
    "https://shop.example.com/reviews",
  );
  expect(wall.text).toContain("Sturdy and beautiful");
  expect(wall.text).toContain("water ring");
});

test("a consent dialog whose id names it after a prefix (modal_cookie-consent) is not the content", () => {
  const cookies = ["Technical", "Functionality", "Analytics", "Advertising"]
    .map(
      (k) =>
        `<h4>${k} cookies</h4><p>These cookies are used by this platform to provide ${k.toLowerCase()} features; they are stored on your device for up to twelve months and you can switch them off here at any time.</p>`,
    )
    .join("");
  const html =
    page(`<main><h1>Automatic watches</h1><p>An automatic watch winds itself as you move.</p></main>
<div id="modal_cookie-consent" class="modal"><div class="modal_content"><p>Our platform uses several kinds of cookies, each with its own purpose.</p>${cookies}</div></div>`);
  const doc = extractDocument(html, "https://watches.example.com/automatic-watches");
  expect(doc.text).toContain("An automatic watch winds itself");
  expect(doc.text).not.toContain("Functionality cookies");
});

test("a stray <![CDATA[ in the body is a bogus comment, as in a browser, not the rest of the page", () => {
  const html = page(`<![CDATA[
<div id="top"></div><main><h1>Which GPU to buy</h1>
<div class="post"><p>I am planning to buy an RX 7900 XTX but there are many brands; which one runs coolest?</p></div>
<div class="post"><p>Cards of the same GPU are within a few percent of each other; pick the one with the best cooler.</p></div></main>`);
  const doc = extractDocument(html, "https://forum.example.com/t/gpu");
  expect(doc.text).toContain("I am planning to buy an RX 7900 XTX");
  expect(doc.text).toContain("pick the one with the best cooler");
});

test("a forum served to crawlers inside <noscript> (an empty app shell beside it) is read from there; a page with content of its own keeps ignoring its <noscript>", () => {
  const posts = ["first", "second", "third"]
    .map(
      (n) =>
        `<div class="topic-body crawler-post"><span class="creator">user_${n}</span><div class="post"><p>The ${n} post of the thread says which news site suits a beginner, and why it reads well.</p></div></div>`,
    )
    .join("");
  const shell = `<div id="app"><div class="loading">Loading…</div></div><noscript data-path="/t/news/1"><h1>Best news site for a beginner?</h1>${posts}</noscript>`;
  const doc = extractDocument(page(shell), "https://forum.example.com/t/news/1");
  expect(doc.text).toContain("Best news site for a beginner?");
  for (const n of ["first", "second", "third"]) expect(doc.text).toContain(`The ${n} post`);
  expect(doc.text).not.toContain("Privacy");

  const withContent = page(
    `<main><h1>Pricing</h1><p>Three plans, each billed monthly or yearly, with a free trial of two weeks and no card needed.</p><p>Every plan includes support by mail, single sign-on and an export of your data at any time.</p></main><noscript><p>Please enable JavaScript to use the plan calculator: without it the prices below are the yearly ones.</p></noscript>`,
  );
  const plain = extractDocument(withContent, "https://example.com/pricing");
  expect(plain.text).toContain("Three plans");
  expect(plain.text).not.toContain("enable JavaScript");
});
