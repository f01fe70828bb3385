// The random ops (tensor/random-ops.ts) on the webgpu device: Threefry-2x32-20
// in WGSL (u32 arithmetic wraps as the host's `| 0` does), one invocation per
// output word, the counters of JAX's partitionable layout (the host's
// default, tensor/random/threefry.ts). split, foldIn, randint and uniform(float32) give the
// host's bits exactly; normal(float32) computes erfinv in float32 on the GPU
// (Giles' single-precision approximation) where the host computes it in
// float64 and rounds once, so its values agree to a few float32 ulps.
// Not served (a LegalizationError naming why): float64/float16/complex
// samples (no WGSL type here).
//
// Registered by the webgpu backend (index.ts imports this file), a layer above
// the random ops; op names are random-ops.ts's RANDOM_OPS, spelled out so this
// file needs nothing of the tensor layer.

import type { DType } from '../../tensor/dtype.js';
import type { Attrs } from '../../compiler/ir.js';
import { registerGpuOp, type GpuOpArgs } from './registered.js';
import { HALF_WGSL } from './wgsl-expr.js';

/** fry(k0, k1, c0, c1) → vec2u: one Threefry-2x32-20 block, as threefry.ts. */
const THREEFRY = `
fn rotl(x: u32, r: u32) -> u32 { return (x << r) | (x >> (32u - r)); }
fn fry(k0: u32, k1: u32, c0: u32, c1: u32) -> vec2u {
  let k2 = k0 ^ k1 ^ 0x1bd11bdau;
  let ks = array<u32, 3>(k0, k1, k2);
  let rot = array<u32, 8>(13u, 15u, 26u, 6u, 17u, 29u, 16u, 24u);
  var x0 = c0 + k0;
  var x1 = c1 + k1;
  for (var s = 0u; s < 5u; s = s + 1u) {
    for (var r = 0u; r < 4u; r = r + 1u) {
      x0 = x0 + x1;
      x1 = rotl(x1, rot[(s % 2u) * 4u + r]) ^ x0;
    }
    x0 = x0 + ks[(s + 1u) % 3u];
    x1 = x1 + ks[(s + 2u) % 3u] + s + 1u;
  }
  return vec2u(x0, x1);
}`;

const bindings = (ins: number) =>
  [
    '@group(0) @binding(0) var<storage, read_write> OUT: array<u32>;',
    ...Array.from({ length: ins }, (_, i) => `@group(0) @binding(${i + 1}) var<storage, read> IN${i}: array<u32>;`),
    `@group(0) @binding(${ins + 1}) var<storage, read> U: array<u32>;`,
  ].join('\n');

/** The invocation's flat index over a 2-D grid of 256-wide workgroups, and the early return past U[0] words. */
const ENTRY = `@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= U[0]) { return; }`;

function launch(a: GpuOpArgs, code: string, ins: readonly number[], total: number, uniforms: readonly number[]): void {
  if (total === 0) return;
  const u = a.upload(Uint32Array.from([total, ...uniforms]));
  const groups = Math.ceil(total / 256);
  const maxX = a.device.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
  a.device.dispatch(a.pipeline(code), [a.outs[0]!, ...ins.map((i) => a.ins[i]!), u], [Math.min(groups, maxX), Math.ceil(groups / maxX)]);
}

const count = (s: readonly number[]) => s.reduce((x, y) => x * y, 1);
const f32Bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0]!;
/** The largest float32 below float32 x (x > -inf). */
function nextDown32(x: number): number {
  if (x === 0) return -(2 ** -149);
  const b = new Uint32Array(Float32Array.of(x).buffer);
  b[0] = x > 0 ? b[0]! - 1 : b[0]! + 1;
  return new Float32Array(b.buffer)[0]!;
}

const SAMPLE_FLOATS = ['float32', 'float16', 'bfloat16'];
const floatSamples = (op: string) => (_: readonly DType[], attrs: Attrs) =>
  SAMPLE_FLOATS.includes(attrs['sampleDType'] as string)
    ? (true as const)
    : `random.${op} of ${String(attrs['sampleDType'])} on webgpu: float32 samples (float16/bfloat16 rounded from them, as on the CPU) only; WGSL has no float64, complex is not stored`;
