/** A small company page for extraction tests: the site's header navigation, a footer and a
 * cookie banner around `body` (the chrome main-content selection must leave out). */
const CHROME = `<header><nav><a href="/">Home</a><a href="/pricing">Pricing</a><a href="/docs">Docs</a></nav></header>`;
const FOOTER = `<footer><p>© 2026 Example Inc.</p><a href="/privacy">Privacy</a><a href="/imprint">Imprint</a></footer>
<div id="onetrust-banner-sdk"><p>We use cookies to improve your experience. Accept all cookies?</p></div>`;

export const companyPage = (body: string, head = ""): string =>
  `<!doctype html><html lang="en"><head><title>Example</title>${head}</head><body>${CHROME}${body}${FOOTER}</body></html>`;
