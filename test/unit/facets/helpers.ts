/** Extracted documents built by hand for the facet tests. */
import type { ExtractedDocument } from "../../../src/extract/document.ts";

export function makeDoc(
  text: string,
  overrides: Partial<ExtractedDocument> = {},
): ExtractedDocument {
  return {
    title: null,
    markdown: text,
    text,
    canonicalUrl: null,
    language: null,
    hreflang: [],
    description: null,
    published: null,
    noindex: false,
    nofollow: false,
    assets: [],
    links: [],
    words: text.split(/\s+/).filter(Boolean).length,
    hasCode: false,
    jsonldTypes: [],
    ogType: null,
    ...overrides,
  };
}

export const GERMAN =
  "Mit einem SSH-Schlüssel melden Sie sich ohne Passwort an Ihrem Server an. So erstellen Sie " +
  "einen Schlüssel und hinterlegen ihn in der Konsole. Öffnen Sie ein Terminal auf Ihrem Rechner " +
  "und führen Sie den folgenden Befehl aus. Bestätigen Sie den vorgeschlagenen Speicherort. Der " +
  "öffentliche Schlüssel liegt danach in Ihrem Benutzerverzeichnis. Klicken Sie in der Konsole " +
  "auf Sicherheit und fügen Sie den Inhalt der Datei ein.";

export const ENGLISH =
  "When we started the company, creating a copy of a large database took forty minutes. Today " +
  "it takes milliseconds regardless of size. This post explains the copy-on-write storage layer " +
  "that made it possible, what it cost us in write amplification, and how garbage collection " +
  "works when many branches share the same pages of data over a long period of time.";
