/**
 * What each MCP tool is for, when to use it and what comes back: read by the model on every turn
 * (tools/list), so each word earns its place. `INSTRUCTIONS` is sent once, at initialize.
 */

export const INSTRUCTIONS = `webcorpus serves an indexed corpus of company websites: pages as clean markdown with facets (type, format, audience, locale, topics, scores, words, published) and per-domain records.
Typical flow: \`search\` (passages answering a question) or \`list_content\` (pages by facet filters) -> \`get_page_markdown\` for a page's text. \`list_facets\` gives the valid filter values and counts. \`get_domain\` tells how complete and fresh a company's pages are; \`get_domain_markdown\` bundles them into one document. Shelves group companies: \`list_collections\`, \`get_collection\`.
With an API key (HTTP header \`Authorization: Bearer <key>\`): \`start_crawl\` indexes a new root domain (follow it with \`get_job\`), \`place_on_shelf\` files a company on a shelf, \`read_url\` reads one URL now.
Results are compact text for you to read; the full JSON of the HTTP API (GET /api/content, /api/search, …) is the structured content. A failed call is a tool error saying what to change.`;

const KEY = "Needs an API key.";

export const DESCRIPTIONS = {
  search:
    "Passages answering a question (full-text + semantic); use it first. Each hit: title, heading path, passage (≤1,000 chars), page_id, URL.",
  list_content:
    "Pages by facet filters and sort (e.g. a domain's most cited docs), without text: one line each with title, URL, page_id, type/format, words, date.",
  get_page:
    "A page's metadata (facets, scores, shelves, citing pages), then its markdown unless markdown=false. For long text use get_page_markdown.",
  get_page_markdown:
    "A page's text as markdown with YAML frontmatter, at most max_chars; the end says the offset to read on.",
  get_domain:
    "How complete and fresh a company's corpus is: pages indexed and known, estimated site size, errors, locales, changes, linked domains.",
  get_domain_markdown:
    "A company's pages in one markdown document, most cited first; at most max_chars, read on with offset.",
  list_collections:
    "Shelves grouping companies. A slug is the `collection` filter of search and list_content.",
  get_collection:
    "A shelf's companies: domain, reason, placed by (person or agent), pages indexed.",
  get_job:
    "A crawl job's state, progress (pages, rates, ETA, embedding), coverage buckets of every URL found; full=true: sample URLs.",
  list_facets:
    "Each facet's filter argument and values with page counts (in domains or a shelf). Use before filtering.",
  start_crawl: `${KEY} Crawl a company's domain and subdomains into the corpus (or scope: host, URL prefix; include/exclude: path globs). Returns a job_id for get_job; refused while one runs.`,
  read_url: `${KEY} Fetch one public URL now (robots.txt obeyed) and read it as markdown with facets, not stored; at most max_chars, read on with offset.`,
  place_on_shelf: `${KEY} Put a company on a shelf with a reason, as placed by an agent; a new slug makes a shelf. A person's placement is never changed.`,
} as const;

/**
 * Argument descriptions shorter than the HTTP parameters' (which the OpenAPI document keeps);
 * an argument not named here keeps its HTTP description.
 */
export const ARGUMENT_NOTES: Readonly<Record<string, string>> = {
  q: "",
  domain: "",
  collection: "Shelf slug.",
  locale: "BCP 47; de matches de-DE.",
  topics: "list_facets",
  technicality_min: "",
  depth_min: "",
  originality_min: "",
  promotional_max: "",
  words_min: "",
  published_after: "YYYY-MM-DD.",
  sort: "Default: relevance with q, else cited.",
  mode: "",
  type: "docs, blog… (list_facets)",
  format: "list_facets",
  audience: "list_facets",
  has_code: "",
  page_id: "From search or list_content.",
  markdown: "",
  explain: "true: facet signals.",
  max_chars: "",
  offset: "",
  limit: "",
  slug: "",
  job_id: "",
  budget: "Most pages fetched.",
  refresh: "Re-fetch indexed pages.",
  force: "Re-index unchanged pages.",
  shots: "Pages to screenshot.",
  scope: "",
  include: "",
  exclude: "",
  start: "",
  render: "",
  reason: "Why it belongs.",
  url: "http(s) URL.",
};
