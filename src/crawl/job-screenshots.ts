/**
 * After a crawl: screenshots of the homepage and the most cited pages, at most `shots`. Never
 * fails the crawl: a browser that is missing, does not start or dies is the report's `error`.
 */
import { updateJob } from "../db/jobs-repo.ts";
import { saveScreenshot, screenshotTargets } from "../db/screenshots-repo.ts";
import { isoNow } from "../services/clock.ts";
import type { JobRun } from "./job-run.ts";
import { BrowserUnavailable, findChromium } from "./render/browser.ts";
import { browserFetch } from "./render/crawl-fetch.ts";
import { Camera, ShotFailed } from "./screenshots.ts";

export interface ShotsReport {
  requested: number;
  taken: number;
  failed: { url: string; reason: string }[];
  error?: string;
}

/** Takes the screenshots; false when the job was cancelled meanwhile. */
export async function takeScreenshots(run: JobRun, n: number): Promise<boolean> {
  const report: ShotsReport = { requested: n, taken: 0, failed: [] };
  run.info.screenshots = report;
  const home = typeof run.info.entry_url === "string" ? run.info.entry_url : null;
  const targets = screenshotTargets(run.db, run.domain, home, n);
  report.requested = targets.length;
  let camera: Camera | null = null;
  try {
    camera = await Camera.open(
      findChromium(run.deps.config.chromiumPath),
      browserFetch(run),
      run.deps.config.screenshotTimeoutS,
    );
    for (const target of targets) {
      if (run.cancelled || run.lost || run.stopping) return !run.cancelled;
      try {
        const shot = await camera.shoot(target.url);
        saveScreenshot(run.db, {
          pageId: target.id,
          width: shot.width,
          height: shot.height,
          takenAt: isoNow(),
          jobId: run.job.id,
          png: shot.png,
        });
        report.taken++;
      } catch (err) {
        if (!(err instanceof ShotFailed)) throw err;
        report.failed.push({ url: target.url, reason: err.message });
      }
      updateJob(run.db, run.job.id, { info: JSON.stringify(run.info) });
    }
  } catch (err) {
    report.error =
      err instanceof BrowserUnavailable
        ? err.message
        : `screenshots stopped: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.slice(
            0,
            500,
          );
    run.deps.log(`job ${run.job.id}: screenshots: ${report.error}`);
  } finally {
    await camera?.close();
  }
  return !run.cancelled;
}
