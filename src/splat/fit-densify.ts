// fit's adaptive density control (3DGS, Kerbl et al. 2023, §5.2 and
// gaussian_model.py densify_and_prune): every `every` iterations from `start`
// to `until`, the Gaussians whose mean view-space positional gradient exceeds
// `gradThreshold` are densified: small ones (largest scale ≤ percentDense ×
// extent) are cloned, large ones split into two samples of themselves with
// scales divided by 1.6; then Gaussians with opacity below `minOpacity` are
// pruned. New rows start with zero Adam moments, as in 3DGS.
//
// The view-space gradient. 3DGS reads ∂L/∂means2d off its rasterizer; render
// hides its projected means, so here it is estimated from the world-space
// gradient of the means: camera-space g_c = R g (R from the view matrix), and
// since u = fx·x/z + cx, ∂L/∂u ≈ g_c,x·z/fx, ∂L/∂v ≈ g_c,y·z/fy (the path
// through the projected covariance is left out). The magnitude is in 3DGS's
// NDC units (pixels × W/2, H/2), so its threshold 2e-4 carries over. A
// Gaussian counts for a view when its mean projects into the image in front
// of the near plane (3DGS: radius > 0). The edit runs on host arrays: it is
// rare and its size is N rows.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { tensor } from '../tensor/create.js';
import type { AdamSlot } from './adam.js';
import type { Camera } from './types.js';
import { mulberry32, PARAM_KEYS, type ParamKey, type RawParams } from './fit-params.js';

/** fit's densify option (3DGS's defaults where they carry over to short fits). */
export interface DensifyOptions {
  /** Iterations between two densifications (default 100, 3DGS's). */
  every?: number;
  /** First iteration that densifies (default 100; 3DGS: 500 of 30 000). */
  start?: number;
  /** No densification from this iteration on (default: half the iterations, as 3DGS's 15 000 of 30 000). */
  until?: number;
  /** Mean view-space gradient magnitude (NDC units) above which a Gaussian is densified (default 2e-4, 3DGS's). */
  gradThreshold?: number;
  /** Largest scale, as a fraction of the scene extent, up to which a Gaussian is cloned rather than split (default 0.01). */
  percentDense?: number;
  /** Gaussians with opacity below this are pruned at each densification (default 0.005). */
  minOpacity?: number;
  /** No densification beyond this many Gaussians (default unlimited). */
  maxGaussians?: number;
}

type Settled = Required<DensifyOptions>;

/** Checks fit's densify option and fills in the defaults. */
export function densifyOptions(op: string, o: DensifyOptions, iterations: number): Settled {
  if (o === null || typeof o !== 'object') throw new ValueError(`${op}: densify must be true or an options object {every, start, until, gradThreshold, ...}, got ${String(o)}`);
  const s: Settled = {
    every: o.every ?? 100,
    start: o.start ?? 100,
    until: o.until ?? Math.floor(iterations / 2),
    gradThreshold: o.gradThreshold ?? 2e-4,
    percentDense: o.percentDense ?? 0.01,
    minOpacity: o.minOpacity ?? 0.005,
    maxGaussians: o.maxGaussians ?? Infinity,
  };
  if (!(Number.isInteger(s.every) && s.every >= 1)) throw new ValueError(`${op}: densify.every must be an integer ≥ 1, got ${String(s.every)}`);
  for (const k of ['start', 'until'] as const) if (!(Number.isInteger(s[k]) && s[k] >= 0)) throw new ValueError(`${op}: densify.${k} must be an integer ≥ 0, got ${String(s[k])}`);
  for (const k of ['gradThreshold', 'percentDense', 'minOpacity'] as const) if (!(typeof s[k] === 'number' && s[k] >= 0 && Number.isFinite(s[k]))) throw new ValueError(`${op}: densify.${k} must be a finite number ≥ 0, got ${String(s[k])}`);
  if (!(s.maxGaussians >= 1)) throw new ValueError(`${op}: densify.maxGaussians must be ≥ 1, got ${String(s.maxGaussians)}`);
  return s;
}

type Arr = Float32Array | Float64Array;

/** The running view-space gradient statistics and the densify/prune edit. */
export class DensifyState {
  private accum = new Float64Array(0);
  private denom = new Float64Array(0);
  private readonly rand: () => number;

  constructor(
    private readonly o: Settled,
    private readonly cams: readonly Camera[],
    private readonly extent: number,
    seed: number,
  ) {
    this.rand = mulberry32(seed ^ 0x5eed);
  }

  /** Whether iteration `it` feeds the statistics (so fit keeps the means' gradient). */
  wantsGradient(it: number): boolean {
    return it < this.o.until;
  }

  /** Adds the estimated view-space gradient magnitude of every Gaussian visible in `views`. */
  accumulate(raw: RawParams, meansGrad: Tensor, views: readonly number[]): void {
    const m = raw.means.toArray() as Arr,
      g = meansGrad.toArray() as Arr;
    const n = m.length / 3;
    if (this.accum.length !== n) (this.accum = new Float64Array(n)), (this.denom = new Float64Array(n));
    for (const v of views) {
      const c = this.cams[v]!;
      const V = c.viewmat,
        fx = c.K[0]!,
        fy = c.K[4]!,
        cx = c.K[2]!,
        cy = c.K[5]!;
      for (let i = 0; i < n; i++) {
        const x = m[3 * i]!,
          y = m[3 * i + 1]!,
          zw = m[3 * i + 2]!;
        const z = V[8]! * x + V[9]! * y + V[10]! * zw + V[11]!;
        if (!(z > c.near && z < c.far)) continue;
        const u = (fx * (V[0]! * x + V[1]! * y + V[2]! * zw + V[3]!)) / z + cx,
          w = (fy * (V[4]! * x + V[5]! * y + V[6]! * zw + V[7]!)) / z + cy;
        if (u < 0 || u > c.width || w < 0 || w > c.height) continue;
        const gx = g[3 * i]!,
          gy = g[3 * i + 1]!,
          gz = g[3 * i + 2]!;
        const gu = ((V[0]! * gx + V[1]! * gy + V[2]! * gz) * z) / fx,
          gv = ((V[4]! * gx + V[5]! * gy + V[6]! * gz) * z) / fy;
        this.accum[i]! += Math.hypot((gu * c.width) / 2, (gv * c.height) / 2);
        this.denom[i]! += 1;
      }
    }
  }

