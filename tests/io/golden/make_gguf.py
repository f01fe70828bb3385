#!/usr/bin/env python3
"""Golden GGUF files for rlx's io.readGguf, written without rlx (or ggml).

Debian has no python3-gguf, so the files are written here from the format's
definition (ggml docs/gguf.md) with struct and NumPy: "GGUF", a uint32 version,
uint64 tensor and key/value counts, the key/values (strings as a uint64 length
and UTF-8 bytes, arrays as an element type, a uint64 count and the elements),
each tensor's name, n_dims, dims ne[] (ne[0] fastest-varying), ggml type and
data offset, then the data section aligned to general.alignment (default 32).

Quantized tensors are made by this script's own transcription of ggml's
reference quantizers (ggml-quants.c: quantize_row_q8_0_ref, quantize_row_q4_0_ref,
quantize_row_q4_K_ref with make_qkx2_quants and nearest_int) in float32 NumPy
scalars, and decoded back by its own transcription of dequantize_row_q8_0,
_q4_0 and _q4_K. gguf_expected.json records, per file, the metadata (type and
value; 64-bit integers as decimal strings), and per tensor the ggml type, the
rlx shape (ne reversed), the absolute data offset, the decoded values as bits
(float32 → uint32 bits, F16/BF16 → uint16 bits, F64 → repr, integers as they
are) and, for quantized tensors, the float32 source values' bits.

Regenerate (deterministic: fixed values and a seeded RNG):

    /usr/bin/python3 tests/io/golden/make_gguf.py

Files:
  tensors.gguf        v3, default alignment: every metadata value type (nested and empty arrays,
                      uint64 past 2^53, UTF-8), F32 (incl. a 0-d and an empty tensor), F16, BF16,
                      F64, I8, I16, I32, I64, Q8_0, Q4_0, Q4_K (random rows plus zero, constant,
                      all-positive and outlier blocks)
  aligned64.gguf      v2, general.alignment = 64, tensor index in the reverse of the data order:
                      Q4_K, Q8_0, F32
  i64_overflow.gguf   an I64 tensor holding 2^40 (rlx must refuse it by name)
  unsupported.gguf    a Q5_0 tensor (rlx must refuse it by name and type; its index still reads)
"""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(18)
f32 = np.float32

# ---------------------------------------------------------------- quantizers

def fp16(x):
    """GGML_FP32_TO_FP16 then back: the float32 value of the nearest float16 (ties to even)."""
    return f32(np.float16(x))


def fp16_bits(x):
    return int(np.array(np.float16(x)).view(np.uint16))


def bits_to_fp16(b):
    return f32(np.array(b, dtype=np.uint16).view(np.float16))


def nearest_int(fval):
    """ggml's nearest_int: add 1.5·2^23 in float32 and read the mantissa (round half to even)."""
    val = f32(fval) + f32(12582912.0)
    i = int(np.array(val, dtype=np.float32).view(np.int32))
    return (i & 0x007FFFFF) - 0x00400000


def roundf(x):
    """C roundf: half away from zero (x is a float32; the float64 arithmetic is exact)."""
    x = float(x)
    return int(np.sign(x) * np.floor(abs(x) + 0.5))


def quantize_q8_0(x):
    out = b""
    for blk in x.reshape(-1, 32):
        amax = f32(0)
        for v in blk:
            amax = max(amax, abs(v))
        d = amax / f32(127)
        idv = f32(1) / d if d != 0 else f32(0)
        qs = [roundf(v * idv) for v in blk]
        out += struct.pack("<H32b", fp16_bits(d), *qs)
    return out


def quantize_q4_0(x):
    out = b""
    for blk in x.reshape(-1, 32):
        amax, mx = f32(0), f32(0)
        for v in blk:
            if amax < abs(v):
                amax, mx = abs(v), v
        d = mx / f32(-8)
        idv = f32(1) / d if d != 0 else f32(0)
        qs = []
        for j in range(16):
            x0, x1 = blk[j] * idv, blk[16 + j] * idv
            xi0 = min(15, int(np.trunc(x0 + f32(8.5))))  # (int8_t) truncates toward zero
            xi1 = min(15, int(np.trunc(x1 + f32(8.5))))
            qs.append(xi0 | (xi1 << 4))
        out += struct.pack("<H16B", fp16_bits(d), *qs)
    return out


