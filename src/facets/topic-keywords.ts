/**
 * Keywords of each topic, matched on the lowercased tokens of the main text: a plain word, a
 * prefix ending in `*`, or a phrase (with a space, hyphen or slash). Weighted by occurrence; a
 * word of the title or description counts 3 more. Kept short and specific on purpose.
 * Written as `|`-separated lists to keep the table readable.
 */
import type { Topic } from "./vocabulary.ts";

const KEYWORDS: Readonly<Record<Topic, string>> = {
  "ai-ml":
    "machine learning|neural|llm|llms|model training|inference|artificial intelligence|ai|deep learning|embedding*|gpt|chatbot*|generative",
  analytics: "analytics|dashboard*|business intelligence|metrics|kpi*|reporting|insights",
  "api-integration": "api|apis|webhook*|sdk|sdks|rest|graphql|integration*|endpoint*",
  automation: "automation|automate*|workflow*|no-code|low-code|rpa",
  cloud: "cloud|aws|azure|gcp|serverless|hosting|saas|iaas|paas",
  collaboration: "collaboration|collaborate|teamwork|project management|chat|whiteboard|wiki",
  commerce: "ecommerce|e-commerce|checkout|shopping cart|retail|marketplace|storefront|merchant*",
  compliance: "compliance|gdpr|soc 2|hipaa|iso 27001|regulation*|audit*|pci dss|regulatory",
  "crm-sales": "crm|sales pipeline|leads|lead generation|salesforce|deal*|prospect*",
  "customer-support": "help desk|helpdesk|ticket*|customer support|customer service|support team",
  "data-engineering": "etl|elt|data pipeline*|data warehouse*|kafka|streaming|data lake*|spark",
  databases:
    "database*|sql|postgresql|postgres|mysql|query|queries|table*|index*|schema*|transaction*",
  design: "design*|ux|ui|figma|prototype*|typography",
  devops:
    "devops|ci/cd|continuous integration|deployment*|kubernetes|docker|container*|terraform|pipeline*",
  "developer-tools":
    "python|javascript|typescript|compiler|debugger|ide|library|module*|function*|programming|git|java|rust",
  education: "course*|learning|students|training|curriculum|teacher*|school*|university",
  energy: "energy|solar|electricity|climate|carbon|emission*|sustainability|battery|batteries",
  finance: "finance|financial|accounting|invoice*|bank*|investment*|revenue|loan*|tax|taxes|stock*",
  gaming: "game|games|gaming|gamer*|console*|playstation|xbox|nintendo",
  hardware: "hardware|device*|chip*|iot|sensor*|processor*|smartphone*",
  healthcare: "health|healthcare|medical|patient*|clinical|hospital*|disease*|vaccine*|doctor*",
  "hr-recruiting": "hiring|recruit*|payroll|employee*|hr|onboarding|candidate*|talent",
  identity: "authentication|sso|single sign-on|oauth|saml|password*|identity|mfa|2fa|login",
  "legal-privacy":
    "privacy|personal data|terms|liability|contract*|cookies|data protection|license*|licence*",
  marketing: "marketing|seo|campaign*|advertis*|email marketing|brand*|newsletter*",
  media: "video*|podcast*|streaming|publisher*|journalis*|film*|music|tv|netflix",
  mobile: "mobile|ios|android|iphone|app store|smartphone*",
  networking: "network*|dns|cdn|tcp|http|ip|router*|bandwidth|vpn|5g|firewall*|ssh",
  observability: "monitoring|observability|logging|logs|tracing|alert*|incident*|uptime",
  "open-source": "open source|open-source|gpl|free software|contributors|github|community",
  "operating-systems":
    "linux|debian|ubuntu|kernel|apt|package*|unix|windows|macos|shell|systemd|operating system",
  payments: "payment*|billing|subscription*|credit card*|checkout|stripe|refund*|pay",
  performance: "performance|latency|scalability|scale|caching|cache|benchmark*|throughput",
  search: "search|search engine*|indexing|retrieval|full-text|ranking",
  security:
    "security|vulnerabilit*|encryption|encrypt*|malware|attack*|threat*|hacker*|breach*|ssl|tls|certificate*",
  transport: "transport*|logistics|shipping|vehicle*|car|cars|travel|airline*|flight*|delivery",
  "web-development": "html|css|browser*|frontend|front-end|react|website*|web app*|dom",
};

export const TOPIC_KEYWORDS: ReadonlyMap<Topic, readonly string[]> = new Map(
  (Object.entries(KEYWORDS) as [Topic, string][]).map(([topic, list]) => [topic, list.split("|")]),
);