  /** After iteration `it`: densify and prune when due; the edited parameters and Adam slots, or null. */
  step(it: number, raw: RawParams, slots: Record<ParamKey, AdamSlot | null>): { raw: RawParams; slots: Record<ParamKey, AdamSlot | null> } | null {
    const k = it + 1; // iterations done
    if (k < this.o.start || k >= this.o.until || k % this.o.every !== 0) return null;
    const n = raw.means.shape[0] as number;
    const logScale = raw.logScales.toArray() as Arr,
      logitO = raw.logitOpacities.toArray() as Arr,
      means = raw.means.toArray() as Arr,
      quats = raw.quats.toArray() as Arr;
    const minLogit = Math.log(this.o.minOpacity / (1 - this.o.minOpacity));
    const big = this.o.percentDense * this.extent;
    const keep: number[] = [],
      clone: number[] = [],
      split: number[] = [];
    let budget = this.o.maxGaussians - n;
    for (let i = 0; i < n; i++) {
      if (logitO[i]! < minLogit) continue; // pruned (its copies would be too)
      const avg = this.denom[i]! > 0 ? this.accum[i]! / this.denom[i]! : 0;
      const maxScale = Math.exp(Math.max(logScale[3 * i]!, logScale[3 * i + 1]!, logScale[3 * i + 2]!));
      if (avg >= this.o.gradThreshold && budget >= 1) {
        if (maxScale <= big) {
          keep.push(i), clone.push(i), budget--;
          continue;
        }
        split.push(i), budget--; // the original is replaced by two samples
        continue;
      }
      keep.push(i);
    }
    this.accum = new Float64Array(0);
    this.denom = new Float64Array(0);
    if (clone.length === 0 && split.length === 0 && keep.length === n) return null;
    // Rows of the new set: kept originals, clones, then two samples per split Gaussian.
    const rows = [...keep, ...clone, ...split, ...split];
    const fresh = keep.length; // rows from here on start with zero moments
    const newMeans = gatherHost(means, 3, rows),
      newLogScales = gatherHost(logScale, 3, rows);
    const shrink = Math.log(1.6);
    split.forEach((i, j) => {
      for (const copy of [0, 1]) {
        const r = keep.length + clone.length + copy * split.length + j;
        const [w, x, y, z] = normalized(quats, i);
        const s = [0, 1, 2].map((a) => Math.exp(logScale[3 * i + a]!) * this.normal());
        // the sample's offset R s, R the rotation of (w, x, y, z)
        const off = [
          (1 - 2 * (y * y + z * z)) * s[0]! + 2 * (x * y - w * z) * s[1]! + 2 * (x * z + w * y) * s[2]!,
          2 * (x * y + w * z) * s[0]! + (1 - 2 * (x * x + z * z)) * s[1]! + 2 * (y * z - w * x) * s[2]!,
          2 * (x * z - w * y) * s[0]! + 2 * (y * z + w * x) * s[1]! + (1 - 2 * (x * x + y * y)) * s[2]!,
        ];
        for (let a = 0; a < 3; a++) {
          newMeans[3 * r + a] = means[3 * i + a]! + off[a]!;
          newLogScales[3 * r + a] = logScale[3 * i + a]! - shrink;
        }
      }
    });
    const out = { ...raw } as RawParams;
    const outSlots = { ...slots };
    for (const key of PARAM_KEYS) {
      const p = raw[key];
      if (p === null) continue;
      const width = (p.shape as number[]).slice(1).reduce((a, b) => a * b, 1);
      const shape = [rows.length, ...(p.shape as number[]).slice(1)];
      const data = key === 'means' ? newMeans : key === 'logScales' ? newLogScales : gatherHost(p.toArray() as Arr, width, rows);
      out[key] = tensor(data, { dtype: p.dtype, shape });
      const slot = slots[key]!;
      const moments = (t: Tensor): Tensor => {
        const d = gatherHost(t.toArray() as Arr, width, rows);
        d.fill(0, fresh * width);
        return tensor(d, { dtype: p.dtype, shape });
      };
      outSlots[key] = { m: moments(slot.m), v: moments(slot.v) };
    }
    return { raw: out, slots: outSlots };
  }

  /** A standard normal sample (Box–Muller). */
  private normal(): number {
    const u = 1 - this.rand(),
      v = this.rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** Rows `rows` of a row-major array with `width` numbers per row. */
function gatherHost(a: Arr, width: number, rows: readonly number[]): Arr {
  const out = new (a.constructor as Float64ArrayConstructor)(rows.length * width);
  rows.forEach((r, i) => out.set(a.subarray(r * width, (r + 1) * width), i * width));
  return out;
}

/** Quaternion i of a [N, 4] array, normalised (w, x, y, z). */
function normalized(q: Arr, i: number): [number, number, number, number] {
  const w = q[4 * i]!,
    x = q[4 * i + 1]!,
    y = q[4 * i + 2]!,
    z = q[4 * i + 3]!;
  const r = Math.hypot(w, x, y, z) || 1;
  return [w / r, x / r, y / r, z / r];
}
