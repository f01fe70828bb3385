// Child process of interp-vmath.test.ts, run with RLX_INTERP_BASELINE=1 (the
// interpreter's SSE2 build of exp/erf/gelu/sigmoid even on an AVX2 CPU): the
// edge and random cases on native against js, one JSON line per (op, dtype,
// set): {what, count, first}. Loads the TypeScript sources through Vite's
// module runner (plain Node cannot import .ts).

import { createServer, createServerModuleRunner } from 'vite';

const server = await createServer({ root: process.cwd(), configFile: false, logLevel: 'silent', server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const rlx = await runner.import('/src/index.ts');
  const cases = await runner.import('/tests/native/interp-vmath-cases.ts');
  if (!rlx.nativeStatus().available) throw new Error(`the native device is not available: ${rlx.nativeStatus().reason}`);
  const sets = { edges: cases.edgeValues(), random: cases.randomValues(4099, 11) };
  for (const dtype of ['float64', 'float32']) {
    const Arr = dtype === 'float32' ? Float32Array : Float64Array;
    for (const [name, xs] of Object.entries(sets)) {
      for (const op of ['exp', 'erf', 'gelu', 'sigmoid']) {
        const run = (device) => rlx.tensor(Arr.from(xs), { device, dtype, shape: [xs.length] })[op]().toArray();
        const m = cases.bitMismatches(run('native'), run('js'), Arr.from(xs));
        console.log(JSON.stringify({ what: `${op} ${dtype} ${name} (SSE2 build)`, ...m }));
      }
    }
  }
} finally {
  await runner.close();
  await server.close();
}
