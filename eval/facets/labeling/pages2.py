# ruff: noqa
# Labeling record: how labels.jsonl and ../pages/ were produced (run from this directory with
# /tmp/facets-docs unpacked). Page texts and labels are hand-written; see build.py.
from pages1 import add

# ---------- Ledgerly: payments / invoicing for businesses (en-GB) ----------
add(
    "ledgerly-home",
    "https://www.ledgerly.co.uk/",
    "en-GB",
    "Ledgerly | Get paid faster",
    """
<h1>Get paid faster. Automatically.</h1><p>Ledgerly sends your invoices, chases late payments and reconciles every transaction with your accounting software. Over 12,000 UK businesses use Ledgerly to save hours each week.</p>
<a href="/signup">Start your free trial</a><h2>Everything your finance team needs</h2><ul><li>Automated reminders</li><li>Card and Direct Debit payments</li><li>Xero and QuickBooks sync</li></ul><p>Rated 4.8/5 by 2,000 customers.</p>""",
    ("homepage", "landing", "business", "en-GB", False, None),
)
add(
    "ledgerly-product-invoicing",
    "https://www.ledgerly.co.uk/product/invoicing",
    "en-GB",
    "Online invoicing software | Ledgerly",
    """
<h1>Invoicing that chases itself</h1><p>Create professional invoices in seconds and let Ledgerly follow up until they are paid.</p>
<h2>Smart reminders</h2><p>Polite emails go out before and after the due date, in your tone of voice.</p>
<h2>Pay in one click</h2><p>Customers pay by card, Apple Pay or Direct Debit straight from the invoice.</p>
<h2>Reconciliation on autopilot</h2><p>Payments are matched to invoices and pushed to your accounting software.</p>
<p>Businesses using Ledgerly get paid 11 days faster on average.</p><a href="/signup">Try it free for 14 days</a> <a href="/demo">Book a demo</a>""",
    ("product", "landing", "business", "en-GB", False, None),
    jsonld={"@type": "SoftwareApplication", "name": "Ledgerly Invoicing"},
)
add(
    "ledgerly-pricing",
    "https://www.ledgerly.co.uk/pricing",
    "en-GB",
    "Plans and pricing | Ledgerly",
    """
<h1>Plans for every business</h1><p>All prices exclude VAT. Billed monthly or annually (save 20%).</p>
<h2>Starter</h2><p>£12 per month</p><p>Up to 20 invoices a month, card payments at 1.4% + 20p.</p>
<h2>Growth</h2><p>£29 per month</p><p>Unlimited invoices, automated reminders, Xero sync.</p>
<h2>Pro</h2><p>£59 per month</p><p>Multi-currency, approval workflows, priority support.</p>
<a href="/signup">Start free trial</a><p>Need more than 10 users? <a href="/contact">Contact sales</a>.</p>""",
    ("pricing", "landing", "business", "en-GB", False, None),
)
add(
    "ledgerly-docs-webhooks",
    "https://developers.ledgerly.co.uk/webhooks",
    "en-GB",
    "Webhooks | Ledgerly Developers",
    """
<h1>Webhooks</h1><p>Ledgerly sends an HTTP POST to your endpoint when an invoice changes state.</p>
<h2>Events</h2><table><tr><th>Event</th><th>When</th></tr><tr><td>invoice.sent</td><td>An invoice was emailed</td></tr><tr><td>invoice.paid</td><td>Full payment received</td></tr><tr><td>invoice.overdue</td><td>Due date passed without payment</td></tr></table>
<h2>Verifying signatures</h2><p>Each request carries a <code>Ledgerly-Signature</code> header, an HMAC-SHA256 of the raw body with your webhook secret.</p>
<pre><code class="language-python">import hmac, hashlib

def verify(body: bytes, header: str, secret: str) -> bool:
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)</code></pre>
<h2>Retries</h2><p>Failed deliveries are retried with exponential backoff for 72 hours.</p>""",
    ("docs", "reference", "developers", "en-GB", True, None),
)
add(
    "ledgerly-terms",
    "https://www.ledgerly.co.uk/terms",
    "en-GB",
    "Terms of Service | Ledgerly",
    """
<h1>Terms of Service</h1><p>Effective from 1 March 2025.</p><p>These terms form an agreement between you and Ledgerly Ltd, a company registered in England and Wales (no. 09876543).</p>
<h2>1. The service</h2><p>Ledgerly provides invoicing and payment collection software. Payment services are provided by our regulated partner.</p>
<h2>2. Your account</h2><p>You are responsible for keeping your login credentials secure and for all activity on your account.</p>
<h2>3. Fees</h2><p>Subscription fees are billed in advance and are non-refundable except where required by law.</p>
<h2>4. Liability</h2><p>To the extent permitted by law, our aggregate liability is limited to the fees paid in the twelve months before the claim.</p>
<h2>5. Governing law</h2><p>These terms are governed by the laws of England and Wales.</p>""",
    ("legal", "article", "general", "en-GB", False, None),
)
add(
    "ledgerly-case-study",
    "https://www.ledgerly.co.uk/customer-stories/harbour-plumbing",
    "en-GB",
    "Harbour Plumbing gets paid 3 weeks sooner | Ledgerly",
    """
<h1>Harbour Plumbing gets paid three weeks sooner</h1><p>Harbour Plumbing is a family business in Bristol with 14 engineers.</p>
<h2>The challenge</h2><p>Office manager Claire spent every Friday phoning customers about unpaid invoices. Average payment time was 41 days.</p>
<h2>The solution</h2><p>Harbour switched to Ledgerly, added a "Pay now" button to every invoice and turned on automatic reminders.</p>
<h2>The results</h2><p>Average payment time dropped to 19 days and Claire got her Fridays back.</p>""",
    ("case_study", "article", "business", "en-GB", False, None),
)
add(
    "ledgerly-blog",
    "https://www.ledgerly.co.uk/blog/late-payment-law-uk",
    "en-GB",
    "Late payment interest in the UK: what small businesses can claim | Ledgerly",
    """
<h1>Late payment interest in the UK: what small businesses can claim</h1><p>Written by Hannah Okafor, 12 February 2025</p>
<p>Under the Late Payment of Commercial Debts (Interest) Act 1998, a business can charge statutory interest of 8% plus the Bank of England base rate on overdue invoices to other businesses.</p>
<h2>Fixed compensation</h2><p>On top of interest you can claim a fixed sum: £40 for debts under £1,000, £70 for debts up to £10,000 and £100 above that.</p>
<h2>When to use it</h2><p>Most businesses use the threat of statutory interest rather than the claim itself. Mentioning it in your payment terms is often enough.</p>
<h2>How to calculate it</h2><p>Daily interest is the debt multiplied by the interest rate, divided by 365. For a £2,000 invoice at 13.25%, that is about 73p a day.</p>""",
    ("blog", "article", "business", "en-GB", False, "2025-02-12"),
    og="article",
    jsonld={"@type": "BlogPosting", "datePublished": "2025-02-12"},
)
add(
    "ledgerly-integration-xero",
    "https://www.ledgerly.co.uk/integrations/xero",
    "en-GB",
    "Xero integration | Ledgerly",
    """
<h1>Ledgerly + Xero</h1><p>Sync invoices, contacts and payments between Ledgerly and Xero in real time.</p>
<ul><li>Invoices created in Xero appear in Ledgerly automatically</li><li>Payments are marked as paid in Xero with the right bank account</li><li>Fees are posted to a separate account</li></ul>
<p>Set up in two minutes: connect your Xero organisation from Settings → Integrations.</p><a href="/signup">Connect Xero</a>""",
    ("integration", "landing", "business", "en-GB", False, None),
)
add(
    "ledgerly-partners",
    "https://www.ledgerly.co.uk/partners",
    "en-GB",
    "Partner programme for accountants | Ledgerly",
    """
<h1>Become a Ledgerly partner</h1><p>Accountants and bookkeepers earn 20% recurring commission for every client they refer, plus free access for their own practice.</p>
<h2>Partner benefits</h2><ul><li>Dedicated partner manager</li><li>Co-branded client onboarding</li><li>Listing in our partner directory</li></ul>
<p>Join 600 solution partners across the UK.</p><a href="/partners/apply">Apply to the partner programme</a>""",
    ("landing", "landing", "partners", "en-GB", False, None),
)
add(
    "ledgerly-investors",
    "https://www.ledgerly.co.uk/investors",
    "en-GB",
    "Investor relations | Ledgerly plc",
    """
<h1>Investor relations</h1><p>Ledgerly plc is listed on the AIM market of the London Stock Exchange (LDGR).</p>
<h2>Latest results</h2><p>Half-year results for the six months to 30 September 2024: revenue up 34% to £18.2m; annual recurring revenue £39.5m.</p>
<h2>Reports and presentations</h2><ul><li><a href="/investors/annual-report-2024.pdf">Annual report 2024</a></li><li><a href="/investors/interim-2024.pdf">Interim results 2024</a></li></ul>
<h2>Shareholder information</h2><p>Dividend policy, share price and AGM notices for shareholders.</p>""",
    ("about", "article", "investors", "en-GB", False, None),
)
add(
    "ledgerly-help-article",
    "https://help.ledgerly.co.uk/articles/refund-a-payment",
    "en-GB",
    "How to refund a payment | Ledgerly Help Centre",
    """
<h1>How to refund a payment</h1><p>You can refund card payments in full or in part for up to 180 days.</p>
<ol><li>Open the invoice and select the payment.</li><li>Click Refund.</li><li>Enter the amount and a reason.</li><li>Confirm. The customer receives the money in 5–10 working days.</li></ol>
<p>Direct Debit payments cannot be refunded from Ledgerly; ask the customer to contact their bank.</p><p>Was this article helpful?</p>""",
    ("support", "tutorial", "general", "en-GB", False, None),
)
# ---------- Brightnest: consumer smart thermostat (en-US) ----------
add(
    "brightnest-home",
    "https://brightnest.com/",
    "en-US",
    "Brightnest Smart Thermostat — Save energy, stay comfy",
    """
<h1>The thermostat that pays for itself</h1><p>Brightnest learns your schedule and saves you up to 23% on heating and cooling. Installs in 30 minutes, no electrician needed.</p>
<a href="/shop">Shop now</a><h2>Love your home again</h2><p>Control the temperature from your phone, get alerts if a window is left open, and see exactly how much you save each month.</p><p>Free shipping and 60-day returns.</p>""",
    ("homepage", "landing", "consumers", "en-US", False, None),
)
add(
    "brightnest-product",
    "https://brightnest.com/products/brightnest-3",
    "en-US",
    "Brightnest 3 Smart Thermostat — $129",
    """
<h1>Brightnest 3 Smart Thermostat</h1><p>$129.00 <s>$169.00</s> — Save $40 this week only!</p>
<p>Our smartest, sleekest thermostat yet. Works with Alexa, Google Home and Apple Home.</p>
<ul><li>Auto-schedule learns your routine in a week</li><li>Remote sensors for every room (sold separately)</li><li>Energy reports and rebates from your utility</li></ul>
<p>Colors: Snow, Graphite, Brass</p><a href="/cart/add?sku=BN3">Add to cart</a><p>4.7 stars from 8,214 reviews. Free shipping. Amazing support!</p>""",
    ("product", "landing", "consumers", "en-US", False, None),
    jsonld={
        "@type": "Product",
        "name": "Brightnest 3",
        "offers": {"@type": "Offer", "price": "129.00", "priceCurrency": "USD"},
    },
    og="product",
)
add(
    "brightnest-support-install",
    "https://brightnest.com/support/install-brightnest-3",
    "en-US",
    "How to install your Brightnest 3 | Brightnest Support",
    """
<h1>How to install your Brightnest 3</h1><p>Installation takes about 30 minutes. You need a screwdriver and your phone.</p>
<h2>Step 1: Turn off power</h2><p>Switch off your heating and cooling system at the breaker.</p>
<h2>Step 2: Remove your old thermostat</h2><p>Take a photo of the wiring before you disconnect anything. Label each wire with the stickers in the box.</p>
<h2>Step 3: Mount the base</h2><p>Use the level on the base plate and the included screws.</p>
<h2>Step 4: Connect the wires</h2><p>Insert each wire into the terminal with the same letter (R, C, W, Y, G).</p>
<h2>Step 5: Attach the display and power on</h2><p>Follow the setup in the Brightnest app.</p>""",
    ("support", "tutorial", "consumers", "en-US", False, None),
    jsonld={"@type": "HowTo"},
)
add(
    "brightnest-cookie",
    "https://brightnest.com/legal/cookies",
    "en-US",
    "Cookie Policy | Brightnest",
    """
<h1>Cookie Policy</h1><p>Updated October 2, 2024.</p><p>We use cookies and similar technologies on brightnest.com. This policy explains what they are and how you can control them.</p>
<h2>Strictly necessary cookies</h2><p>Keep your cart and your login. They cannot be switched off.</p>
<h2>Analytics cookies</h2><p>Help us understand how visitors use the site. Set only with your consent.</p>
<h2>Advertising cookies</h2><p>Set by our advertising partners to show relevant ads on other sites. Set only with your consent.</p>
<h2>Managing cookies</h2><p>Use the Cookie settings link in the footer or your browser settings.</p>""",
    ("legal", "article", "general", "en-US", False, None),
)
add(
    "brightnest-blog",
    "https://brightnest.com/blog/winter-energy-saving-tips",
    "en-US",
    "7 ways to save on heating this winter | Brightnest Blog",
    """
<h1>7 ways to save on heating this winter</h1><p>Posted November 8, 2024 by the Brightnest team</p>
<p>Heating is the biggest energy cost in most American homes. Here are seven simple habits that cut the bill without making you cold.</p>
<h2>1. Lower the setpoint at night</h2><p>Every degree you turn down for eight hours saves about 1% on your heating bill.</p>
<h2>2. Seal the drafts</h2><p>Weatherstripping around doors costs less than $20 and pays for itself in a month.</p>
<h2>3. Use your ceiling fans in reverse</h2><p>Clockwise at low speed pushes warm air down from the ceiling.</p>
<h2>4. Let the sun in</h2><p>Open south-facing curtains during the day and close them at dusk.</p>
<p>And of course, a Brightnest thermostat does the first one for you automatically!</p>""",
    ("blog", "article", "consumers", "en-US", False, "2024-11-08"),
    og="article",
)
add(
    "brightnest-careers-job",
    "https://brightnest.com/jobs/customer-support-specialist",
    "en-US",
    "Customer Support Specialist — Brightnest Careers",
    """
<h1>Customer Support Specialist</h1><p>Austin, TX · Full-time · Customer Experience</p>
<p>Help homeowners get the most out of their Brightnest. You will answer calls, chats and emails, troubleshoot installations and turn unhappy customers into fans.</p>
<h2>Responsibilities</h2><ul><li>Resolve 40+ customer conversations per day</li><li>Guide customers through wiring questions</li><li>Report product issues to the engineering team</li></ul>
<h2>Qualifications</h2><ul><li>1+ years of experience in customer support</li><li>Clear written English</li><li>Comfort with basic electrical concepts is a plus</li></ul>
<h2>Benefits</h2><p>Health, dental, 401(k) match, free thermostat.</p><a href="/jobs/apply/88">Apply for this job</a>""",
    ("job", "article", "job_seekers", "en-US", False, None),
)
add(
    "brightnest-contact",
    "https://brightnest.com/contact",
    "en-US",
    "Contact us | Brightnest",
    """
<h1>Contact us</h1><p>We're here 7 days a week, 8am–8pm Central.</p>
<p>Phone: 1-800-555-0199</p><p>Chat: in the Brightnest app</p>
<form><label>Full name</label><input><label>Email address</label><input><label>Order number</label><input><label>Your message</label><textarea></textarea><button>Send message</button></form>
<p>Brightnest Inc., 500 Congress Ave, Austin, TX 78701</p>""",
    ("contact", "form", "general", "en-US", False, None),
    jsonld={"@type": "ContactPage"},
)
add(
    "brightnest-lp",
    "https://brightnest.com/lp/black-friday",
    "en-US",
    "Black Friday: Brightnest 3 for $99!",
    """
<h1>Black Friday: Brightnest 3 for just $99</h1><p>Our best price ever! Limited time only — ends Monday at midnight.</p>
<p>Save $70 on the smart thermostat that saves you up to 23% on energy. Free shipping, free returns, free happiness.</p>
<a href="/cart/add?sku=BN3&promo=BF">Buy now</a><p>Bundle with 2 room sensors for $149 — save $90!</p><a href="/cart/add?sku=BN3-BUNDLE">Shop the bundle</a>""",
    ("landing", "landing", "consumers", "en-US", False, None),
)
add(
    "brightnest-press-list",
    "https://brightnest.com/press",
    "en-US",
    "Press | Brightnest",
    """
<h1>Press</h1><p>For media enquiries contact press@brightnest.com.</p>
<h2>Press releases</h2><ul><li><a href="/press/brightnest-3-launch">Brightnest launches its third-generation thermostat</a> — September 10, 2024</li><li><a href="/press/utility-partnership">Brightnest partners with 40 US utilities on rebates</a> — May 2, 2024</li><li><a href="/press/one-million-homes">Brightnest reaches one million homes</a> — January 9, 2024</li></ul>
<h2>Media kit</h2><p><a href="/press/kit.zip">Download logos and product photos</a></p>""",
    ("listing", "listing", "press", "en-US", False, None),
)
add(
    "brightnest-press-release",
    "https://brightnest.com/press/brightnest-3-launch",
    "en-US",
    "Brightnest launches its third-generation thermostat",
    """
<h1>Brightnest launches its third-generation smart thermostat</h1><p>AUSTIN, Texas, September 10, 2024 — Brightnest Inc. today announced Brightnest 3, its third-generation smart thermostat, available now for $169 in the US and Canada.</p>
<p>Brightnest 3 adds Matter support, a brighter display and room sensors that detect occupancy. In a year-long study with 2,000 households, Brightnest customers saved an average of 23% on heating and cooling.</p>
<p>"We designed Brightnest 3 for people who never want to think about their thermostat again," said Maria Alvarez, CEO.</p><p>Media contact: press@brightnest.com</p>""",
    ("news", "article", "press", "en-US", False, "2024-09-10"),
)
