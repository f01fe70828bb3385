// A plain row-major matrix product for the js kernel set (expm's kernel builds
// on it): i-p-j loop order so the inner loop streams rows of b and out, with a
// float64 row accumulator (float32 outputs round once, like the js matmul).

import type { FloatArray, LinalgDType } from '../contract.js';

export function gemm(dtype: LinalgDType, m: number, k: number, n: number, a: FloatArray, b: FloatArray, out: FloatArray): void {
  const cplx = dtype === 'complex64' || dtype === 'complex128';
  const L = cplx ? 2 : 1;
  if (a.length !== m * k * L || b.length !== k * n * L || out.length !== m * n * L) {
    throw new Error(`gemm: lengths ${a.length}, ${b.length}, ${out.length} do not fit [${m}, ${k}] @ [${k}, ${n}] of ${dtype}`);
  }
  const acc = new Float64Array(n * L);
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    for (let p = 0; p < k; p++) {
      if (!cplx) {
        const x = a[i * k + p]!;
        if (x === 0) continue;
        const bo = p * n;
        for (let j = 0; j < n; j++) acc[j] += x * b[bo + j]!;
      } else {
        const xr = a[2 * (i * k + p)]!,
          xi = a[2 * (i * k + p) + 1]!;
        const bo = 2 * p * n;
        for (let j = 0; j < n; j++) {
          const yr = b[bo + 2 * j]!,
            yi = b[bo + 2 * j + 1]!;
          acc[2 * j] += xr * yr - xi * yi;
          acc[2 * j + 1] += xr * yi + xi * yr;
        }
      }
    }
    out.set(acc, i * n * L);
  }
}