/** The storage word of a float32 sample in the op's sample dtype (halves rounded from it, as the host's encodeValues). */
const storeSample = (a: GpuOpArgs, v: string) => {
  const d = a.attrs['sampleDType'] as string;
  return d === 'float16' ? `rlx_to_f16(${v})` : d === 'bfloat16' ? `rlx_to_bf16(${v})` : `bitcast<u32>(${v})`;
};

/** uniform on [lo, hi) from bits, as samplers.ts uniform32FromBits (each op rounded to float32). */
const UNIFORM = `
fn uniform(bits: u32, lo: f32, span: f32, hi: f32, top: f32) -> f32 {
  let f = f32(bits >> 9u) * bitcast<f32>(0x34000000u);
  let v = f * span + lo;
  return select(select(top, v, v < hi), lo, v < lo);
}`;

registerGpuOp('random.split', {
  run(a) {
    const n = a.attrs['n'] as number;
    // out[b, j] = fry(key_b, (0, j))
    const code = `${bindings(1)}\n${THREEFRY}\n${ENTRY}
  let b = i / U[1]; let j = i % U[1];
  let w = fry(IN0[2u * b], IN0[2u * b + 1u], 0u, j);
  OUT[2u * i] = w.x; OUT[2u * i + 1u] = w.y;
}`;
    launch(a, code, [0], a.batch * n, [n]);
  },
});

registerGpuOp('random.foldIn', {
  run(a) {
    const code = `${bindings(2)}\n${THREEFRY}\n${ENTRY}
  let w = fry(IN0[2u * i], IN0[2u * i + 1u], 0u, IN1[i]);
  OUT[2u * i] = w.x; OUT[2u * i + 1u] = w.y;
}`;
    launch(a, code, [0, 1], a.batch, []);
  },
});

registerGpuOp('random.uniform', {
  serves: floatSamples('uniform'),
  run(a) {
    const n = count(a.attrs['sampleShape'] as number[]);
    const lo = Math.fround(a.attrs['minval'] as number),
      hi = Math.fround(a.attrs['maxval'] as number);
    const code = `${bindings(1)}\n${HALF_WGSL}\n${THREEFRY}\n${UNIFORM}\n${ENTRY}
  let b = i / U[1]; let j = i % U[1];
  let w = fry(IN0[2u * b], IN0[2u * b + 1u], 0u, j);
  OUT[i] = ${storeSample(a, 'uniform(w.x ^ w.y, bitcast<f32>(U[2]), bitcast<f32>(U[3]), bitcast<f32>(U[4]), bitcast<f32>(U[5]))')};
}`;
    launch(a, code, [0], a.batch * n, [n, f32Bits(lo), f32Bits(Math.fround(hi - lo)), f32Bits(hi), f32Bits(nextDown32(hi))]);
  },
});

registerGpuOp('random.normal', {
  serves: floatSamples('normal'),
  run(a) {
    const n = count(a.attrs['sampleShape'] as number[]);
    const lo = Math.fround(-1 + 2 ** -24); // nextafter(-1, 0) in float32, as normalFloat32
    // Giles (2012), "Approximating the erfinv function", single precision.
    const code = `${bindings(1)}\n${HALF_WGSL}\n${THREEFRY}\n${UNIFORM}
fn erfinv(x: f32) -> f32 {
  var w = -log((1.0 - x) * (1.0 + x));
  var p: f32;
  if (w < 5.0) {
    w = w - 2.5;
    p = 2.81022636e-08; p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w; p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257; p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w; p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  return p * x;
}
${ENTRY}
  let b = i / U[1]; let j = i % U[1];
  let w = fry(IN0[2u * b], IN0[2u * b + 1u], 0u, j);
  let u = uniform(w.x ^ w.y, bitcast<f32>(U[2]), bitcast<f32>(U[3]), bitcast<f32>(U[4]), bitcast<f32>(U[5]));
  OUT[i] = ${storeSample(a, '1.41421354 * erfinv(u)')};
}`;
    launch(a, code, [0], a.batch * n, [n, f32Bits(lo), f32Bits(Math.fround(1 - lo)), f32Bits(1), f32Bits(nextDown32(1))]);
  },
});

