# ruff: noqa
# Labeling record: how labels.jsonl and ../pages/ were produced (run from this directory with
# /tmp/facets-docs unpacked). Page texts and labels are hand-written; see build.py.
# (slug, url, lang, title, jsonld, og, body_html, labels(type,format,audience,locale,has_code,published))
P = []


def add(slug, url, lang, title, body, lab, jsonld=None, og=None):
    P.append(
        dict(slug=slug, url=url, lang=lang, title=title, body=body, lab=lab, jsonld=jsonld, og=og)
    )


# ---------- Stackmint: managed Postgres for developers ----------
add(
    "stackmint-home",
    "https://stackmint.io/",
    "en",
    "Stackmint — Serverless Postgres that scales to zero",
    """
<h1>Postgres that scales with your app</h1>
<p>Stackmint is the serverless Postgres platform trusted by 40,000 developers. Branch your database like code, scale to zero when idle, and never manage a server again.</p>
<a class="btn" href="/signup">Start for free</a> <a href="/demo">Book a demo</a>
<h2>Why teams choose Stackmint</h2>
<ul><li><b>Instant branching</b> — a full copy of production data in under a second.</li>
<li><b>Autoscaling</b> — compute follows your traffic, up and down.</li>
<li><b>Point-in-time restore</b> — rewind any branch to any second of the last 30 days.</li></ul>
<p>"We cut our database bill by 60% in the first month." — Priya, CTO at Loopwise</p>
<a href="/pricing">See pricing</a>""",
    ("homepage", "landing", "developers", "en", False, None),
)
add(
    "stackmint-pricing",
    "https://stackmint.io/pricing",
    "en",
    "Pricing | Stackmint",
    """
<h1>Simple, usage-based pricing</h1><p>Start free. Pay only for the compute and storage you use.</p>
<h2>Free</h2><p>$0 / month</p><ul><li>1 project</li><li>0.5 GB storage</li><li>Community support</li></ul><a href="/signup">Get started</a>
<h2>Launch</h2><p>$19 / month</p><ul><li>10 projects</li><li>10 GB storage included, then $0.15 per GB-month</li><li>Email support</li></ul><a href="/signup?plan=launch">Start free trial</a>
<h2>Scale</h2><p>$69 / month</p><ul><li>50 projects</li><li>50 GB storage</li><li>Read replicas</li><li>99.95% SLA</li></ul>
<h2>Enterprise</h2><p>Custom pricing, SSO, dedicated support, HIPAA. <a href="/contact-sales">Talk to sales</a></p>
<h2>Frequently asked questions</h2><h3>What counts as compute?</h3><p>Compute hours are billed per second while your endpoint is active.</p><h3>Can I change plans anytime?</h3><p>Yes, upgrades apply immediately and are prorated.</p>""",
    ("pricing", "landing", "developers", "en", False, None),
)
add(
    "stackmint-docs-quickstart",
    "https://stackmint.io/docs/get-started/quickstart",
    "en",
    "Quickstart — Stackmint Docs",
    """
<h1>Quickstart</h1><p>This guide takes you from zero to a running database in five minutes.</p>
<h2>1. Install the CLI</h2><pre><code>npm install -g stackmint</code></pre>
<h2>2. Log in</h2><pre><code>stackmint auth login</code></pre>
<h2>3. Create a project</h2><pre><code>stackmint projects create --name my-app --region eu-central-1</code></pre>
<p>The command prints a connection string. Export it as <code>DATABASE_URL</code>.</p>
<h2>4. Connect from Node.js</h2><pre><code class="language-js">import postgres from 'postgres'
const sql = postgres(process.env.DATABASE_URL)
const rows = await sql`select version()`
console.log(rows)</code></pre>
<h2>Next steps</h2><ol><li>Create a branch for your development environment.</li><li>Enable connection pooling for serverless functions.</li><li>Set up point-in-time restore.</li></ol>""",
    ("docs", "tutorial", "developers", "en", True, None),
)
add(
    "stackmint-api-branches",
    "https://stackmint.io/docs/api/branches",
    "en",
    "Branches API reference — Stackmint Docs",
    """
<h1>Branches</h1><p>Create, list and delete database branches.</p>
<h2>POST /v2/projects/{project_id}/branches</h2><p>Creates a branch from the parent branch at its current state or at a timestamp.</p>
<h3>Parameters</h3><table><tr><th>Name</th><th>Type</th><th>Description</th></tr>
<tr><td>project_id</td><td>string</td><td>The project ID. Required.</td></tr>
<tr><td>parent_id</td><td>string</td><td>Branch to copy. Defaults to the primary branch.</td></tr>
<tr><td>parent_timestamp</td><td>string (RFC 3339)</td><td>Point in time to branch from.</td></tr>
<tr><td>name</td><td>string</td><td>Branch name, unique per project.</td></tr></table>
<h3>Returns</h3><p>201 with the branch object.</p>
<pre><code class="language-bash">curl -X POST https://api.stackmint.io/v2/projects/$PROJECT/branches \\
  -H "Authorization: Bearer $STACKMINT_API_KEY" \\
  -d '{"branch": {"name": "dev-alice"}}'</code></pre>
<pre><code class="language-json">{"branch": {"id": "br-small-frog-123", "name": "dev-alice", "created_at": "2025-02-03T10:00:00Z"}}</code></pre>
<h2>GET /v2/projects/{project_id}/branches</h2><p>Lists branches. Supports <code>cursor</code> and <code>limit</code> (1..100).</p>
<h2>DELETE /v2/projects/{project_id}/branches/{branch_id}</h2><p>Deletes a branch and its compute endpoints. Returns 200 with the deleted branch.</p>""",
    ("api_reference", "reference", "developers", "en", True, None),
)
add(
    "stackmint-blog-post",
    "https://stackmint.io/blog/how-we-made-branching-instant",
    "en",
    "How we made database branching instant — Stackmint Blog",
    """
<h1>How we made database branching instant</h1><p class="byline">By Tomás Ferreira · March 4, 2025 · 9 min read</p>
<p>When we started Stackmint, creating a copy of a 200 GB database took forty minutes. Today it takes 300 milliseconds, regardless of size. This post explains the copy-on-write storage layer that made it possible.</p>
<h2>Separating storage from compute</h2><p>Postgres writes pages to local disk. We replaced the storage manager with a client of our page server, which keeps every version of every page keyed by log sequence number (LSN). A branch is nothing more than a pointer: a timeline ID plus the LSN it started from.</p>
<pre><code>SELECT pg_current_wal_lsn();  -- 0/16B3748</code></pre>
<h2>Reading a page</h2><p>When a compute node asks for page 42 of relation 16384 at LSN 0/16B3748, the page server finds the latest image before that LSN and replays the WAL records after it. Hot pages are cached, so most reads never touch object storage.</p>
<h2>What it cost us</h2><p>Garbage collection is harder: a page version can only be dropped when no branch can still see it. We track the oldest LSN per timeline and compact layers in the background, which added about 8% write amplification in our benchmarks.</p>
<p>Next time we will write about how we handle WAL safekeeping across three availability zones.</p>""",
    ("blog", "article", "developers", "en", True, "2025-03-04"),
    jsonld={"@type": "BlogPosting", "datePublished": "2025-03-04"},
    og="article",
)
add(
    "stackmint-changelog",
    "https://stackmint.io/changelog",
    "en",
    "Changelog — Stackmint",
    """
<h1>Changelog</h1>
<h2>v2.14.0 — 2025-05-12</h2><ul><li>Added: read replicas in the eu-west-2 region.</li><li>Fixed: branch deletion could leave an idle endpoint running.</li></ul>
<h2>v2.13.2 — 2025-04-28</h2><ul><li>Fixed: <code>stackmint connect</code> ignored the <code>--role</code> flag.</li><li>Improved: cold start time down to 450 ms at p95.</li></ul>
<h2>v2.13.0 — 2025-04-10</h2><ul><li>Added: Postgres 17 support.</li><li>Deprecated: the v1 branches API; it will be removed on 2025-10-01.</li></ul>
<h2>v2.12.0 — 2025-03-20</h2><ul><li>Added: IP allow lists on the Scale plan.</li><li>Changed: default autosuspend delay is now 5 minutes.</li></ul>""",
    # has_code False: inline identifiers only, no code block (see src/webcorpus/facets/code.py)
    ("changelog", "article", "developers", "en", False, None),
)
add(
    "stackmint-careers",
    "https://stackmint.io/careers",
    "en",
    "Careers at Stackmint",
    """
<h1>Build the database of the next decade</h1><p>We are a remote-first team of 85 people across 20 countries. Join us.</p>
<h2>Why Stackmint</h2><ul><li>Competitive salary and equity</li><li>Four-day offsite every year</li><li>$1,500 learning budget</li><li>Home office setup</li></ul>
<h2>Open positions</h2><h3>Engineering</h3><ul><li><a href="/careers/senior-storage-engineer">Senior Storage Engineer</a> — Remote (Europe)</li><li><a href="/careers/site-reliability-engineer">Site Reliability Engineer</a> — Remote (Americas)</li><li><a href="/careers/frontend-engineer">Frontend Engineer</a> — Lisbon</li></ul>
<h3>Go-to-market</h3><ul><li><a href="/careers/account-executive">Account Executive, Enterprise</a> — New York</li></ul>
<p>Don't see a role that fits? Write to jobs@stackmint.io.</p>""",
    ("careers", "landing", "job_seekers", "en", False, None),
)
add(
    "stackmint-job",
    "https://stackmint.io/careers/senior-storage-engineer",
    "en",
    "Senior Storage Engineer — Stackmint",
    """
<h1>Senior Storage Engineer</h1><p>Remote (Europe) · Engineering · Full-time</p>
<h2>About the role</h2><p>You will work on the page server and the safekeepers, the distributed storage layer behind every Stackmint database. You will design features such as tiered storage and faster compaction, and be on call for the systems you build.</p>
<h2>What you'll do</h2><ul><li>Design and implement storage features in Rust.</li><li>Profile and improve read latency on large tenants.</li><li>Write design documents and review code.</li></ul>
<h2>Requirements</h2><ul><li>5+ years of experience building systems software.</li><li>Strong knowledge of Rust or C++.</li><li>Understanding of database internals, WAL, or distributed consensus.</li></ul>
<h2>Nice to have</h2><ul><li>Contributions to PostgreSQL.</li></ul>
<h2>Benefits</h2><p>Equity, 30 days of paid vacation, learning budget.</p><a href="/apply/123">Apply now</a>""",
    ("job", "article", "job_seekers", "en", False, None),
    jsonld={"@type": "JobPosting", "title": "Senior Storage Engineer", "datePosted": "2025-04-01"},
)
add(
    "stackmint-privacy",
    "https://stackmint.io/legal/privacy",
    "en",
    "Privacy Policy — Stackmint",
    """
<h1>Privacy Policy</h1><p>Last updated: January 15, 2025</p>
<p>This Privacy Policy describes how Stackmint, Inc. ("Stackmint", "we") collects, uses and discloses personal data when you use our website and services.</p>
<h2>1. Data we collect</h2><p>Account data (name, email address, billing address), usage data (logs of API requests, IP addresses), and cookies as described in our Cookie Policy.</p>
<h2>2. How we use data</h2><p>To provide and secure the services, to bill you, to communicate with you and, with your consent, for marketing.</p>
<h2>3. Legal bases</h2><p>Where the GDPR applies, we process personal data on the basis of contract performance, legitimate interests, legal obligations and consent.</p>
<h2>4. Sub-processors</h2><p>We use sub-processors listed at stackmint.io/legal/subprocessors.</p>
<h2>5. Your rights</h2><p>You may request access, rectification, erasure or portability of your personal data by writing to privacy@stackmint.io.</p>
<h2>6. Retention</h2><p>We keep account data for the life of the account and up to 90 days after deletion.</p>""",
    ("legal", "article", "general", "en", False, None),
)
add(
    "stackmint-contact",
    "https://stackmint.io/contact-sales",
    "en",
    "Contact sales — Stackmint",
    """
<h1>Talk to our sales team</h1><p>Tell us about your workload and we will get back within one business day.</p>
<form><label>First name</label><input><label>Last name</label><input><label>Work email</label><input><label>Company name</label><input><label>Database size</label><select><option>Under 100 GB</option><option>100 GB – 1 TB</option></select><label>Your message</label><textarea></textarea><button>Submit</button></form>
<p>Looking for support? Visit the <a href="/support">help center</a>.</p>""",
    ("contact", "form", "business", "en", False, None),
)
add(
    "stackmint-case-study",
    "https://stackmint.io/customers/loopwise",
    "en",
    "Loopwise cut database costs by 60% with Stackmint",
    """
<h1>How Loopwise cut database costs by 60%</h1><p>Loopwise is a customer feedback platform used by 3,000 product teams.</p>
<h2>The challenge</h2><p>Loopwise ran 400 preview environments, each with its own Postgres instance on RDS. Most sat idle overnight but still cost money, and seeding each with test data took 20 minutes.</p>
<h2>The solution</h2><p>The team moved to Stackmint and replaced seed scripts with branches of a sanitized staging database. Preview environments now get a branch in under a second, and autosuspend stops compute when nobody is testing.</p>
<h2>The results</h2><ul><li>60% lower monthly database spend</li><li>Preview environments ready 20 minutes sooner</li><li>No more stale test data</li></ul>
<blockquote>"Branching changed how we ship. Every pull request gets real data." — Priya Raman, CTO</blockquote><a href="/demo">Book a demo</a>""",
    ("case_study", "article", "business", "en", False, None),
)
add(
    "stackmint-integration-vercel",
    "https://stackmint.io/integrations/vercel",
    "en",
    "Vercel integration — Stackmint",
    """
<h1>Stackmint for Vercel</h1><p>Connect Stackmint to your Vercel project and get a database branch for every preview deployment.</p>
<h2>How it works</h2><ol><li>Install the integration from the Vercel marketplace.</li><li>Pick the Stackmint project to link.</li><li>Every preview deployment receives its own <code>DATABASE_URL</code> pointing to a fresh branch.</li></ol>
<h2>Features</h2><ul><li>Automatic branch cleanup when the preview is deleted</li><li>Environment variables synced to Vercel</li><li>Works with Next.js, Remix and SvelteKit</li></ul>
<a href="https://vercel.com/integrations/stackmint">Add integration</a>""",
    ("integration", "landing", "developers", "en", False, None),
)
add(
    "stackmint-event",
    "https://stackmint.io/events/postgres-at-scale-2025",
    "en",
    "Postgres at Scale 2025 — Stackmint",
    """
<h1>Postgres at Scale 2025</h1><p>June 18, 2025 · Online · Free</p>
<p>A half-day virtual conference on running Postgres in production, with talks from engineers at Stackmint, Loopwise and Fieldnote.</p>
<h2>Agenda</h2><ul><li>16:00 UTC — Keynote: the state of serverless Postgres</li><li>16:40 — Zero-downtime schema migrations</li><li>17:20 — Query plans explained</li><li>18:00 — Panel: Postgres for AI workloads</li></ul>
<h2>Speakers</h2><p>Tomás Ferreira, Priya Raman, Dr. Mei Lin</p><a href="/events/postgres-at-scale-2025/register">Register now</a>""",
    ("event", "landing", "developers", "en", False, None),
    jsonld={"@type": "Event", "name": "Postgres at Scale 2025", "startDate": "2025-06-18"},
)
add(
    "stackmint-about",
    "https://stackmint.io/about",
    "en",
    "About us — Stackmint",
    """
<h1>About Stackmint</h1><p>Stackmint was founded in 2021 by three database engineers who had spent a decade running Postgres for others. Our mission is to make the database the easiest part of building software.</p>
<h2>Our team</h2><p>We are 85 people working remotely from 20 countries, with hubs in Lisbon and New York.</p>
<h2>Leadership</h2><ul><li>Ana Costa — CEO and co-founder</li><li>Tomás Ferreira — CTO and co-founder</li><li>Jordan Blake — VP Sales</li></ul>
<h2>Investors</h2><p>We are backed by Northgate Ventures and Foundry Partners, with $48M raised to date.</p>""",
    ("about", "article", "general", "en", False, None),
)
add(
    "stackmint-blog-index",
    "https://stackmint.io/blog",
    "en",
    "Blog — Stackmint",
    """
<h1>Blog</h1>
<ul><li><a href="/blog/how-we-made-branching-instant">How we made database branching instant</a> — March 4, 2025</li>
<li><a href="/blog/postgres-17-is-here">Postgres 17 is here</a> — February 20, 2025</li>
<li><a href="/blog/connection-pooling-serverless">Connection pooling for serverless functions</a> — February 2, 2025</li>
<li><a href="/blog/scale-to-zero">Why scale to zero matters</a> — January 14, 2025</li>
<li><a href="/blog/2024-in-review">2024 in review</a> — December 30, 2024</li>
<li><a href="/blog/page/2">Older posts</a></li></ul>""",
    ("listing", "listing", "general", "en", False, None),
)
add(
    "stackmint-support-faq",
    "https://stackmint.io/support/faq",
    "en",
    "FAQ — Stackmint Help Center",
    """
<h1>Frequently asked questions</h1>
<h2>Why is my first query slow?</h2><p>If your endpoint was suspended, the first connection wakes it up, which takes about half a second.</p>
<h2>How do I reset my database password?</h2><p>Open the project settings, choose Roles, and click Reset password.</p>
<h2>Which Postgres extensions are supported?</h2><p>Over 70 extensions including pgvector, PostGIS and pg_stat_statements.</p>
<h2>How do I delete my account?</h2><p>Delete all projects, then go to Account settings and choose Delete account.</p>""",
    ("support", "faq", "developers", "en", False, None),
    jsonld={"@type": "FAQPage"},
)
add(
    "stackmint-press",
    "https://stackmint.io/news/stackmint-raises-series-b",
    "en",
    "Stackmint raises $35M Series B — Stackmint Newsroom",
    """
<h1>Stackmint raises $35M Series B to bring serverless Postgres to every developer</h1><p>LISBON, Portugal — May 6, 2025 — Stackmint, the serverless Postgres company, today announced a $35 million Series B round led by Northgate Ventures, with participation from Foundry Partners.</p>
<p>The funding will expand Stackmint's engineering team and open new regions in Asia-Pacific. The company says usage has grown five-fold in the past year, to more than 40,000 developers.</p>
<p>"Developers should not have to think about database servers," said Ana Costa, CEO and co-founder.</p>
<h2>About Stackmint</h2><p>Stackmint offers serverless Postgres with branching and autoscaling.</p><p>Media contact: press@stackmint.io</p>""",
    ("news", "article", "press", "en", False, "2025-05-06"),
    jsonld={"@type": "NewsArticle", "datePublished": "2025-05-06"},
    og="article",
)
