# ruff: noqa
# Labeling record: how labels.jsonl and ../pages/ were produced (run from this directory with
# /tmp/facets-docs unpacked). Page texts and labels are hand-written; see build.py.
import pages2  # noqa
from pages1 import add

# ---------- Wolkenwerk (German cloud hosting), some pages wrongly declared en ----------
add(
    "wolkenwerk-home",
    "https://www.wolkenwerk.de/",
    "de",
    "Wolkenwerk – Cloud-Hosting aus Deutschland",
    """
<h1>Cloud-Server aus Deutschland</h1><p>Virtuelle Server, Kubernetes und Objektspeicher aus Rechenzentren in Frankfurt und Nürnberg. DSGVO-konform, ISO 27001 zertifiziert, ab 3,49 € im Monat.</p>
<a href="/registrieren">Jetzt kostenlos testen</a><h2>Warum Wolkenwerk?</h2><ul><li>Abrechnung pro Minute</li><li>Support auf Deutsch, rund um die Uhr</li><li>100 % Ökostrom</li></ul>""",
    ("homepage", "landing", "technical", "de", False, None),
)
add(
    "wolkenwerk-preise",
    "https://www.wolkenwerk.de/preise",
    "de",
    "Preise – Wolkenwerk",
    """
<h1>Preise für Cloud-Server</h1><p>Alle Preise zzgl. MwSt., Abrechnung pro Minute, maximal der Monatspreis.</p>
<h2>CX11</h2><p>1 vCPU, 2 GB RAM, 20 GB SSD – 3,49 € / Monat</p><h2>CX21</h2><p>2 vCPU, 4 GB RAM, 40 GB SSD – 5,99 € / Monat</p><h2>CX31</h2><p>2 vCPU, 8 GB RAM, 80 GB SSD – 10,49 € / Monat</p><h2>CX41</h2><p>4 vCPU, 16 GB RAM, 160 GB SSD – 18,99 € / Monat</p>
<p>Traffic: 20 TB inklusive, danach 1,19 € pro TB.</p><a href="/registrieren">Server erstellen</a>""",
    ("pricing", "landing", "technical", "de", False, None),
)
add(
    "wolkenwerk-impressum",
    "https://www.wolkenwerk.de/impressum",
    "de",
    "Impressum – Wolkenwerk",
    """
<h1>Impressum</h1><p>Angaben gemäß § 5 TMG</p><p>Wolkenwerk GmbH<br>Hafenstraße 12<br>90402 Nürnberg</p>
<p>Handelsregister: HRB 34567, Registergericht: Amtsgericht Nürnberg</p><p>Vertreten durch die Geschäftsführer: Lena Maier, Jonas Richter</p>
<p>Kontakt: Telefon +49 911 555 010, E-Mail info@wolkenwerk.de</p><p>Umsatzsteuer-Identifikationsnummer gemäß § 27 a Umsatzsteuergesetz: DE 123 456 789</p>
<p>Verantwortlich für den Inhalt nach § 55 Abs. 2 RStV: Lena Maier, Anschrift wie oben.</p>""",
    ("legal", "article", "general", "de", False, None),
)
add(
    "wolkenwerk-docs-en-declared",
    "https://docs.wolkenwerk.de/server/ssh-schluessel",
    "en",
    "SSH-Schlüssel hinterlegen – Wolkenwerk Dokumentation",
    """
<h1>SSH-Schlüssel hinterlegen</h1><p>Mit einem SSH-Schlüssel melden Sie sich ohne Passwort an Ihrem Server an. So erstellen Sie einen Schlüssel und hinterlegen ihn in der Konsole.</p>
<h2>Schlüssel erzeugen</h2><p>Öffnen Sie ein Terminal auf Ihrem Rechner und führen Sie folgenden Befehl aus:</p><pre><code>ssh-keygen -t ed25519 -C "ich@beispiel.de"</code></pre>
<p>Bestätigen Sie den vorgeschlagenen Speicherort. Der öffentliche Schlüssel liegt danach in der Datei <code>~/.ssh/id_ed25519.pub</code>.</p>
<h2>Schlüssel in der Konsole hinterlegen</h2><p>Klicken Sie in der Konsole auf Sicherheit, dann auf SSH-Schlüssel und auf Hinzufügen. Fügen Sie den Inhalt der Datei ein und vergeben Sie einen Namen. Bei neuen Servern können Sie den Schlüssel direkt auswählen; das Root-Passwort wird dann nicht mehr per E-Mail verschickt.</p>""",
    ("docs", "tutorial", "technical", "de", True, None),
)
add(
    "wolkenwerk-jobs",
    "https://www.wolkenwerk.de/karriere",
    "de",
    "Karriere – Wolkenwerk",
    """
<h1>Karriere bei Wolkenwerk</h1><p>Wir suchen Menschen, die mit uns die souveräne Cloud für Europa bauen. Über 120 Kolleginnen und Kollegen in Nürnberg und remote.</p>
<h2>Offene Stellen</h2><ul><li><a href="/karriere/linux-systemadministrator">Linux-Systemadministrator (m/w/d)</a> – Nürnberg</li><li><a href="/karriere/go-entwickler">Go-Entwickler (m/w/d)</a> – Remote</li><li><a href="/karriere/vertrieb">Account Manager Mittelstand (m/w/d)</a> – Nürnberg</li></ul>
<h2>Was wir bieten</h2><p>30 Tage Urlaub, flexible Arbeitszeiten, Jobrad, Weiterbildungsbudget.</p>""",
    ("careers", "landing", "job_seekers", "de", False, None),
)
add(
    "wolkenwerk-job",
    "https://www.wolkenwerk.de/karriere/linux-systemadministrator",
    "de",
    "Linux-Systemadministrator (m/w/d) – Wolkenwerk",
    """
<h1>Linux-Systemadministrator (m/w/d)</h1><p>Nürnberg · Vollzeit · ab sofort</p>
<h2>Deine Aufgaben</h2><ul><li>Betrieb und Automatisierung unserer Hypervisor-Flotte mit Ansible</li><li>Fehleranalyse im Netzwerk- und Storage-Bereich</li><li>Teilnahme an der Rufbereitschaft</li></ul>
<h2>Dein Profil</h2><ul><li>Mehrjährige Erfahrung mit Debian oder Ubuntu im Rechenzentrum</li><li>Kenntnisse in KVM, Ceph und BGP</li><li>Sehr gute Deutschkenntnisse</li></ul>
<h2>Wir bieten</h2><p>Unbefristeter Vertrag, 30 Tage Urlaub, Jobticket.</p><a href="/bewerben/17">Jetzt bewerben</a>""",
    ("job", "article", "job_seekers", "de", False, None),
    jsonld={"@type": "JobPosting", "title": "Linux-Systemadministrator"},
)
add(
    "wolkenwerk-kontakt",
    "https://www.wolkenwerk.de/kontakt",
    "de",
    "Kontakt – Wolkenwerk",
    """
<h1>Kontakt</h1><p>Sie haben Fragen zu unseren Produkten? Unser Vertriebsteam hilft Ihnen gerne weiter.</p>
<form><label>Vorname</label><input><label>Nachname</label><input><label>E-Mail</label><input><label>Firma</label><input><label>Nachricht</label><textarea></textarea><button>Absenden</button></form>
<p>Telefon: +49 911 555 010 (Mo–Fr 8–18 Uhr)</p>""",
    ("contact", "form", "general", "de", False, None),
)
add(
    "wolkenwerk-blog",
    "https://www.wolkenwerk.de/blog/neues-rechenzentrum-frankfurt",
    "de",
    "Unser neues Rechenzentrum in Frankfurt – Wolkenwerk Blog",
    """
<h1>Unser neues Rechenzentrum in Frankfurt</h1><p>Veröffentlicht am 14. März 2025 von Jonas Richter</p>
<p>Ab heute können Sie Server im neuen Standort Frankfurt FRA2 erstellen. Das Rechenzentrum ist direkt am DE-CIX angebunden und verkürzt die Latenz zu vielen deutschen Internetanbietern auf unter zwei Millisekunden.</p>
<h2>Was ist neu?</h2><p>In FRA2 setzen wir erstmals AMD-EPYC-Prozessoren der vierten Generation ein. Die Server sind im Schnitt 30 Prozent schneller bei gleichem Preis.</p>
<h2>Verfügbarkeit</h2><p>Alle Servertypen sind ab sofort verfügbar, Objektspeicher folgt im zweiten Quartal.</p>""",
    ("blog", "article", "technical", "de", False, "2025-03-14"),
    jsonld={"@type": "BlogPosting", "datePublished": "2025-03-14"},
    og="article",
)
add(
    "wolkenwerk-datenschutz-en-declared",
    "https://www.wolkenwerk.de/datenschutz",
    "en",
    "Datenschutzerklärung – Wolkenwerk",
    """
<h1>Datenschutzerklärung</h1><p>Wir freuen uns über Ihr Interesse an unserem Unternehmen. Der Schutz Ihrer personenbezogenen Daten ist uns ein wichtiges Anliegen.</p>
<h2>1. Verantwortlicher</h2><p>Verantwortlich im Sinne der Datenschutz-Grundverordnung ist die Wolkenwerk GmbH, Hafenstraße 12, 90402 Nürnberg.</p>
<h2>2. Erhebung und Speicherung personenbezogener Daten</h2><p>Beim Besuch unserer Website werden durch den auf Ihrem Endgerät zum Einsatz kommenden Browser automatisch Informationen an den Server unserer Website gesendet. Diese Informationen werden temporär in einem sogenannten Logfile gespeichert.</p>
<h2>3. Ihre Rechte</h2><p>Sie haben das Recht auf Auskunft, Berichtigung, Löschung und Einschränkung der Verarbeitung Ihrer Daten sowie ein Widerspruchsrecht.</p>""",
    ("legal", "article", "general", "de", False, None),
)
# ---------- Maison Lumière (French e-commerce candles), fr-FR ----------
add(
    "lumiere-home",
    "https://www.maison-lumiere.fr/",
    "fr-FR",
    "Maison Lumière – Bougies artisanales françaises",
    """
<h1>Des bougies coulées à la main en Provence</h1><p>Cire de colza, parfums de Grasse et mèches en coton : découvrez nos bougies artisanales, fabriquées dans notre atelier d'Aix-en-Provence.</p>
<a href="/boutique">Découvrir la boutique</a><p>Livraison offerte dès 49 € d'achat !</p><h2>Nos best-sellers</h2><ul><li>Figuier sauvage – 32 €</li><li>Lavande &amp; miel – 29 €</li><li>Bois de cèdre – 34 €</li></ul>""",
    ("homepage", "landing", "consumers", "fr-FR", False, None),
)
add(
    "lumiere-product",
    "https://www.maison-lumiere.fr/boutique/bougie-figuier-sauvage",
    "fr-FR",
    "Bougie Figuier sauvage – Maison Lumière",
    """
<h1>Bougie Figuier sauvage</h1><p>32,00 €</p><p>Une bougie aux notes vertes de feuille de figuier, de lait de coco et de bois blond. Durée de combustion : 50 heures environ.</p>
<ul><li>Cire 100 % végétale</li><li>Pot en verre recyclé, réutilisable</li><li>Fabriquée à Aix-en-Provence</li></ul><a href="/panier/ajouter/42">Ajouter au panier</a><p>Livraison offerte dès 49 €. Retours gratuits sous 30 jours.</p>""",
    ("product", "landing", "consumers", "fr-FR", False, None),
    jsonld={"@type": "Product", "name": "Bougie Figuier sauvage"},
    og="product",
)
add(
    "lumiere-cgv",
    "https://www.maison-lumiere.fr/conditions-generales-de-vente",
    "fr-FR",
    "Conditions générales de vente – Maison Lumière",
    """
<h1>Conditions générales de vente</h1><p>Les présentes conditions générales de vente régissent les ventes réalisées sur le site maison-lumiere.fr par la société Maison Lumière SAS, au capital de 10 000 €, immatriculée au RCS d'Aix-en-Provence.</p>
<h2>Article 1 – Commandes</h2><p>Toute commande passée sur le site implique l'acceptation sans réserve des présentes conditions.</p>
<h2>Article 2 – Prix</h2><p>Les prix sont indiqués en euros toutes taxes comprises. Les frais de livraison sont précisés avant la validation de la commande.</p>
<h2>Article 3 – Droit de rétractation</h2><p>Conformément au Code de la consommation, vous disposez d'un délai de quatorze jours pour exercer votre droit de rétractation.</p>""",
    ("legal", "article", "general", "fr-FR", False, None),
)
add(
    "lumiere-about",
    "https://www.maison-lumiere.fr/notre-histoire",
    "fr-FR",
    "Notre histoire – Maison Lumière",
    """
<h1>Notre histoire</h1><p>Maison Lumière est née en 2017 dans la cuisine de Camille, qui cherchait une bougie sans paraffine pour la chambre de sa fille. Huit ans plus tard, notre atelier emploie douze artisans et expédie ses bougies dans toute l'Europe.</p>
<h2>Nos engagements</h2><p>Nous travaillons avec des parfumeurs de Grasse, utilisons de la cire de colza cultivé en France et recyclons chaque pot retourné.</p>""",
    ("about", "article", "general", "fr-FR", False, None),
)
add(
    "lumiere-blog",
    "https://www.maison-lumiere.fr/journal/bien-entretenir-sa-bougie",
    "fr-FR",
    "Comment bien entretenir sa bougie – Le journal de Maison Lumière",
    """
<h1>Comment bien entretenir sa bougie</h1><p>Publié le 3 février 2025</p>
<p>Une bougie bien entretenue brûle plus longtemps et plus proprement. Voici nos conseils d'artisans.</p>
<h2>La première combustion</h2><p>Laissez brûler votre bougie jusqu'à ce que toute la surface soit liquide, soit environ deux heures. Sinon, un « tunnel » se forme et la cire sur les bords est perdue.</p>
<h2>Couper la mèche</h2><p>Avant chaque allumage, coupez la mèche à 5 mm. Une mèche trop longue fait de la fumée noire.</p>
<h2>Éteindre sans souffler</h2><p>Utilisez un éteignoir ou plongez la mèche dans la cire pour éviter la fumée.</p>""",
    ("blog", "article", "consumers", "fr-FR", False, "2025-02-03"),
    og="article",
)
# ---------- Spanish SaaS (es) ----------
add(
    "nubix-home-es",
    "https://nubix.es/",
    "es",
    "Nubix – Software de reservas para clínicas",
    """
<h1>Tu clínica, siempre llena</h1><p>Nubix es el software de citas online para clínicas de fisioterapia, dentistas y centros de estética. Reservas 24/7, recordatorios por WhatsApp y cobro por adelantado.</p>
<a href="/prueba-gratis">Prueba gratis 30 días</a><h2>Más de 3.000 clínicas confían en Nubix</h2><p>Reduce las ausencias un 70 % con recordatorios automáticos.</p>""",
    ("homepage", "landing", "business", "es", False, None),
)
add(
    "nubix-precios",
    "https://nubix.es/precios",
    "es",
    "Precios – Nubix",
    """
<h1>Precios</h1><p>Sin permanencia. IVA no incluido.</p><h2>Básico</h2><p>29 € / mes – 1 profesional, reservas online, recordatorios por email.</p>
<h2>Profesional</h2><p>59 € / mes – hasta 5 profesionales, recordatorios por WhatsApp, pagos online.</p><h2>Centro</h2><p>99 € / mes – profesionales ilimitados, varias sedes, informes avanzados.</p>
<a href="/prueba-gratis">Empieza gratis</a>""",
    ("pricing", "landing", "business", "es", False, None),
)
add(
    "nubix-ayuda",
    "https://nubix.es/ayuda/sincronizar-google-calendar",
    "es",
    "Cómo sincronizar Nubix con Google Calendar – Centro de ayuda",
    """
<h1>Cómo sincronizar Nubix con Google Calendar</h1><p>Puedes ver tus citas de Nubix en tu calendario de Google y bloquear huecos automáticamente.</p>
<ol><li>Entra en Configuración y elige Integraciones.</li><li>Pulsa Conectar junto a Google Calendar.</li><li>Inicia sesión con tu cuenta de Google y acepta los permisos.</li><li>Elige el calendario que quieres sincronizar.</li></ol>
<p>Los cambios tardan hasta cinco minutos en aparecer.</p>""",
    ("support", "tutorial", "general", "es", False, None),
)
# ---------- misc: a landing, a webinar, a status, tag listing, API ref ----------
add(
    "orbitly-webinar",
    "https://www.orbitly.com/webinars/zero-trust-in-90-days",
    "en-US",
    "Webinar: Zero Trust in 90 Days | Orbitly",
    """
<h1>Webinar: Zero Trust in 90 days</h1><p>Thursday, July 10, 2025 · 11:00 AM ET · 45 minutes</p>
<p>Join Orbitly's CISO and a panel of security leaders to learn how mid-size companies rolled out zero-trust access in one quarter without slowing down their employees.</p>
<h2>You'll learn</h2><ul><li>How to inventory applications and identities</li><li>Where to start: device posture or identity-aware proxies</li><li>How to measure progress for the board</li></ul><h2>Speakers</h2><p>Dana Whitfield, CISO, Orbitly; Marcus Lee, Head of IT, Fernway</p>
<a href="/webinars/zero-trust-in-90-days/register">Save your seat</a>""",
    ("event", "landing", "technical", "en-US", False, None),
)
add(
    "orbitly-solution",
    "https://www.orbitly.com/solutions/remote-workforce",
    "en-US",
    "Secure remote access for your workforce | Orbitly",
    """
<h1>Secure your remote workforce in minutes</h1><p>Replace your legacy VPN with Orbitly's zero-trust access platform. Employees connect to the apps they need, from any device, and nothing else.</p>
<ul><li>Deploy in under an hour</li><li>Single sign-on with Okta, Entra ID and Google</li><li>Device posture checks before every connection</li></ul>
<p>Trusted by 2,500 organizations. Industry-leading performance, seamless user experience.</p><a href="/demo">Request a demo</a> <a href="/trial">Start free trial</a>""",
    ("product", "landing", "business", "en-US", False, None),
)
add(
    "orbitly-tag",
    "https://www.orbitly.com/blog/tag/ransomware",
    "en-US",
    "Ransomware | Orbitly Blog",
    """
<h1>Posts tagged “ransomware”</h1><ul>
<li><a href="/blog/ransomware-trends-2025">Ransomware trends to watch in 2025</a></li><li><a href="/blog/backup-is-not-enough">Why backup is not enough against ransomware</a></li><li><a href="/blog/incident-response-playbook">An incident response playbook for small IT teams</a></li><li><a href="/blog/double-extortion">Double extortion, explained</a></li><li><a href="/blog/tag/ransomware/page/2">Next page</a></li></ul>""",
    ("listing", "listing", "general", "en-US", False, None),
)
add(
    "orbitly-blog-tech",
    "https://www.orbitly.com/blog/detecting-token-theft",
    "en-US",
    "Detecting OAuth token theft with sign-in logs | Orbitly Blog",
    """
<h1>Detecting OAuth token theft with sign-in logs</h1><p>By Dana Whitfield · April 22, 2025</p>
<p>Attackers increasingly skip the password and steal session tokens instead. Because a stolen refresh token bypasses MFA, the only reliable signal is in the sign-in logs. Here is the query our detection team runs every hour.</p>
<pre><code class="language-kql">SigninLogs
| where TimeGenerated > ago(1h)
| summarize ips = dcount(IPAddress), countries = make_set(LocationDetails.countryOrRegion) by UserPrincipalName, SessionId
| where ips > 1 and array_length(countries) > 1</code></pre>
<p>A session ID used from two countries within an hour is almost always token replay. Revoke the user's sessions with <code>Revoke-MgUserSignInSession</code> and reset their credentials.</p>
<h2>Reducing false positives</h2><p>Exclude known egress IP ranges of your VPN and mobile carriers, which often geolocate to the wrong country.</p>""",
    ("blog", "article", "technical", "en-US", True, "2025-04-22"),
    jsonld={"@type": "BlogPosting", "datePublished": "2025-04-22"},
    og="article",
)
add(
    "orbitly-status",
    "https://status.orbitly.com/",
    "en-US",
    "Orbitly Status",
    """
<h1>All systems operational</h1><h2>Components</h2><ul><li>Access gateway — Operational</li><li>Admin console — Operational</li><li>Identity sync — Operational</li><li>API — Operational</li></ul>
<h2>Past incidents</h2><p>May 14, 2025 — Elevated latency in eu-west. Resolved after 23 minutes.</p><p>May 2, 2025 — Identity sync delays for Google Workspace customers. Resolved.</p>""",
    ("support", "other", "general", "en-US", False, None),
)
add(
    "orbitly-sdk-ref",
    "https://developer.orbitly.com/reference/python-sdk",
    "en-US",
    "Python SDK reference | Orbitly Developer",
    """
<h1>Python SDK reference</h1><p>Install with <code>pip install orbitly</code>.</p>
<h2>class orbitly.Client(api_key, *, region="us")</h2><p>Creates a client. <b>Parameters:</b> <code>api_key</code> (str) – your API key; <code>region</code> (str) – <code>us</code> or <code>eu</code>.</p>
<h2>Client.list_users(*, limit=100, cursor=None)</h2><p>Returns an iterator of <code>User</code> objects. <b>Raises:</b> <code>AuthError</code> if the key is invalid.</p>
<h2>Client.revoke_sessions(user_id)</h2><p>Revokes all sessions of a user. <b>Returns:</b> the number of sessions revoked.</p>
<pre><code class="language-python">from orbitly import Client
client = Client("ok_live_...")
for user in client.list_users(limit=50):
    print(user.email)</code></pre>""",
    ("api_reference", "reference", "developers", "en-US", True, None),
)
add(
    "orbitly-security",
    "https://www.orbitly.com/trust/security",
    "en-US",
    "Security at Orbitly | Trust Center",
    """
<h1>Security at Orbitly</h1><p>Orbitly holds SOC 2 Type II and ISO 27001 certifications. Customer data is encrypted at rest with AES-256 and in transit with TLS 1.3.</p>
<h2>Compliance reports</h2><p>Customers can request our SOC 2 report and penetration test summary under NDA.</p>
<h2>Vulnerability disclosure</h2><p>Report vulnerabilities to security@orbitly.com. We respond within two business days and do not pursue legal action against good-faith researchers.</p>""",
    ("legal", "article", "technical", "en-US", False, None),
)
add(
    "orbitly-about-leadership",
    "https://www.orbitly.com/company/leadership",
    "en-US",
    "Leadership | Orbitly",
    """
<h1>Leadership</h1><p>Meet the team leading Orbitly.</p><h2>Ravi Shankar — Chief Executive Officer</h2><p>Ravi co-founded Orbitly in 2018 after leading network security at a global bank for twelve years.</p>
<h2>Dana Whitfield — Chief Information Security Officer</h2><p>Dana previously ran incident response at a federal agency.</p><h2>Eva Lindqvist — Chief Financial Officer</h2><p>Eva joined in 2023 from a public software company.</p>""",
    ("about", "article", "general", "en-US", False, None),
)
add(
    "orbitly-release-notes",
    "https://www.orbitly.com/release-notes/2025-05",
    "en-US",
    "Release notes: May 2025 | Orbitly",
    """
<h1>Release notes — May 2025</h1><h2>Access gateway 5.8</h2><ul><li>New: per-application session lifetime.</li><li>Improved: connection setup 30% faster on macOS.</li></ul>
<h2>Admin console</h2><ul><li>New: export audit logs to S3.</li><li>Fixed: the Users page did not show suspended accounts.</li></ul><h2>Agent 3.2.1</h2><ul><li>Fixed: crash on Windows 11 ARM.</li></ul>""",
    ("changelog", "article", "technical", "en-US", False, None),
)
add(
    "orbitly-video",
    "https://www.orbitly.com/resources/videos/product-tour",
    "en-US",
    "Product tour video | Orbitly",
    """
<h1>Orbitly product tour (video)</h1><p>Watch a 6-minute tour of the Orbitly admin console: adding an application, writing an access policy and reviewing sign-ins.</p><p>[Video]</p><a href="/demo">Request a live demo</a>""",
    ("other", "media", "business", "en-US", False, None),
)
add(
    "orbitly-faq",
    "https://www.orbitly.com/faq",
    "en-US",
    "FAQ | Orbitly",
    """
<h1>Frequently asked questions</h1><h3>Does Orbitly replace our VPN?</h3><p>Yes. Most customers retire their VPN within three months.</p><h3>Which identity providers are supported?</h3><p>Okta, Microsoft Entra ID, Google Workspace, and any SAML 2.0 provider.</p>
<h3>Where is data stored?</h3><p>In the US or the EU, at your choice.</p><h3>Is there a free trial?</h3><p>Yes, 30 days with up to 50 users.</p>""",
    ("support", "faq", "business", "en-US", False, None),
)
add(
    "hreflang-pt",
    "https://www.ledgerly.co.uk/pt-br/precos",
    "en",
    "Preços | Ledgerly",
    """
<h1>Planos e preços</h1><p>Todos os preços em reais, cobrança mensal ou anual com 20% de desconto.</p><h2>Inicial</h2><p>R$ 59 por mês — até 20 faturas por mês e pagamentos com cartão.</p><h2>Crescimento</h2><p>R$ 139 por mês — faturas ilimitadas, lembretes automáticos e integração contábil.</p><h2>Pro</h2><p>R$ 279 por mês — várias moedas, fluxos de aprovação e suporte prioritário.</p><a href="/pt-br/cadastro">Comece o teste grátis</a>""",
    ("pricing", "landing", "business", "pt-BR", False, None),
)
