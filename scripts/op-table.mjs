#!/usr/bin/env node
// Prints what the IR offers: every primitive with its kind, its transform
// rules (JVP, VJP, batching) and what runs it on each device, then every
// registered op (compiler/op-registry.ts) with its kernel family, the devices
// that have that family (compiler/kernel-registry.ts) and the rules it offers.
// Reads the built package (npm run build). `--json` prints the same as JSON
// (tests/architecture/op-table.test.ts checks it against the sources).

import { pathToFileURL } from 'node:url';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const load = (p) => import(pathToFileURL(join(DIST, p)).href);

await load('index.js'); // registers every module's ops and kernels
const { PRIMITIVES } = await load('compiler/primitives.js');
const { JVP_RULES } = await load('compiler/transforms/rules/jvp.js');
const { VJP_RULES } = await load('compiler/transforms/rules/vjp.js');
const { BATCH_RULES } = await load('compiler/transforms/rules/batch.js');
const { STRUCTURAL_JVP, STRUCTURAL_VJP, STRUCTURAL_BATCH } = await load('compiler/transforms/structural-rules.js');
const { registeredOps, opDef } = await load('compiler/op-registry.js');
const { kernelDevices, kernelTable } = await load('compiler/kernel-registry.js');
const { deviceNames } = await load('backends/registry.js');
const { OPAQUE_KERNELS } = await load('backends/js/opaque.js');
const { NATIVE_OPAQUE } = await load('backends/native/opaque.js');

const devices = deviceNames();
const CONTROL = ['scan', 'while', 'cond'];

/** What runs primitive p (of kind k) on a device: the backends' compileKernel cases, in words. */
function runner(device, p, k) {
  if (k === 'leaf') return 'data';
  if (k === 'movement') return 'view (folded into loads)';
  if (k === 'composite') return p === 'custom' ? 'its primal value' : 'decomposed';
  if (p === 'registered') return 'the op family\'s kernels (below)';
  if (p === 'part') return 'written by its call\'s kernel';
  if (CONTROL.includes(p)) return 'host loop over compiled bodies';
  if (device === 'js') {
    if (k === 'elementwise' || k === 'reduce' || p === 'matmul') return 'generated JS loops';
    return OPAQUE_KERNELS[p] ? 'TS kernel' : 'none';
  }
  if (device === 'native') {
    if (k === 'elementwise' || k === 'reduce') return 'interpreter (C++)';
    if (p === 'matmul') return 'cblas GEMM (integer dtypes: decomposed)';
    return NATIVE_OPAQUE.includes(p) ? 'C++ kernel' : 'none';
  }
  return '?';
}

const has = (t, s, p) => (s[p] ?? t[p]) !== undefined;
// A registered call and its parts are differentiated together, with each op's own rules (autodiff.ts).
const PER_OP = new Set(['registered', 'part']);
const primitives = Object.entries(PRIMITIVES).map(([p, d]) => ({
  primitive: p,
  kind: d.kind,
  jvp: PER_OP.has(p) ? 'per op' : has(JVP_RULES, STRUCTURAL_JVP, p),
  vjp: PER_OP.has(p) ? 'per op' : has(VJP_RULES, STRUCTURAL_VJP, p),
  batch: has(BATCH_RULES, STRUCTURAL_BATCH, p),
  kernels: Object.fromEntries(devices.map((dev) => [dev, runner(dev, p, d.kind)])),
}));
const ops = registeredOps().map((name) => {
  const d = opDef(name);
  return {
    op: name,
    label: d.label ?? name,
    family: d.family.name,
    devices: kernelDevices(d.family),
    jvp: d.jvp !== undefined,
    vjp: d.vjp !== undefined,
    batch: (d.batching ?? 'leading') !== 'none',
  };
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ devices, primitives, ops, families: kernelTable() }, null, 1));
} else {
  const yn = (b) => (typeof b === 'string' ? b : b ? 'yes' : '-');
  const row = (cells) => `| ${cells.join(' | ')} |`;
  console.log(`Devices: ${devices.join(', ')}\n\n## Primitives\n`);
  console.log(row(['primitive', 'kind', 'jvp', 'vjp', 'vmap', ...devices]));
  console.log(row(Array(5 + devices.length).fill('---')));
  for (const p of primitives) console.log(row([p.primitive, p.kind, yn(p.jvp), yn(p.vjp), yn(p.batch), ...devices.map((d) => p.kernels[d])]));
  console.log('\n## Registered ops\n');
  console.log(row(['op', 'family', 'kernels on', 'jvp', 'vjp', 'vmap']));
  console.log(row(Array(6).fill('---')));
  for (const o of ops) console.log(row([o.label, o.family, o.devices.join(', ') || 'none', yn(o.jvp), yn(o.vjp), yn(o.batch)]));
  console.log('\n## Kernel families\n');
  for (const f of kernelTable()) console.log(`- ${f.family}: ${f.devices.join(', ') || 'none'}`);
}
