/** CPU time per extraction stage, for benchmarks (`ExtractOptions.timings`). */

export type Stage = "parse" | "select" | "markdown" | "rest";
export type StageTimings = Record<Stage, number>;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Adds the CPU ms since the previous lap to a stage; does nothing without `timings`. */
export class StageClock {
  readonly #timings: StageTimings | undefined;
  #last: number;

  constructor(timings: StageTimings | undefined) {
    this.#timings = timings;
    this.#last = timings ? cpuMs() : 0;
  }

  lap(stage: Stage): void {
    if (this.#timings === undefined) return;
    const now = cpuMs();
    this.#timings[stage] += now - this.#last;
    this.#last = now;
  }
}

export function emptyTimings(): StageTimings {
  return { parse: 0, select: 0, markdown: 0, rest: 0 };
}
