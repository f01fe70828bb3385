// A stable argsort of float64 keys for writeSplat's importance order: an
// LSD radix sort on the keys' 64 bits (4 passes of 16 bits), linear in N,
// where a comparator sort of a million indices takes seconds. Stable, so
// equal keys keep their original order; the caller maps NaN to +Infinity
// (−0 is sorted as +0).

/** Indices that sort `keys` ascending, ties in index order. */
export function argsortStable(keys: Float64Array): Uint32Array {
  const n = keys.length;
  // Order-preserving unsigned 64-bit images of the floats: flip every bit of negatives, the sign bit of the others.
  const words = new Uint32Array(2 * n);
  const f = new Float64Array(1), w = new Uint32Array(f.buffer);
  const lowFirst = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1; // little-endian platform: w[0] is the low word
  for (let i = 0; i < n; i++) {
    f[0] = keys[i]! + 0; // −0 → +0
    const lo = lowFirst ? w[0]! : w[1]!, hi = lowFirst ? w[1]! : w[0]!;
    const neg = hi >>> 31 === 1;
    words[2 * i] = neg ? ~lo >>> 0 : lo;
    words[2 * i + 1] = neg ? ~hi >>> 0 : (hi ^ 0x80000000) >>> 0;
  }
  let order = new Uint32Array(n), next = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const count = new Uint32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1, shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[((words[2 * i + word]! >>> shift) & 0xffff) + 1]!++;
    for (let d = 0; d < 65536; d++) count[d + 1]! += count[d]!;
    for (let j = 0; j < n; j++) {
      const i = order[j]!;
      next[count[(words[2 * i + word]! >>> shift) & 0xffff]!++] = i;
    }
    [order, next] = [next, order];
  }
  return order;
}