def make_qkx2_quants(n, nmax, x, weights, rmin, rdelta, nstep):
    """ggml's make_qkx2_quants (use_mad false): returns (scale, -min, L)."""
    mn, mx = x[0], x[0]
    sum_w = weights[0]
    sum_x = sum_w * x[0]
    for i in range(1, n):
        mn = min(mn, x[i]); mx = max(mx, x[i])
        sum_w += weights[i]
        sum_x += weights[i] * x[i]
    if mn > 0:
        mn = f32(0)
    if mx == mn:
        return f32(0), -mn, [0] * n
    iscale = f32(nmax) / (mx - mn)
    scale = f32(1) / iscale
    L = [max(0, min(nmax, nearest_int(iscale * (x[i] - mn)))) for i in range(n)]
    best = f32(0)
    for i in range(n):
        diff = scale * f32(L[i]) + mn - x[i]
        best += weights[i] * (diff * diff)
    for step in range(nstep + 1):
        iscale = (f32(rmin) + f32(rdelta) * f32(step) + f32(nmax)) / (mx - mn)
        Laux = [max(0, min(nmax, nearest_int(iscale * (x[i] - mn)))) for i in range(n)]
        sum_l = sum_l2 = sum_xl = f32(0)
        for i in range(n):
            w, l = weights[i], f32(Laux[i])
            sum_l += w * l; sum_l2 += w * l * l; sum_xl += w * l * x[i]
        D = sum_w * sum_l2 - sum_l * sum_l
        if D > 0:
            this_scale = (sum_w * sum_xl - sum_x * sum_l) / D
            this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D
            if this_min > 0:
                this_min = f32(0)
                this_scale = sum_xl / sum_l2
            mad = f32(0)
            for i in range(n):
                diff = this_scale * f32(Laux[i]) + this_min - x[i]
                mad += weights[i] * (diff * diff)
            if mad < best:
                L, best, scale, mn = Laux, mad, this_scale, this_min
    return scale, -mn, L


def get_scale_min_k4(j, q):
    if j < 4:
        return q[j] & 63, q[j + 4] & 63
    return (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4)


def quantize_q4_K(x):
    out = b""
    for sb in x.reshape(-1, 256):
        scales, mins, L = [], [], [0] * 256
        for j in range(8):
            xs = sb[32 * j:32 * j + 32]
            sum_x2 = f32(0)
            for v in xs:
                sum_x2 += v * v
            av_x = np.sqrt(sum_x2 / f32(32), dtype=np.float32)
            weights = [av_x + abs(v) for v in xs]
            s, m, Ls = make_qkx2_quants(32, 15, xs, weights, -1.0, 0.1, 20)
            scales.append(s); mins.append(m); L[32 * j:32 * j + 32] = Ls
        max_scale = max([f32(0)] + [s for s in scales])
        max_min = max([f32(0)] + [m for m in mins])
        inv_scale = f32(63) / max_scale if max_scale > 0 else f32(0)
        inv_min = f32(63) / max_min if max_min > 0 else f32(0)
        sc = [0] * 12
        for j in range(8):
            ls = min(63, nearest_int(inv_scale * scales[j]) & 0xFF)
            lm = min(63, nearest_int(inv_min * mins[j]) & 0xFF)
            if j < 4:
                sc[j] = ls; sc[j + 4] = lm
            else:
                sc[j + 4] = (ls & 0xF) | ((lm & 0xF) << 4)
                sc[j - 4] |= (ls >> 4) << 6
                sc[j] |= (lm >> 4) << 6
        d_bits, dmin_bits = fp16_bits(max_scale / f32(63)), fp16_bits(max_min / f32(63))
        for j in range(8):
            s, m = get_scale_min_k4(j, sc)
            d = bits_to_fp16(d_bits) * f32(s)
            if d == 0:
                continue
            dm = bits_to_fp16(dmin_bits) * f32(m)
            for ii in range(32):
                L[32 * j + ii] = max(0, min(15, nearest_int((sb[32 * j + ii] + dm) / d)))
        qs = []
        for j in range(0, 256, 64):
            qs += [L[j + l] | (L[j + l + 32] << 4) for l in range(32)]
        out += struct.pack("<HH12B128B", d_bits, dmin_bits, *sc, *qs)
    return out


