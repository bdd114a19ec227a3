/**
 * The closed vocabularies of the page facets (CONTRACT.md "Facets"), each value with what it
 * means. `GET /api/facets` lists them and agents build filters from them, so values are only
 * ever added.
 */

export const TYPES = {
  homepage: "the site's root page",
  product: "describes a product, feature or service offering",
  pricing: "plans, prices or a quote request for the offering",
  docs: "product or technical documentation, guides, manuals",
  api_reference: "reference of an API, SDK, CLI or configuration: endpoints, functions",
  blog: "a post or the index of the company's blog",
  news: "press release, newsroom item or news report",
  case_study: "a customer story or case study",
  careers: "careers overview, culture, open positions list",
  job: "one job posting",
  about: "company, team, mission, leadership, investors overview",
  contact: "contact details or a contact / sales form",
  legal: "terms, privacy, cookies, licences, compliance, imprint",
  support: "help centre, FAQ, troubleshooting, status, community support",
  changelog: "release notes, changelog, what's new",
  event: "an event, webinar, conference or meetup page",
  integration: "an integration, connector, plugin or partner app",
  landing: "a campaign / marketing landing page or solution page",
  listing: "an index of other pages: tags, categories, search, archives, sitemaps",
  other: "none of the above can be told with confidence",
} as const;
export type PageType = keyof typeof TYPES;

export const FORMATS = {
  article: "continuous prose written to be read through",
  reference: "structured lookup material: definitions, parameters, tables, API entries",
  tutorial: "step-by-step instructions to accomplish a task",
  listing: "mostly a list of links or items to other pages",
  landing: "short marketing sections, calls to action, feature blocks",
  faq: "questions and answers",
  form: "the page exists to collect input (contact, signup, application)",
  media: "mainly video, audio, images or a slide deck",
  other: "none of the above can be told with confidence",
  document: "a PDF document: paginated, laid out for print rather than as a web page",
} as const;
export type PageFormat = keyof typeof FORMATS;

export const AUDIENCES = {
  developers: "people who write code against the product",
  technical: "IT, ops, security, data and other technical practitioners",
  business: "buyers and business decision makers",
  consumers: "individual end users and the general public as customers",
  investors: "shareholders and investors",
  job_seekers: "candidates",
  partners: "resellers, integrators, affiliates",
  press: "journalists and analysts",
  general: "no specific audience can be told",
} as const;
export type Audience = keyof typeof AUDIENCES;

export const TOPICS = {
  "ai-ml": "machine learning, AI models, LLMs, training and inference",
  analytics: "business intelligence, dashboards, metrics, product analytics",
  "api-integration": "APIs, webhooks, SDKs, connecting systems together",
  automation: "workflow automation, RPA, no-code/low-code tools",
  cloud: "cloud infrastructure, hosting, IaaS/PaaS, serverless",
  collaboration: "team communication, chat, documents, project management",
  commerce: "online stores, carts, checkout, retail, marketplaces",
  compliance: "regulation, certifications, GDPR, SOC 2, audits",
  "crm-sales": "customer relationship management, sales pipelines, leads",
  "customer-support": "help desks, ticketing, customer service",
  "data-engineering": "data pipelines, ETL, warehouses, streaming",
  databases: "database engines, SQL, queries, schemas, storage of records",
  design: "UI/UX design, graphics, prototyping, branding",
  devops: "CI/CD, deployment, containers, infrastructure as code",
  "developer-tools": "programming languages, editors, libraries, build and test tools",
  education: "courses, training, learning platforms, certification programs",
  energy: "energy, utilities, climate and sustainability",
  finance: "accounting, banking, invoicing, financial services, markets",
  gaming: "video games and game development",
  hardware: "devices, chips, electronics, IoT, manufacturing of equipment",
  healthcare: "medicine, health, life sciences, patient care",
  "hr-recruiting": "hiring, HR, payroll, people management",
  identity: "authentication, SSO, access management, passwords",
  "legal-privacy": "terms, contracts, personal data and privacy",
  marketing: "marketing campaigns, email, SEO, advertising",
  media: "publishing, video, audio, streaming, news media",
  mobile: "mobile apps, iOS, Android",
  networking: "networks, DNS, CDN, protocols, telecom",
  observability: "monitoring, logging, tracing, alerting, incidents",
  "open-source": "open source projects, licences, communities",
  "operating-systems": "operating systems, Linux, packages, system administration",
  payments: "payment processing, billing, subscriptions, cards",
  performance: "speed, scalability, caching, benchmarking",
  search: "search engines, indexing, retrieval",
  security: "cybersecurity, vulnerabilities, encryption, threats",
  transport: "mobility, logistics, vehicles, travel",
  "web-development": "web frameworks, HTML/CSS/JS, browsers, sites",
} as const;
export type Topic = keyof typeof TOPICS;

export const TYPE_VALUES = Object.keys(TYPES) as PageType[];
export const FORMAT_VALUES = Object.keys(FORMATS) as PageFormat[];
export const AUDIENCE_VALUES = Object.keys(AUDIENCES) as Audience[];
export const TOPIC_VALUES = Object.keys(TOPICS) as Topic[];

export function isPageType(value: string): value is PageType {
  return Object.hasOwn(TYPES, value);
}
export function isPageFormat(value: string): value is PageFormat {
  return Object.hasOwn(FORMATS, value);
}
export function isAudience(value: string): value is Audience {
  return Object.hasOwn(AUDIENCES, value);
}
