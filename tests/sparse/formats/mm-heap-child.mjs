// Child process of mm-stream.test.ts: reads the Matrix Market file named on the
// command line through the TypeScript sources (Vite's module runner) and prints
// the dense matrix as JSON. The parent runs it with a small heap, so a reader
// that held a whole long line in memory would abort the process.

import { createServer, createServerModuleRunner } from 'vite';

const server = await createServer({ root: process.cwd(), configFile: false, logLevel: 'silent', server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const sp = await runner.import('/src/sparse/index.ts');
  console.log(JSON.stringify(sp.readMatrixMarket(process.argv[2]).toDense().tolist()));
} finally {
  await runner.close();
  await server.close();
}
