/**
 * topics: up to 5 of the closed topic vocabulary, by keyword hits in the main text. A keyword
 * that also appears in the title or description counts 3 more; a topic needs at least 4 hits
 * and 6 per 1,000 words.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import type { Bag } from "./text-stats.ts";
import { TOPIC_KEYWORDS } from "./topic-keywords.ts";
import { WORD_RUN } from "./unicode-regex.ts";
import type { Topic } from "./vocabulary.ts";

export const MAX_TOPICS = 5;
const MIN_HITS = 4;
const MIN_PER_1000 = 6;
const HEAD_BONUS = 3;

interface TopicIndex {
  readonly exact: Map<string, Topic[]>;
  readonly stems: Map<string, Topic[]>;
  readonly stemLengths: readonly number[];
  /** The shortest stem length, and every stem's first that many characters: a token whose
   * start is not among them has no stem, and is not looked up once per stem length. */
  readonly stemHead: number;
  readonly stemHeads: ReadonlySet<string>;
  readonly phrases: readonly (readonly [string, Topic])[];
}

function buildIndex(): TopicIndex {
  const exact = new Map<string, Topic[]>();
  const stems = new Map<string, Topic[]>();
  const phrases: [string, Topic][] = [];
  const push = (m: Map<string, Topic[]>, k: string, t: Topic) => {
    const list = m.get(k);
    if (list) list.push(t);
    else m.set(k, [t]);
  };
  for (const [topic, keywords] of TOPIC_KEYWORDS) {
    for (const kw of keywords) {
      if (/[ \-/]/.test(kw))
        phrases.push([` ${(kw.toLowerCase().match(WORD_RUN) ?? []).join(" ")} `, topic]);
      else if (kw.endsWith("*")) push(stems, kw.slice(0, -1), topic);
      else push(exact, kw, topic);
    }
  }
  const stemLengths = [...new Set([...stems.keys()].map((s) => s.length))];
  const stemHead = Math.min(...stemLengths);
  const stemHeads = new Set([...stems.keys()].map((s) => s.slice(0, stemHead)));
  return { exact, stems, stemLengths, stemHead, stemHeads, phrases };
}

const INDEX = buildIndex();

export function pageTopics(doc: ExtractedDocument, bag: Bag, why: string[]): Topic[] {
  if (!bag.n) return [];
  const head = new Set(
    [doc.title ?? "", doc.description ?? ""].join(" ").toLowerCase().match(WORD_RUN) ?? [],
  );
  const scores = new Map<Topic, number>();
  const hit = (topics: readonly Topic[] | undefined, n: number) => {
    for (const t of topics ?? []) scores.set(t, (scores.get(t) ?? 0) + n);
  };
  for (const [tok, n] of bag.counts) {
    const weight = n + (head.has(tok) ? HEAD_BONUS : 0);
    hit(INDEX.exact.get(tok), weight);
    if (tok.length < INDEX.stemHead || !INDEX.stemHeads.has(tok.slice(0, INDEX.stemHead))) continue;
    for (const k of INDEX.stemLengths) {
      if (tok.length >= k) hit(INDEX.stems.get(tok.slice(0, k)), weight);
    }
  }
  for (const [phrase, topic] of INDEX.phrases) {
    const n = bag.phraseCount(phrase);
    if (n) hit([topic], n);
  }
  const per1000 = 1000 / Math.max(bag.n, 200);
  const ranked = [...scores].sort((a, b) => b[1] - a[1]).slice(0, MAX_TOPICS);
  const chosen: Topic[] = [];
  for (const [topic, score] of ranked) {
    if (score >= MIN_HITS && score * per1000 >= MIN_PER_1000) {
      chosen.push(topic);
      why.push(`${topic}: ${score} keyword hits (${(score * per1000).toFixed(1)}/1000 words)`);
    }
  }
  return chosen;
}