registerGpuOp('random.randint', {
  run(a) {
    const n = count(a.attrs['sampleShape'] as number[]);
    const lo = a.attrs['lo'] as number,
      hi = a.attrs['hi'] as number;
    const span = hi - lo; // 1 .. 2^32
    // samplers.ts randint: k1, k2 = split(key); word = bits(k1)_j·2^32 + bits(k2)_j; offset = word mod span,
    // redrawn from fry(foldIn(foldIn(key, 0xffffffff), attempt), (0, j)) in the final incomplete block.
    const code = `${bindings(1)}\n${THREEFRY}
fn addMod(x: u32, y: u32, s: u32) -> u32 { return select(x + y, x - (s - y), x >= s - y); }
// (x · y) mod s for x, y < s, by doubling (no 64-bit integers in WGSL).
fn mulMod(x: u32, y: u32, s: u32) -> u32 {
  var r = 0u;
  for (var k = 31i; k >= 0i; k = k - 1i) {
    r = addMod(r, r, s);
    if (((y >> u32(k)) & 1u) == 1u) { r = addMod(r, x, s); }
  }
  return r;
}
// word h·2^32 + l mod s, or 0xffffffff when it lies in the final incomplete block (redraw); s < 2^32.
fn reduce(h: u32, l: u32, s: u32) -> u32 {
  let m = (0xffffffffu % s + 1u) % s;
  if (m == 0u) { return l % s; }
  let c = mulMod(m, m, s);
  if (c != 0u && h == 0xffffffffu && 0xffffffffu - l < c) { return 0xffffffffu; }
  return addMod(mulMod(h % s, m, s), l % s, s);
}
${ENTRY}
  let b = i / U[1]; let j = i % U[1];
  let k0 = IN0[2u * b]; let k1 = IN0[2u * b + 1u];
  let lo = U[2]; let s = U[3];
  let a1 = fry(k0, k1, 0u, 0u); let a2 = fry(k0, k1, 0u, 1u);
  let hw = fry(a1.x, a1.y, 0u, j); let lw = fry(a2.x, a2.y, 0u, j);
  var r: u32;
  if (U[4] == 1u) { r = lw.x ^ lw.y; } // span = 2^32: the low word itself
  else {
    r = reduce(hw.x ^ hw.y, lw.x ^ lw.y, s);
    let f0 = fry(k0, k1, 0u, 0xffffffffu);
    for (var t = 0u; r == 0xffffffffu; t = t + 1u) {
      let f = fry(f0.x, f0.y, 0u, t);
      let w = fry(f.x, f.y, 0u, j);
      r = reduce(w.x, w.y, s);
    }
  }
  OUT[i] = lo + r;
}`;
    launch(a, code, [0], a.batch * n, [n, lo >>> 0, span >>> 0, span === 2 ** 32 ? 1 : 0]);
  },
});

registerGpuOp('random.bernoulli', {
  run(a) {
    const n = count(a.attrs['sampleShape'] as number[]);
    // samplers.ts bernoulliBits: uniform float64 f = (hi·2^20 + (lo >> 12)) / 2^52 from fry(key, (0, j)), true iff f < p.
    // No float64 in WGSL: compared exactly as 52-bit integers, b < T with T = ⌈p·2^52⌉ (p·2^52 is exact).
    const T = Math.ceil((a.attrs['p'] as number) * 2 ** 52);
    const code = `${bindings(1)}\n${THREEFRY}\n${ENTRY}
  let b = i / U[1]; let j = i % U[1];
  let w = fry(IN0[2u * b], IN0[2u * b + 1u], 0u, j);
  let lo = w.y >> 12u;
  OUT[i] = select(0u, 1u, w.x < U[2] || (w.x == U[2] && lo < U[3]));
}`;
    // p = 1: T = 2^52, whose high word does not fit: every draw is below (0xffffffff, 2^20).
    launch(a, code, [0], a.batch * n, [n, ...(T >= 2 ** 52 ? [0xffffffff, 2 ** 20] : [Math.floor(T / 2 ** 20), T % 2 ** 20])]);
  },
});