# -------------------------------------------------------------- dequantizers

def dequantize_q8_0(b, n):
    y = np.zeros(n, dtype=np.float32)
    for i in range(n // 32):
        d = bits_to_fp16(struct.unpack_from("<H", b, 34 * i)[0])
        q = struct.unpack_from("<32b", b, 34 * i + 2)
        for j in range(32):
            y[32 * i + j] = f32(q[j]) * d
    return y


def dequantize_q4_0(b, n):
    y = np.zeros(n, dtype=np.float32)
    for i in range(n // 32):
        d = bits_to_fp16(struct.unpack_from("<H", b, 18 * i)[0])
        q = struct.unpack_from("<16B", b, 18 * i + 2)
        for j in range(16):
            y[32 * i + j] = f32((q[j] & 0x0F) - 8) * d
            y[32 * i + j + 16] = f32((q[j] >> 4) - 8) * d
    return y


def dequantize_q4_K(b, n):
    y = np.zeros(n, dtype=np.float32)
    o = 0
    for i in range(n // 256):
        d_bits, dmin_bits = struct.unpack_from("<HH", b, 144 * i)
        d, dmin = bits_to_fp16(d_bits), bits_to_fp16(dmin_bits)
        sc = struct.unpack_from("<12B", b, 144 * i + 4)
        q = struct.unpack_from("<128B", b, 144 * i + 16)
        for k in range(4):
            s1, m1 = get_scale_min_k4(2 * k, sc)
            s2, m2 = get_scale_min_k4(2 * k + 1, sc)
            d1, mm1, d2, mm2 = d * f32(s1), dmin * f32(m1), d * f32(s2), dmin * f32(m2)
            for l in range(32):
                y[o] = d1 * f32(q[32 * k + l] & 0xF) - mm1; o += 1
            for l in range(32):
                y[o] = d2 * f32(q[32 * k + l] >> 4) - mm2; o += 1
    return y


# ------------------------------------------------------------------ writer

VT = {"uint8": 0, "int8": 1, "uint16": 2, "int16": 3, "uint32": 4, "int32": 5, "float32": 6, "bool": 7,
      "string": 8, "array": 9, "uint64": 10, "int64": 11, "float64": 12}
FMT = {"uint8": "<B", "int8": "<b", "uint16": "<H", "int16": "<h", "uint32": "<I", "int32": "<i", "float32": "<f",
       "bool": "<?", "uint64": "<Q", "int64": "<q", "float64": "<d"}
GGML = {"F32": 0, "F16": 1, "Q4_0": 2, "Q5_0": 6, "Q8_0": 8, "Q4_K": 12, "I8": 24, "I16": 25, "I32": 26, "I64": 27,
        "F64": 28, "BF16": 30}


def gstr(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def gvalue(t, v):
    """t: 'uint32', 'string', ('array', inner_t) with inner_t itself possibly ('array', ...)."""
    if isinstance(t, tuple):
        inner = t[1]
        head = struct.pack("<IQ", VT["array"] if isinstance(inner, tuple) else VT[inner], len(v))
        return head + b"".join(gvalue(inner, x) for x in v)
    if t == "string":
        return gstr(v)
    return struct.pack(FMT[t], v)


def tname(t):
    return f"array<{tname(t[1]) if not isinstance(t[1], tuple) else 'array'}>" if isinstance(t, tuple) else t


def jvalue(t, v):
    if isinstance(t, tuple):
        return [jvalue(t[1], x) for x in v]
    if t in ("uint64", "int64"):
        return str(v)
    if t == "float32":
        return float(f32(v))
    return v


def write(fname, version, metadata, tensors, alignment=32, order=None):
    """metadata: list of (key, type, value); tensors: list of (name, ggml, ne, data bytes, expected dict)."""
    head = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(metadata))
    for k, t, v in metadata:
        head += gstr(k) + struct.pack("<I", VT["array"] if isinstance(t, tuple) else VT[t]) + gvalue(t, v)
    # data layout order (may differ from the index order)
    layout = order if order is not None else list(range(len(tensors)))
    offsets, data = {}, b""
    for i in layout:
        data += b"\0" * ((-len(data)) % alignment)
        offsets[i] = len(data)
        data += tensors[i][3]
    for i, (name, g, ne, _, _) in enumerate(tensors):
        head += gstr(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", d) for d in ne)
        head += struct.pack("<IQ", GGML[g], offsets[i])
    start = len(head) + ((-len(head)) % alignment)
    blob = head + b"\0" * (start - len(head)) + data
    with open(os.path.join(HERE, fname), "wb") as f:
        f.write(blob)
    exp = {"version": version, "alignment": alignment, "data_offset": start, "size": len(blob),
           "metadata": {k: {"type": tname(t), "value": jvalue(t, v)} for k, t, v in metadata}, "tensors": {}}
    for i, (name, g, ne, raw, e) in enumerate(tensors):
        exp["tensors"][name] = dict(type=g, shape=list(reversed(ne)), offset=start + offsets[i], nbytes=len(raw), **e)
    return exp


def f32_bits(a):
    return np.asarray(a, dtype=np.float32).view(np.uint32).tolist()


def quantized(name, g, x, ne):
    q = {"Q8_0": quantize_q8_0, "Q4_0": quantize_q4_0, "Q4_K": quantize_q4_K}[g](x.reshape(-1))
    deq = {"Q8_0": dequantize_q8_0, "Q4_0": dequantize_q4_0, "Q4_K": dequantize_q4_K}[g](q, x.size)
    return (name, g, ne, q, {"bits": f32_bits(deq), "source_bits": f32_bits(x.reshape(-1))})


def bf16_bits(a):
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def special_rows(width):
    """Rows exercising the quantizers' corners: zeros, a constant, all positive, one outlier."""
    z = np.zeros(width, np.float32)
    c = np.full(width, 0.375, np.float32)
    pos = rng.uniform(0.5, 2.0, width).astype(np.float32)
    out = (rng.standard_normal(width) * 0.01).astype(np.float32); out[5] = 3.0
    return [z, c, pos, out]


def main():
    expected = {}
    md = [
        ("general.architecture", "string", "llama"),
        ("general.name", "string", "tiny ünïcode ✓"),
        ("general.empty", "string", ""),
        ("t.u8", "uint8", 255), ("t.i8", "int8", -128), ("t.u16", "uint16", 65535), ("t.i16", "int16", -32768),
        ("t.u32", "uint32", 4294967295), ("t.i32", "int32", -2147483648), ("t.f32", "float32", 0.1),
        ("t.bool_true", "bool", True), ("t.bool_false", "bool", False),
        ("t.u64_big", "uint64", 2 ** 64 - 1), ("t.u64_small", "uint64", 4096), ("t.i64", "int64", -(2 ** 62)),
        ("t.f64", "float64", -1.0 / 3.0),
        ("t.arr_f32", ("array", "float32"), [1.5, -2.25, 0.1]),
        ("t.arr_i32", ("array", "int32"), [1, -2, 3]),
        ("t.arr_u64", ("array", "uint64"), [0, 2 ** 63]),
        ("t.arr_str", ("array", "string"), ["<s>", "</s>", "▁the", ""]),
        ("t.arr_bool", ("array", "bool"), [True, False, True]),
        ("t.arr_empty", ("array", "uint32"), []),
        ("t.nested", ("array", ("array", "int16")), [[1, 2], [], [-3]]),
    ]
    x_q8 = np.concatenate([(rng.standard_normal(64 * 2)).astype(np.float32)] + special_rows(64)).reshape(6, 64)
    x_q4 = np.concatenate([(rng.standard_normal(96 * 2) * 4).astype(np.float32)] + special_rows(96)).reshape(6, 96)
    x_qk = np.concatenate([(rng.standard_normal(512 * 2)).astype(np.float32)] + special_rows(512)).reshape(6, 512)
    f16v = np.array([[1, -2.5, 65504], [6e-8, -0.0, 0.333]], dtype=np.float16)
    bf = bf16_bits(np.array([1.0, -3.140625, 1e30, -1e-30], np.float32))
    tensors = [
        ("f32", "F32", [5, 3], (np.arange(15, dtype=np.float32) * 0.5 - 3).tobytes(),
         {"bits": f32_bits(np.arange(15, dtype=np.float32) * 0.5 - 3)}),
        ("scalar", "F32", [], np.float32(7.25).tobytes(), {"bits": f32_bits([7.25])}),
        ("empty", "F32", [4, 0], b"", {"bits": []}),
        ("f16", "F16", [3, 2], f16v.tobytes(), {"f16_bits": f16v.reshape(-1).view(np.uint16).tolist()}),
        ("bf16", "BF16", [4], bf.tobytes(), {"bf16_bits": bf.tolist()}),
        ("f64", "F64", [2, 2], np.array([1 / 3, -2.5, 1e300, 5e-324]).tobytes(), {"values": [1 / 3, -2.5, 1e300, 5e-324]}),
        ("i8", "I8", [6], np.array([-128, -1, 0, 1, 127, 5], np.int8).tobytes(), {"values": [-128, -1, 0, 1, 127, 5]}),
        ("i16", "I16", [2, 2], np.array([-32768, 32767, 0, -7], np.int16).tobytes(), {"values": [-32768, 32767, 0, -7]}),
        ("i32", "I32", [3], np.array([-2 ** 31, 2 ** 31 - 1, 42], np.int32).tobytes(), {"values": [-2 ** 31, 2 ** 31 - 1, 42]}),
        ("i64", "I64", [3], np.array([-2 ** 31, 2 ** 31 - 1, -1], np.int64).tobytes(), {"values": [-2 ** 31, 2 ** 31 - 1, -1]}),
        quantized("blk.0.q8", "Q8_0", x_q8, [64, 6]),
        quantized("blk.0.q4", "Q4_0", x_q4, [96, 6]),
        quantized("blk.0.q4k", "Q4_K", x_qk, [512, 6]),
    ]
    expected["tensors.gguf"] = write("tensors.gguf", 3, md, tensors)

    x_a = (rng.standard_normal(3 * 256) * 0.02).astype(np.float32)
    x_b = (rng.standard_normal(32) * 100).astype(np.float32)
    t64 = [
        quantized("token_embd.weight", "Q4_K", x_a, [256, 3]),
        quantized("output.weight", "Q8_0", x_b, [32, 1]),
        ("norm.weight", "F32", [7], np.linspace(-1, 1, 7, dtype=np.float32).tobytes(), {"bits": f32_bits(np.linspace(-1, 1, 7, dtype=np.float32))}),
    ]
    expected["aligned64.gguf"] = write("aligned64.gguf", 2, [("general.alignment", "uint32", 64), ("general.architecture", "string", "test")], t64, alignment=64, order=[2, 1, 0])

    expected["i64_overflow.gguf"] = write("i64_overflow.gguf", 3, [], [("big", "I64", [2], np.array([1, 2 ** 40], np.int64).tobytes(), {})])
    expected["unsupported.gguf"] = write("unsupported.gguf", 3, [], [("ok", "F32", [2], np.array([1, 2], np.float32).tobytes(), {"bits": f32_bits([1, 2])}),
                                                                    ("q5", "Q5_0", [32], bytes(rng.integers(0, 256, 22, dtype=np.uint8)), {})])
    with open(os.path.join(HERE, "gguf_expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
