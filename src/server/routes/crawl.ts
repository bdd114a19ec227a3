import { Elysia } from "elysia";
import { listJobs } from "../../db/jobs-repo.ts";
import {
  cancelRequestedJobExample,
  crawlAcceptedExample,
  jobExample,
  jobListExample,
  jobUrlListExample,
} from "../../schemas/examples.ts";
import { crawlBody, jobIdParams, jobsQuery, jobUrlsQuery } from "../../schemas/params.ts";
import {
  Applied,
  CrawlAccepted,
  Job,
  JobSummary,
  JobUrl,
  listSchema,
} from "../../schemas/responses.ts";
import { cancelJob, crawlRequest, startCrawl } from "../../services/crawl-service.ts";
import { invalidParam } from "../../services/errors.ts";
import { jobUrls, jobView, requireJob } from "../../services/jobs-service.ts";
import { applied, parseDomains } from "../../services/params.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBodyParser } from "../json-body.ts";
import { unrecognized } from "../query.ts";
import { described, models, responses } from "../responses.ts";

export function crawlRoutes(deps: AppDeps) {
  const { config, store, limiter } = deps;
  const body = crawlBody(config);
  const viewDeps = { db: store.read, embeddingBacklog: deps.embeddingBacklog };
  const security = [{ bearer: [] }];
  return new Elysia({ name: "routes:crawl" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .post(
      "/api/crawl",
      ({ body: given, key, set }) => {
        const job = startCrawl(store.write, crawlRequest(config, given), key?.id ?? null, limiter);
        deps.onCrawlQueued?.();
        set.status = 202;
        set.headers.location = `/api/jobs/${job.id}`;
        return { job_id: job.id, state: "queued" as const, domain: job.domain };
      },
      {
        auth: "write",
        parse: [jsonBodyParser(body, config.maxBodyRequestBytes), "json"],
        body,
        response: responses(
          {
            202: described(
              CrawlAccepted,
              "Queued: the crawl starts shortly; follow it at Location (/api/jobs/<job_id>)",
              crawlAcceptedExample,
            ),
          },
          401,
          403,
          409,
          413,
          415,
          429,
        ),
        detail: {
          tags: ["crawl"],
          summary: "Start a crawl of a root domain",
          description:
            "Returns a job id at once (202, Location: /api/jobs/<id>); the crawl runs afterwards. A domain with an active job (queued or fetching) answers 409 naming it; a job whose fetching is over and whose chunks only wait for vectors (phase `embedding`) does not block a new crawl. Crawl starts are limited per key (429 with Retry-After).",
          security,
        },
      },
    )
    .get(
      "/api/jobs",
      ({ query, request }) => {
        const domains = parseDomains(query.domain, config.allowPrivateSuffixes);
        if (domains.length > 1) throw invalidParam("domain", "takes one root domain");
        const limit = query.limit ?? 20;
        const offset = query.offset ?? 0;
        const { rows, total } = listJobs(store.read, {
          domain: domains[0] ?? null,
          state: query.state ?? null,
          limit,
          offset,
        });
        return {
          data: rows.map((row) => {
            const { coverage: _, ...summary } = jobView(viewDeps, row);
            return summary;
          }),
          total,
          limit,
          offset,
          sort: "created",
          filters: {
            applied: applied({ domain: domains[0], state: query.state }),
            unrecognized: unrecognized(request, jobsQuery),
          },
        };
      },
      {
        auth: "read",
        query: jobsQuery,
        response: responses(
          { 200: listSchema(JobSummary, "Jobs, newest first", Applied.jobs, [jobListExample]) },
          401,
        ),
        detail: { tags: ["crawl"], summary: "Crawl jobs, newest first" },
      },
    )
    .get(
      "/api/jobs/:job_id",
      ({ params }) => jobView(viewDeps, requireJob(store.read, params.job_id)),
      {
        auth: "read",
        params: jobIdParams,
        response: responses(
          { 200: described(Job, "The job: state, progress and coverage", jobExample) },
          401,
          404,
        ),
        detail: {
          tags: ["crawl"],
          summary: "Live status of a crawl job",
          description:
            "progress (phase: fetching, embedding or done; indexed, pending, discovered, elapsed, the fetch rate in pages/min, pages searchable by vector and their rate, the embedding backlog and chunks/s, an ETA range with a confidence that covers embedding) and coverage buckets that account for every known URL (`unaccounted` is always 0).",
        },
      },
    )
    .get(
      "/api/jobs/:job_id/urls",
      ({ params, query, request }) => {
        const limit = query.limit ?? 100;
        const offset = query.offset ?? 0;
        const { rows, total } = jobUrls(
          store.read,
          params.job_id,
          query.bucket ?? null,
          limit,
          offset,
        );
        return {
          data: rows,
          total,
          limit,
          offset,
          sort: "url",
          filters: {
            applied: applied({ bucket: query.bucket }),
            unrecognized: unrecognized(request, jobUrlsQuery),
          },
        };
      },
      {
        auth: "read",
        params: jobIdParams,
        query: jobUrlsQuery,
        response: responses(
          {
            200: listSchema(JobUrl, "A job's URLs with bucket and reason", Applied.jobUrls, [
              jobUrlListExample,
            ]),
          },
          401,
          404,
        ),
        detail: { tags: ["crawl"], summary: "URLs of a job, by coverage bucket" },
      },
    )
    .post(
      "/api/jobs/:job_id/cancel",
      ({ params, set }) => {
        const job = cancelJob(store.write, params.job_id);
        set.status = 202;
        return jobView(viewDeps, job);
      },
      {
        auth: "write",
        params: jobIdParams,
        response: responses(
          {
            202: described(
              Job,
              "A queued job is cancelled at once; a running one shows cancel_requested until it stops",
              cancelRequestedJobExample,
            ),
          },
          401,
          403,
          404,
          409,
        ),
        detail: {
          tags: ["crawl"],
          summary: "Cancel a job",
          description: "Ends it as cancelled; its unfetched URLs go to stoppedEarly.",
          security,
        },
      },
    );
}
