// Runs the doctest's transpiled @example blocks (examples.test.ts) in a child
// process and reports which ones failed, so that one failing block never hides
// the others: a throw (or a rejection left unhandled) is recorded and the next
// block runs; a hang or a crash of the process (a native abort, process.exit)
// is charged to the block that was running and a fresh process takes the rest.
// Blocks share one process (importing dist/ once) because starting node and
// loading rlx per block would cost ~0.5 s each.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BlockFailure {
  /** Index of the block in the list given to runExamples. */
  index: number;
  message: string;
  /** 1-based line, in the block's TypeScript source, of the innermost stack frame inside it (when a source map gave one). */
  line?: number;
}

/**
 * src/ files whose compiled dist/ file is missing or older (relative paths):
 * the doctest runs the built package, so a stale build would test old code.
 */
export function distStaleness(root: string): string[] {
  const stale: string[] = [];
  const visit = (dir: string): void => {
    for (const ent of readdirSync(path.join(root, 'src', dir), { withFileTypes: true })) {
      const rel = path.join(dir, ent.name);
      if (ent.isDirectory()) { visit(rel); continue; }
      if (!ent.name.endsWith('.ts') || ent.name.endsWith('.d.ts') || ent.name.endsWith('.test.ts')) continue;
      const built = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(root, 'src', rel)).mtimeMs) stale.push(`src/${rel}`);
    }
  };
  visit('');
  return stale;
}

// The child: imports each block's module in turn, telling the parent when each
// starts and how it ended. Plain JS, written next to the blocks.
const RUNNER = `
const files = JSON.parse(process.argv[2]);
let current = -1;
// With --enable-source-maps a frame of block i reads '.../example-i.ts:LINE:COL' (transpileModule's inline map).
const lineOf = (e, index) => {
  const m = e instanceof Error && typeof e.stack === 'string' ? e.stack.match(new RegExp('example-' + index + '\\\\.ts:(\\\\d+):')) : null;
  return m ? Number(m[1]) : undefined;
};
const msg = (e) => (e instanceof Error ? \`\${e.name}: \${e.message}\` : \`thrown non-Error: \${String(e)}\`);
process.on('unhandledRejection', (e) => process.send({ index: current, event: 'rejection', message: 'unhandled rejection: ' + msg(e), line: lineOf(e, current) }));
// Node reports an unhandled rejection after the microtasks drain: wait a macrotask so it is charged to its block.
const settle = () => new Promise((r) => setImmediate(r));
for (const [index, file] of files) {
  current = index;
  process.send({ index, event: 'start' });
  let message, line;
  try {
    await import(file);
  } catch (e) {
    message = msg(e);
    line = lineOf(e, index);
  }
  await settle();
  process.send({ index, event: 'done', message, line });
}
process.disconnect();
setTimeout(() => process.exit(0), 200); // a timer a block left running must not keep the child alive
`;

/**
 * Runs the ES modules `sources` (one per block) in order; a source's inline
 * source map should name it 'example-<index>.ts' for BlockFailure.line.
 * Resolves to the blocks that threw, hung or crashed.
 */
export async function runExamples(sources: readonly string[], opts: { blockTimeoutMs: number }): Promise<BlockFailure[]> {
  // cwd of the child is this folder too: a block writing a relative path writes here, not into the repository.
  const dir = mkdtempSync(path.join(tmpdir(), 'rlx-doctest-'));
  try {
    writeFileSync(path.join(dir, 'runner.mjs'), RUNNER);
    const files = sources.map((src, i) => {
      const f = path.join(dir, `example-${i}.mjs`);
      writeFileSync(f, src);
      return [i, pathToFileURL(f).href] as [number, string];
    });
    const failed = new Map<number, string>();
    const lines = new Map<number, number>();
    let todo = files;
    while (todo.length > 0) {
      const { lastStarted, finished } = await runBatch(dir, todo, failed, lines, opts.blockTimeoutMs);
      if (finished) break;
      // The process died or hung inside block `lastStarted` (already recorded): go on after it.
      const pos = todo.findIndex(([i]) => i === lastStarted);
      todo = pos < 0 ? [] : todo.slice(pos + 1);
    }
    return [...failed].sort((a, b) => a[0] - b[0]).map(([index, message]) => ({ index, message, ...(lines.has(index) ? { line: lines.get(index)! } : {}) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runBatch(dir: string, files: [number, string][], failed: Map<number, string>, lines: Map<number, number>, blockTimeoutMs: number): Promise<{ lastStarted: number; finished: boolean }> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(path.join(dir, 'runner.mjs'), [JSON.stringify(files)], { cwd: dir, silent: true, execArgv: ['--enable-source-maps'] });
    let stderr = '';
    child.stdout!.resume(); // a block's console output is not the test's; drain it so the child never blocks
    child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000); });
    let lastStarted = -1;
    let running = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (running) failed.set(lastStarted, `did not finish within ${blockTimeoutMs / 1000} s (killed)`);
        child.kill('SIGKILL');
      }, blockTimeoutMs);
    };
    arm(); // also bounds the start-up before the first block
    // 'start' and 'done' bracket a block (done carries the throw's message, if any); 'rejection' can come at any time.
    child.on('message', (m: { index: number; event: 'start' | 'done' | 'rejection'; message?: string; line?: number }) => {
      arm();
      if (m.event === 'start') { lastStarted = m.index; running = true; return; }
      if (m.event === 'done') running = false;
      if (m.line !== undefined && !lines.has(m.index)) lines.set(m.index, m.line);
      if (m.message !== undefined) failed.set(m.index, failed.has(m.index) ? `${failed.get(m.index)}; ${m.message}` : m.message);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const finished = !running && lastStarted === files[files.length - 1]![0] && code === 0;
      if (running && !failed.has(lastStarted)) {
        const tail = stderr.trim().split('\n').slice(-3).join(' | ');
        failed.set(lastStarted, `the process exited (${signal ?? `code ${code}`}) while it ran${tail ? `: ${tail}` : ''}`);
      } else if (!finished && !running) {
        // Died between blocks (or before the first): charge the next block so the loop advances.
        const next = files.findIndex(([i]) => i === lastStarted) + 1;
        const idx = files[next]?.[0];
        if (idx !== undefined && !failed.has(idx)) failed.set(idx, `the process exited (${signal ?? `code ${code}`}) before it ran: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
        resolve({ lastStarted: idx ?? lastStarted, finished: idx === undefined });
        return;
      }
      resolve({ lastStarted, finished });
    });
  });
}
