import { expect, test } from "bun:test";
import { testConfig } from "../../../src/config.ts";
import { HostThrottle } from "../../../src/crawl/politeness.ts";

/** A virtual clock: sleepers wake in time order and time jumps to each wake-up, so no test waits. */
function fakeTime() {
  const timers: { until: number; wake: () => void }[] = [];
  const t = {
    now: 0,
    slept: [] as number[],
    clock: () => t.now,
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        t.slept.push(ms);
        timers.push({ until: t.now + ms, wake });
      }),
    /** Runs the timers until `work` settles. */
    async drive<T>(work: Promise<T>): Promise<T> {
      let done = false;
      work.then(
        () => {
          done = true;
        },
        () => {
          done = true;
        },
      );
      while (!done) {
        await new Promise((r) => setImmediate(r));
        timers.sort((a, b) => a.until - b.until);
        const next = timers.shift();
        if (next) {
          t.now = Math.max(t.now, next.until);
          next.wake();
        }
      }
      return work;
    },
  };
  return t;
}

/** n concurrent requests of `workMs` each through the throttle: their start times and peak in flight. */
async function run(
  throttle: HostThrottle,
  host: string,
  n: number,
  workMs: number,
  sleep: (ms: number) => Promise<void>,
) {
  const starts: number[] = [];
  let inFlight = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: n }, () =>
      throttle.run(host, async () => {
        starts.push(performance.now());
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(workMs);
        inFlight--;
      }),
    ),
  );
  return { starts, peak };
}

test("concurrency cap per host", async () => {
  const throttle = new HostThrottle({ delayMs: 0, concurrency: 3, adaptive: false });
  const { peak } = await run(throttle, "a.example", 12, 5, (ms) => Bun.sleep(ms));
  expect(peak).toBe(3);
});

test("hosts are independent", async () => {
  const throttle = new HostThrottle({ delayMs: 0, concurrency: 2, adaptive: false });
  const [a, b] = await Promise.all([
    run(throttle, "a.example", 4, 5, (ms) => Bun.sleep(ms)),
    run(throttle, "b.example", 4, 5, (ms) => Bun.sleep(ms)),
  ]);
  expect([a.peak, b.peak]).toEqual([2, 2]);
});

test("minimum delay between request starts", async () => {
  const t = fakeTime();
  const throttle = new HostThrottle({
    delayMs: 100,
    concurrency: 4,
    adaptive: false,
    now: t.clock,
    sleep: t.sleep,
  });
  const reserved: number[] = [];
  await t.drive(
    Promise.all(
      Array.from({ length: 5 }, () =>
        throttle.run("a.example", async () => void reserved.push(t.now)),
      ),
    ),
  );
  // each start came 100 ms after the previous one
  expect(reserved.sort((a, b) => a - b)).toEqual([0, 100, 200, 300, 400]);
});

test("robots Crawl-delay raises the floor only", () => {
  const throttle = new HostThrottle({ delayMs: 50, concurrency: 4, adaptive: false });
  throttle.setCrawlDelayS("slow.example", 0.15);
  throttle.setCrawlDelayS("fast.example", 0.01); // lower than ours: ours wins
  expect(throttle.delay("SLOW.example")).toBeCloseTo(150);
  expect(throttle.delay("fast.example")).toBe(50);
  throttle.setCrawlDelayS("huge.example", 3600);
  expect(throttle.delay("huge.example")).toBe(60_000); // capped at max delay
});

test("Retry-After holds the host's next start, whatever the mode", async () => {
  const t = fakeTime();
  const throttle = new HostThrottle({ delayMs: 0, adaptive: false, now: t.clock, sleep: t.sleep });
  throttle.record("h.example", 10, 429, 5);
  await t.drive(throttle.run("h.example", async () => {}));
  expect(t.slept).toEqual([5000]);
});

test("adaptive: grows with latency, doubles on 429/503, recovers to the floor", () => {
  const throttle = new HostThrottle({
    delayMs: 100,
    concurrency: 2,
    adaptive: true,
    maxDelayMs: 10_000,
  });
  const host = "h.example";
  for (let i = 0; i < 10; i++) throttle.record(host, 4000, 200); // slow host: 4 s / 2 = 2 s
  expect(throttle.delay(host)).toBeCloseTo(2000, -1);
  throttle.record(host, 10, 503);
  expect(throttle.delay(host)).toBeCloseTo(4000, -1);
  throttle.record(host, 10, 429);
  expect(throttle.delay(host)).toBeCloseTo(8000, -1);
  for (let i = 0; i < 3; i++) throttle.record(host, 10, 429);
  expect(throttle.delay(host)).toBe(10_000); // capped
  throttle.record(host, 10, 404); // fast error pages don't speed us up
  expect(throttle.delay(host)).toBe(10_000);
  for (let i = 0; i < 30; i++) throttle.record(host, 10, 200);
  expect(throttle.delay(host)).toBeCloseTo(100); // back to the floor, not below
});

test("backoff from zero delay; non-adaptive ignores latency", () => {
  const adaptive = new HostThrottle({ delayMs: 0, concurrency: 4, adaptive: true });
  adaptive.record("x", 10, 429);
  expect(adaptive.delay("x")).toBeGreaterThanOrEqual(1000);
  const fixed = new HostThrottle({ delayMs: 200, concurrency: 4, adaptive: false });
  fixed.record("x", 5000, 503);
  expect(fixed.delay("x")).toBe(200);
});

test("a slot is released when its task throws", async () => {
  const throttle = new HostThrottle({ delayMs: 0, concurrency: 1 });
  await expect(throttle.run("x", async () => Promise.reject(new Error("boom")))).rejects.toThrow(
    "boom",
  );
  expect(await throttle.run("x", async () => "next")).toBe("next");
});

test("from the config, and a bad concurrency refused", () => {
  const t = HostThrottle.fromConfig(
    testConfig({ CRAWL_DELAY_S: "0.5", HOST_CONCURRENCY: "2", ADAPTIVE_DELAY: "false" }),
  );
  expect([t.delayMs, t.concurrency, t.adaptive]).toEqual([500, 2, false]);
  expect(() => new HostThrottle({ concurrency: 0 })).toThrow("at least 1");
});
