import { expect, test } from "bun:test";
import { eld } from "eld/extrasmall";
import { eldDetector } from "../../../src/facets/language-detector.ts";

// eld's n-gram database is packed by our bun patch (patches/eld@2.1.0.patch): one dictionary of
// numbers and two typed arrays instead of ~50,000 objects. Detection must still score every
// language from it.
const SAMPLES: Record<string, string> = {
  en: "The package manager installs the software and keeps every dependency up to date.",
  de: "Der Paketmanager installiert die Software und hält alle Abhängigkeiten auf dem neuesten Stand.",
  fr: "Le gestionnaire de paquets installe le logiciel et garde toutes les dépendances à jour.",
  es: "El gestor de paquetes instala el software y mantiene todas las dependencias actualizadas.",
  ru: "Менеджер пакетов устанавливает программы и поддерживает все зависимости в актуальном состоянии.",
  ja: "パッケージマネージャーはソフトウェアをインストールし、すべての依存関係を最新の状態に保ちます。",
};

test("eld names the language of each sample, its own score highest", () => {
  for (const [lang, text] of Object.entries(SAMPLES)) {
    const result = eld.detect(text);
    expect(result.language).toBe(lang);
    const scores = result.getScores();
    const best = Object.entries(scores).sort((a, b) => b[1] - a[1])[0];
    expect(best?.[0]).toBe(lang);
    expect(eldDetector.detect(text)?.lang).toBe(lang);
  }
});

test("text with no known n-gram scores no language", () => {
  expect(eld.detect("1234 5678 9012").language).toBe("");
});
