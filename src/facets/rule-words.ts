/**
 * The word lists behind the rules and scores: a plain word, a `stem*` or a phrase (a space or
 * hyphen in it), counted on a page's tokens (see text-stats.ts).
 */
import { type Vocab, vocab } from "./text-stats.ts";

const list = (terms: string): Vocab => vocab(...terms.split("|"));

export const JOB_WORDS = list(
  "responsibilities|requirements|qualifications|what you'll do|what you will do|what we're looking for|apply now|about the role|nice to have|benefits|full-time|full time|part-time|years of experience|apply for this job",
);
export const CASE_STUDY_WORDS = list(
  "the challenge|the solution|the results|customer story|case study",
);
export const CALLS_TO_ACTION = list(
  "get started|free trial|sign up|request a demo|book a demo|contact sales|try for free|try it free|buy now|get a quote|talk to sales|register now|schedule a demo|start now|subscribe now|shop now",
);
export const FORM_FIELDS = list(
  "first name|last name|full name|work email|email address|phone number|company name|your message|job title|submit|send message",
);
export const EVENT_WORDS = list("agenda|speakers|register|venue|save your seat|doors open");
export const DEVELOPER_WORDS = list(
  "api*|sdk*|function*|method*|class|classes|module*|parameter*|argument*|endpoint*|json|import|library|libraries|compile*|runtime|syntax|variable*|return value|exception*|python|javascript|sql|query|queries|npm|pip|git|repository|webhook*|callback*|string*|integer*|boolean|null|attribute*|object*|instance*",
);
/** Systems administration: servers, packages, networks, the shell. */
const OPERATIONS_TERMS =
  "server*|configur*|install*|package*|kernel|network*|protocol*|deploy*|command*|daemon*|firewall*|ssh|dns|backup*|filesystem*|administrator*|root|sudo|apt|systemd|linux|debian|proxy|certificate*|directory|directories|encryption|tcp|http|ip";
const DATABASE_TERMS = "database*|cluster*|index|indexes|table*|schema*|transaction*";
export const OPERATIONS_WORDS = list(OPERATIONS_TERMS);
export const TECHNICAL_WORDS = list(`${OPERATIONS_TERMS}|${DATABASE_TERMS}`);
/** A business buyer's words, in English and the same words in German, French, Spanish and
 * Portuguese. */
export const BUSINESS_WORDS = list(
  [
    "enterprise*|team|teams|roi|revenue|customers|businesses|organization*|companies|productivity|workflow*|sales|b2b|stakeholder*|compliance|procurement|per seat|per user|pipeline|invoic*|finance|operations",
    "unternehmen|firmen|kunden|umsatz|vertrieb|produktivität|rechnung|rechnungen|buchhaltung|pro nutzer",
    "entreprise|entreprises|équipe|équipes|clients|chiffre d'affaires|productivité|factur*|comptab*|par utilisateur",
    "empresa|empresas|negocio|negocios|equipo|equipos|clientes|ventas|productividad|facturación|facturas|contabilidad|por usuario",
    "negócio|negócios|equipe|equipes|vendas|produtividade|fatura|faturas|faturamento|contábil|contabilidade|por usuário",
  ].join("|"),
);
export const INVESTOR_WORDS = list(
  "shareholder*|investor*|earnings|quarterly results|annual report|dividend*|fiscal year|fiscal quarter|sec filing*|stock price",
);
export const PARTNER_WORDS = list(
  "partner program|partner programme|reseller*|affiliate program|affiliate programme|affiliate partner*|become an affiliate|become a partner|referral program|referral programme|solution partner*|channel partner*",
);
export const HYPE_WORDS = list(
  "best|leading|world-class|powerful|seamless*|effortless*|revolutionary|cutting-edge|innovative|unlock*|boost*|supercharge*|transform*|ultimate|exclusive|amazing|incredible|game-changing|trusted by|award-winning|industry-leading|off|limited time|discount*|free|guaranteed|easy|simple|instantly|all-in-one|next-gen|love|loved|deal|deals|save|fastest|smarter|effortless",
);
export const READER_ADDRESS = list("you|your|you'll|you're|yours");
/** A shop's product or category page: cart, shipping, stock. */
export const SHOP_WORDS = list(
  "add to cart|add to basket|add to bag|in den warenkorb|warenkorb|in stock|out of stock|auf lager|sofort lieferbar|lieferzeit|versandkosten|inkl. mwst|zzgl. versand|free shipping|jetzt kaufen|buy now|jetzt bestellen|stückpreis|pro nacht|per night|jetzt buchen|book now",
);
/** An article for consumers: the reader addressed (en, fr, pt, es, de, ru), and what one reads to
 * buy, cook or live better: reviews, deals, gifts, recipes, tips (en, de). */
export const CONSUMER_WORDS = list(
  "you|your|vous|votre|vos|você|vocês|tu|tus|du|dein|deine|deinen|deinem|deiner|вы|ваш|ваша|ваши|вам|review|reviews|deal|deals|buy|buying|gift|gifts|recipe|recipes|shopping|discount|discounts|sale|cheap|cheapest|diet|tips|price|prices|kaufen|angebot|angebote|rezept|rezepte|tipps|testsieger|preis|preise|günstig",
);
/** An article for business: markets, companies, earnings, advertising (en, de). */
export const BUSINESS_NEWS_WORDS = list(
  "stock|stocks|shares|shareholders|investors|markets|earnings|revenue|revenues|profit|profits|ceo|executives|industry|b2b|advertisers|brands|clients|agency|agencies|companies|businesses|marketing|unternehmen|kunden|branche|umsatz|märkte",
);
