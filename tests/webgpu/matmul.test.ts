// WGSL matmul (src/backends/webgpu/wgsl-matmul.ts) against the js backend on
// the same compiled kernels (tests/webgpu/gpu-run.ts) and through the public
// API. float32 accumulates in f32 on the GPU and in float64 on js: each
// output is compared within 4·k·ε_f32·Σ|a_ip·b_pj| (a bound on any summation
// order's error, Σ computed here); int32 products are exact (wrapping).
// The kernel tiles each of m and n by 4, 16, 64 or 128 from its static size
// (128 for symbolic ones) and k by 8 or 16: the edge cases below sit on both
// sides of those sizes.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { webgpuDevice, webgpuStatus } from '../../src/backends/webgpu/device.js';
import { wgslMatmul } from '../../src/backends/webgpu/wgsl-matmul.js';
import type { MatmulKernel } from '../../src/compiler/kernel.js';
import { executableFor } from '../../src/compiler/realize.js';
import { runOnGpu } from './gpu-run.js';

const status = webgpuStatus();
const f32 = (shape: number[], seed: number) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return rlx.tensor(Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i * 0.61)), { dtype: 'float32' }).reshape(shape);
};

function expectMatmulClose(gpu: ArrayLike<number>, y: Tensor, absProduct: Tensor, k: number): void {
  const ref = y.toArray() as Float32Array,
    bound = absProduct.toArray() as Float32Array;
  expect(gpu.length).toBe(ref.length);
  for (let i = 0; i < ref.length; i++) expect(Math.abs(gpu[i]! - ref[i]!), `output ${i}`).toBeLessThanOrEqual(4 * k * 2 ** -23 * bound[i]! + 1e-30);
}

describe.runIf(status.available)('webgpu: WGSL matmul vs the js backend', () => {
  it('square, ragged (not multiples of 16) and k = 1 shapes', () => {
    for (const [m, k, n] of [[64, 64, 64], [37, 50, 23], [5, 1, 70], [1, 300, 1]] as const) {
      const a = f32([m, k], m),
        b = f32([k, n], n);
      expectMatmulClose(runOnGpu([a.matmul(b)])[0]!, a.matmul(b), a.abs().matmul(b.abs()), k);
    }
  });

  it('transposed operands, broadcast batches and a fused epilogue', () => {
    const a = f32([3, 20, 30], 1),
      b = f32([30, 17], 2),
      bias = f32([17], 3);
    const y = a.matmul(b).add(bias).maximum(0);
    const yt = f32([30, 20], 4).transpose().matmul(f32([17, 30], 5).transpose());
    const abs = a.abs().matmul(b.abs()).add(bias.abs());
    expectMatmulClose(runOnGpu([y])[0]!, y, abs, 31);
    expectMatmulClose(runOnGpu([yt])[0]!, yt, f32([30, 20], 4).abs().transpose().matmul(f32([17, 30], 5).abs().transpose()), 30);
  });

  it('int32 products are exact', () => {
    const a = rlx.tensor(Int32Array.from({ length: 24 * 40 }, (_, i) => ((i * 7919) % 201) - 100), { dtype: 'int32' }).reshape([24, 40]);
    const b = rlx.tensor(Int32Array.from({ length: 40 * 9 }, (_, i) => ((i * 104729) % 61) - 30), { dtype: 'int32' }).reshape([40, 9]);
    expect(runOnGpu([a.matmul(b)])[0]).toEqual(a.matmul(b).toArray());
  });

  it("through the public API on 'webgpu' (a two-layer MLP forward)", () => {
    const x = f32([32, 64], 6),
      w1 = f32([64, 48], 7),
      w2 = f32([48, 10], 8);
    const f = (dev: string) => x.on(dev).matmul(w1.on(dev)).maximum(0).matmul(w2.on(dev));
    const g = f('webgpu').toArray() as Float32Array,
      j = f('js').toArray() as Float32Array;
    for (let i = 0; i < j.length; i++) expect(Math.abs(g[i]! - j[i]!)).toBeLessThan(1e-4 * Math.max(1, Math.abs(j[i]!)));
  });
});

