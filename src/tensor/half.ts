// float16 and bfloat16 <-> float conversions.
//
// float16/bfloat16 tensors store raw 16-bit patterns in a Uint16Array and are
// computed in float32 (see dtype.ts), so every load and store in a generated
// kernel goes through these functions. They are allocation-free: the only
// buffers are module-level scratch views and the lazily filled decode table.
//
// Rounding: float16 is rounded directly from the JS double (round to nearest,
// ties to even), as NumPy's float64 -> float16 cast does; rounding through
// float32 first would round twice and differ on values just off a tie.
// bfloat16 follows PyTorch: the input is a float32 value, rounded to nearest
// even on its bit pattern.

const F64 = new Float64Array(1);
const F64_WORDS = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0; // high word index (endianness)
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

// POW2[k + 32] = 2^k for -32 <= k <= 32, built by exact doubling (Math.pow is
// not specified to be exact).
const POW2 = new Float64Array(65);
POW2[32] = 1;
for (let k = 1; k <= 32; k++) {
  POW2[32 + k] = POW2[31 + k]! * 2;
  POW2[32 - k] = POW2[33 - k]! / 2;
}

/** float16 bits -> value table (65536 entries), for kernels that index it directly: call ensureF16Table() first. */
export const F16_TO_F32 = new Float32Array(65536);
let f16TableReady = false;

function fillF16Table(): void {
  for (let h = 0; h < 65536; h++) {
    const exp = (h >>> 10) & 0x1f;
    const man = h & 0x3ff;
    let v: number;
    if (exp === 0) v = man * 5.9604644775390625e-8; // man * 2^-24, subnormal
    else if (exp === 31) v = man === 0 ? Infinity : NaN;
    else v = (1024 + man) * POW2[exp + 7]!; // (1 + man/1024) * 2^(exp-15)
    F16_TO_F32[h] = h & 0x8000 ? -v : v;
  }
  f16TableReady = true;
}

/** Fills F16_TO_F32 on first use and returns it. */
export function ensureF16Table(): Float32Array {
  if (!f16TableReady) fillF16Table();
  return F16_TO_F32;
}

/** Exact value of a float16 bit pattern (low 16 bits of `bits`). */
export function f16BitsToF32(bits: number): number {
  if (!f16TableReady) fillF16Table();
  return F16_TO_F32[bits & 0xffff]!;
}

/** Rounds s >= 0 to an integer, ties to even (s < 2^52). */
function rintPos(s: number): number {
  const r = Math.floor(s);
  const d = s - r;
  if (d > 0.5 || (d === 0.5 && (r & 1) === 1)) return r + 1;
  return r;
}

/** IEEE binary16 bits nearest to the double x (ties to even; overflow -> inf; NaN -> quiet NaN with x's sign). */
export function f32ToF16Bits(x: number): number {
  F64[0] = x;
  const hi = F64_WORDS[HI]!;
  const sign = (hi >>> 16) & 0x8000;
  if (x !== x) return sign | 0x7e00;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00; // 65520 is the tie between 65504 and 2^16: even rounds up
  if (a < 6.103515625e-5) {
    // below 2^-14: subnormal half, quantum 2^-24. a * 2^24 is exact.
    return sign | rintPos(a * 16777216); // 1024 carries into the smallest normal
  }
  const e = ((hi >>> 20) & 0x7ff) - 1023; // -14 <= e <= 15, a is a normal double
  const m = rintPos(a * POW2[42 - e]!); // a * 2^(10-e) in [1024, 2048], exact
  return sign | (((e + 15) << 10) + m - 1024); // m = 2048 carries into the exponent
}

/** Value of a bfloat16 bit pattern (the top half of a float32). */
export function bf16BitsToF32(bits: number): number {
  U32[0] = (bits & 0xffff) << 16;
  return F32[0]!;
}

/**
 * bfloat16 bits for a float32 value (ties to even on the float32 bit pattern,
 * NaN -> quiet NaN). `x` should already be a float32 value (e.g. read from a
 * Float32Array or Math.fround'ed); any other double is first rounded to
 * float32, which rounds twice.
 */
export function f32ToBf16Bits(x: number): number {
  F32[0] = x;
  const u = U32[0]!;
  if ((u & 0x7fffffff) > 0x7f800000) return (u >>> 16) | 0x0040;
  return (u + 0x7fff + ((u >>> 16) & 1)) >>> 16; // u + bias < 2^32: no wrap
}
