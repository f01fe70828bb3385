// Child process of builders-memory.test.ts: loads the TypeScript sources through
// Vite's module runner (plain Node cannot import .ts) and runs the builders named
// on the command line, printing one JSON line per build: {name, nnz} or {name,
// error, type}. The parent runs it with a small --max-old-space-size, so a builder
// that still assembled number[] triplets on the JS heap would abort the process.

import { createServer, createServerModuleRunner } from 'vite';

const server = await createServer({ root: process.cwd(), configFile: false, logLevel: 'silent', server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const sp = await runner.import('/src/sparse/index.ts');
  const builds = {
    poisson1d: (n) => sp.poisson1d(n),
    poisson3d: (n) => sp.poisson3d(n),
    convectionDiffusion2d: (n) => sp.convectionDiffusion2d(n),
    diffusion2d: (n) => sp.diffusion2d(new Float64Array(n * n).fill(2), n),
  };
  for (const arg of process.argv.slice(2)) {
    const [name, n] = arg.split('=');
    try {
      console.log(JSON.stringify({ name, nnz: builds[name](Number(n)).nnz }));
    } catch (e) {
      console.log(JSON.stringify({ name, error: e.message, type: e.constructor.name }));
    }
  }
} finally {
  await runner.close();
  await server.close();
}