describe.runIf(status.available)('webgpu: WGSL matmul tile edges (register tiles of 4·4 to 8·8 outputs, k steps of 8/16)', () => {
  const EDGES = [1, 63, 64, 65, 129];

  it('m, n in {1, 63, 64, 65, 129} (every pair), k cycling through the same sizes', () => {
    let i = 0;
    for (const m of EDGES)
      for (const n of EDGES) {
        const k = EDGES[i++ % EDGES.length]!;
        const a = f32([m, k], m + 0.5 * n),
          b = f32([k, n], n - 0.25 * k);
        expectMatmulClose(runOnGpu([a.matmul(b)])[0]!, a.matmul(b), a.abs().matmul(b.abs()), k);
      }
  });

  it('the small tiles\' edges: m, n = 4, 5, 16, 17', () => {
    for (const [m, k, n] of [[4, 17, 5], [5, 16, 4], [16, 7, 17], [17, 33, 16]] as const) {
      const a = f32([m, k], m),
        b = f32([k, n], n);
      expectMatmulClose(runOnGpu([a.matmul(b)])[0]!, a.matmul(b), a.abs().matmul(b.abs()), k);
    }
  });

  it('several tiles each way, k = 300 (not a multiple of 8 or 16), with the grid wrapped past 3 workgroups in x', () => {
    const a = f32([2, 257, 300], 1),
      b = f32([300, 200], 2);
    const y = a.matmul(b);
    expectMatmulClose(runOnGpu([y], 3)[0]!, y, a.abs().matmul(b.abs()), 300);
  });

  it('broadcast batches on both sides ([2, 1] × [3]) and a batch only in b', () => {
    const a = f32([2, 1, 65, 70], 3),
      b = f32([3, 70, 129], 4);
    expectMatmulClose(runOnGpu([a.matmul(b)])[0]!, a.matmul(b), a.abs().matmul(b.abs()), 70);
    const a2 = f32([63, 20], 5),
      b2 = f32([4, 20, 66], 6);
    expectMatmulClose(runOnGpu([a2.matmul(b2)])[0]!, a2.matmul(b2), a2.abs().matmul(b2.abs()), 20);
  });

  it('transposed, strided and flipped operand views', () => {
    const at = f32([130, 70], 7).transpose(),
      bt = f32([129, 130], 8).transpose();
    expectMatmulClose(runOnGpu([at.matmul(bt)])[0]!, at.matmul(bt), at.abs().matmul(bt.abs()), 130);
    const as = f32([131, 65], 9).slice(rlx.s(rlx.rg(null, null, 2))),
      bf = f32([65, 64], 10).flip(1);
    expectMatmulClose(runOnGpu([as.matmul(bf)])[0]!, as.matmul(bf), as.abs().matmul(bf.abs()), 65);
  });

  it('infinities in the last k column of a / row of b stay inf (the k padding adds 0, not 0·inf = NaN)', () => {
    for (const [m, k, n] of [[65, 65, 70], [20, 9, 3]] as const) {
      const av = Float32Array.from({ length: m * k }, (_, i) => 1 + (i % 7)),
        bv = Float32Array.from({ length: k * n }, (_, i) => 1 + (i % 5));
      av[2 * k + k - 1] = Infinity; // row 2 of a, last k
      bv[(k - 1) * n + 1] = -Infinity; // column 1 of b, last k
      const a = rlx.tensor(av, { dtype: 'float32' }).reshape([m, k]),
        b = rlx.tensor(bv, { dtype: 'float32' }).reshape([k, n]);
      const g = runOnGpu([a.matmul(b)])[0]!;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          // (2, 1) sums inf·(−inf) = −inf with finite terms.
          const want = j === 1 ? -Infinity : i === 2 ? Infinity : undefined;
          if (want !== undefined) expect(g[i * n + j], `(${i}, ${j}) of ${m}×${k}·${k}×${n}`).toBe(want);
          else expect(Number.isFinite(g[i * n + j]), `(${i}, ${j})`).toBe(true);
        }
    }
  });

  it('int32 with wrap-around: exact, against a Math.imul reference', () => {
    const [m, k, n] = [65, 129, 70];
    const av = Int32Array.from({ length: 2 * m * k }, (_, i) => ((i * 7919) % 2000003) * 1021 - 1_000_000_000);
    const bv = Int32Array.from({ length: k * n }, (_, i) => ((i * 104729) % 65537) * 32749 - 1_073_000_000);
    const a = rlx.tensor(av, { dtype: 'int32' }).reshape([2, m, k]),
      b = rlx.tensor(bv, { dtype: 'int32' }).reshape([k, n]);
    const want = new Int32Array(2 * m * n);
    let wrapped = false;
    for (let q = 0; q < 2; q++)
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let acc = 0,
            exact = 0;
          for (let p = 0; p < k; p++) {
            acc = (acc + Math.imul(av[(q * m + i) * k + p]!, bv[p * n + j]!)) | 0;
            exact += av[(q * m + i) * k + p]! * bv[p * n + j]!;
          }
          want[(q * m + i) * n + j] = acc;
          wrapped ||= Math.abs(exact) > 2 ** 31;
        }
    expect(wrapped).toBe(true);
    expect(runOnGpu([a.matmul(b)])[0]).toEqual(want);
  });

  it('a fused epilogue at the edges: per-column bias, per-row scale, a literal, relu; batched', () => {
    const a = f32([2, 129, 65], 11),
      b = f32([65, 130], 12),
      bias = f32([130], 13),
      rowScale = f32([129, 1], 14);
    const y = a.matmul(b).add(bias).mul(rowScale).mul(0.5).maximum(0);
    // |relu(x)| ≤ |x|: bound the pre-relu error by Σ|a·b|·|s|/2 plus bias's own rounding.
    const abs = a.abs().matmul(b.abs()).add(bias.abs()).mul(rowScale.abs()).mul(0.5);
    expectMatmulClose(runOnGpu([y])[0]!, y, abs, 68);
  });

  it('epilogues whose output is stored as a word (bool, int8, float16) or that load a bool mask: equal to js', () => {
    const ai = rlx.tensor(Int32Array.from({ length: 70 * 33 }, (_, i) => ((i * 37) % 23) - 11), { dtype: 'int32' }).reshape([70, 33]);
    const bi = rlx.tensor(Int32Array.from({ length: 33 * 66 }, (_, i) => ((i * 53) % 19) - 9), { dtype: 'int32' }).reshape([33, 66]);
    const mask = rlx.tensor(Uint8Array.from({ length: 70 * 66 }, (_, i) => ((i * 7) % 3 === 0 ? 1 : 0)), { dtype: 'bool' }).reshape([70, 66]);
    const cases: [string, (d: string) => Tensor][] = [
      ['gt', (d) => ai.on(d).matmul(bi.on(d)).gt(0)],
      ['int8', (d) => ai.on(d).matmul(bi.on(d)).mul(7).cast('int8')],
      ['where', (d) => rlx.where(mask.on(d), ai.on(d).matmul(bi.on(d)), 0)],
      // small integers: the float32 products are exact, so the float16 rounding is the same on both
      ['float16', (d) => ai.on(d).cast('float32').matmul(bi.on(d).cast('float32')).mul(1.37).cast('float16')],
    ];
    for (const [name, f] of cases) {
      const kernels = executableFor([f('js').node], 'js').exe.exe.report.kernels;
      const last = kernels[kernels.length - 1]!;
      expect(last.kind === 'matmul' && last.epilogue !== undefined, `${name}: fused into the matmul's epilogue`).toBe(true);
      expect(Array.from(f('webgpu').toArray() as ArrayLike<number>), name).toEqual(Array.from(f('js').toArray() as ArrayLike<number>));
    }
  });

  it('symbolic m, k, n take the large tiles and resolve per run (a 3×5·5×2 and a 130×9·9×131 product)', () => {
    const d = webgpuDevice();
    const kern: MatmulKernel = {
      kind: 'matmul',
      out: 2,
      outDType: 'float32',
      outShape: ['m', 'n'],
      fused: ['matmul'],
      a: { slot: 0, dtype: 'float32', chain: [] },
      b: { slot: 1, dtype: 'float32', chain: [] },
      aShape: ['m', 'k'],
      bShape: ['k', 'n'],
    };
    const w = wgslMatmul(kern, [['m', 'k'], ['k', 'n'], ['m', 'n']]);
    expect(w.workgroupSize).toBe(256);
    for (const [m, k, n] of [[3, 5, 2], [130, 9, 131]] as const) {
      const av = Float32Array.from({ length: m * k }, (_, i) => Math.sin(i * 0.3)),
        bv = Float32Array.from({ length: k * n }, (_, i) => Math.cos(i * 0.7));
      const P = w.params(new Map([['m', m], ['k', k], ['n', n]]));
      const bufs = [d.createBuffer(m * n * 4), d.createBuffer(av.byteLength, av), d.createBuffer(bv.byteLength, bv), d.createBuffer(P.byteLength, P)];
      d.dispatch(d.pipeline(w.code), bufs, [w.groups(P), 1]);
      const got = new Float32Array(d.readSync(bufs[0]!));
      for (const b of bufs) d.free(b);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let s = 0,
            mag = 0;
          for (let p = 0; p < k; p++) {
            s += av[i * k + p]! * bv[p * n + j]!;
            mag += Math.abs(av[i * k + p]! * bv[p * n + j]!);
          }
          expect(Math.abs(got[i * n + j]! - s), `(${i}, ${j}) of ${m}×${n}`).toBeLessThanOrEqual(4 * k * 2 ** -23 * mag + 1e-30);
        }
    }
  });
});
