import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two groups, run one after the other. Most files run side by side on every
// core (CI has 2; vitest's default would leave one idle). The files that
// measure time (event-loop gaps, ns-per-update, "reads in bounded time") or
// hold gigabytes run afterwards one at a time, on a machine nothing else in
// the suite is loading, so a busy neighbour cannot fail them.
const SERIAL = [
  'tests/native/async-*.test.ts',
  'tests/cli/progress.test.ts',
  'tests/sparse/progress.test.ts',
  'tests/sparse/formats/{builders,builders-memory,fuzz,hb-fuzz,hb-types,mm-stream,mmio}.test.ts',
  'tests/sparse/native/factor-memory.test.ts',
  'tests/ops/memory.test.ts',
  'tests/io/*-fuzz.test.ts',
  'tests/splat/{io-ply,io-fuzz}.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: SERIAL,
          maxWorkers: Math.max(2, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'serial',
          include: SERIAL,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
