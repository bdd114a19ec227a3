/** The examples Swagger UI shows are answers the schemas accept. */
import { expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Domain } from "../../../src/schemas/domain.ts";
import {
  cancelRequestedJobExample,
  crawlAcceptedExample,
  facetListExample,
  jobExample,
  jobListExample,
  jobUrlListExample,
  jsonRpcExample,
  memberExample,
  pageListExample,
  shelfExample,
  shelfListExample,
} from "../../../src/schemas/examples.ts";
import {
  Applied,
  CrawlAccepted,
  FacetList,
  Job,
  JobSummary,
  JobUrl,
  JsonRpcAnswer,
  listSchema,
  Member,
  Page,
  PageSummary,
  SearchResult,
  Shelf,
  ShelfWithMembers,
} from "../../../src/schemas/responses.ts";
import { described } from "../../../src/server/responses.ts";

const cases: [string, TSchema][] = [
  ["PageSummary", PageSummary],
  ["Page", Page],
  ["SearchResult", SearchResult],
  ["Domain", Domain],
  ["the page list", listSchema(PageSummary, "pages", Applied.content, [pageListExample])],
  ["FacetList", described(FacetList, "facets", facetListExample)],
  ["the shelf list", listSchema(Shelf, "shelves", Applied.none, [shelfListExample])],
  ["ShelfWithMembers", described(ShelfWithMembers, "shelf", shelfExample)],
  ["Member", described(Member, "member", memberExample)],
  ["CrawlAccepted", described(CrawlAccepted, "queued", crawlAcceptedExample)],
  ["the job list", listSchema(JobSummary, "jobs", Applied.jobs, [jobListExample])],
  ["Job", described(Job, "job", jobExample)],
  ["a Job asked to stop", described(Job, "job", cancelRequestedJobExample)],
  ["the URL list", listSchema(JobUrl, "urls", Applied.jobUrls, [jobUrlListExample])],
  ["JsonRpcAnswer", described(JsonRpcAnswer, "answer", jsonRpcExample)],
];

test.each(cases)("%s: its example is valid", (_name, schema) => {
  const examples = (schema as { examples?: unknown[] }).examples ?? [];
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) {
    expect([...Value.Errors(schema, example)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  }
});

test("a broken example would be caught", () => {
  const example = (Domain as { examples?: { coverage: object }[] }).examples?.[0];
  const broken = { ...example, coverage: { ...example?.coverage, estimate: 1000 } };
  expect(Value.Check(Domain, broken)).toBe(false);
});
