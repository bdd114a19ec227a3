/** The browser's requests during a crawl, answered like the crawl's own. */
import { failed } from "../fetch-result.ts";
import type { JobRun } from "../job-run.ts";
import { inScope } from "../urls.ts";
import type { BrowserFetch } from "./browser.ts";

/** The job's fetcher (SSRF guard, connect-to, caps, pacing), and robots.txt for the site's URLs. */
export function browserFetch(run: JobRun): BrowserFetch {
  return async (url) => {
    if (inScope(url, run.domain) && !(await run.robots.policy(url)).allowed(url)) {
      return failed(url, "robots", "disallowed by robots.txt");
    }
    return run.deps.fetcher.fetch(url, { accept: "*/*" });
  };
}
