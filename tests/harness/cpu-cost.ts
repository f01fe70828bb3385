// "These variants of one call cost the same CPU time" — for tests that check a
// hook (a progress bar, a callback) adds nothing measurable to a loop.
//
// On a shared 2-core machine a single timing can be off by 50 %, so:
//   - CPU time (process.cpuUsage), not wall time: waiting for a core is not counted;
//   - round robin with the order rotated every repetition: garbage left by one
//     case (collected during the next) and a burst of load land on each case alike;
//   - the best (least) time per case over the repetitions after a warm-up;
//   - up to `tries` whole measurements, stopping at the first that meets the
//     bound: a real regression fails every try, noise rarely fails three.
// The bound itself is never loosened between tries.

export interface CpuCostOptions {
  /** Repetitions per measurement after the warm-up round (default 5). */
  reps?: number;
  /** Whole measurements at most (default 3). */
  tries?: number;
  /** Each variant's best time must be < ratio × the baseline's + slackMs. */
  ratio: number;
  slackMs: number;
}

export interface CpuCostReport {
  /** Best ms per case, of the last measurement taken. */
  ms: number[];
  /** Whether every case after the first met the bound in that measurement. */
  pass: boolean;
  /** One line per measurement: `label ms, ...`. */
  lines: string[];
}

/** Runs run(c) for every case index c; case 0 is the baseline. */
export function compareCpuCost(labels: readonly string[], run: (c: number) => void, o: CpuCostOptions): CpuCostReport {
  const reps = o.reps ?? 5;
  const tries = o.tries ?? 3;
  const n = labels.length;
  const lines: string[] = [];
  let ms: number[] = [];
  let pass = false;
  for (let t = 0; t < tries && !pass; t++) {
    ms = labels.map(() => Infinity);
    for (let rep = 0; rep <= reps; rep++)
      for (let k = 0; k < n; k++) {
        const c = (k + rep) % n;
        const t0 = process.cpuUsage();
        run(c);
        const dt = process.cpuUsage(t0);
        if (rep > 0) ms[c] = Math.min(ms[c]!, (dt.user + dt.system) / 1000); // rep 0 warms up
      }
    pass = ms.slice(1).every((v) => v < ms[0]! * o.ratio + o.slackMs);
    lines.push(labels.map((l, c) => `${l} ${ms[c]!.toFixed(1)} ms`).join(', '));
  }
  return { ms, pass, lines };
}
