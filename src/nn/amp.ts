// nn.amp: automatic mixed precision as a function transform (JAX's jmp policy
// "params float32, compute bfloat16/float16, output float32", in the place
// where PyTorch users write `with torch.autocast(...)`).
//
// autocast(fn, dtype) casts the floating tensors among fn's arguments (the
// model's parameters, the inputs) to dtype on the way in and the half-precision
// tensors among its results back to float32 on the way out. Differentiate a
// loss built on it with respect to the float32 model: the casts sit inside the
// differentiated function, so the backward pass runs in dtype too and the
// gradients arrive float32 (a cast's derivative casts the cotangent back) —
// the float32 "master weights" of mixed-precision training are just the model.
//
// How it differs from torch.autocast: torch decides per op (matmul and conv in
// half; softmax, log, norms, reductions and losses in float32), which rlx's
// lazy ops have no dispatcher hook for. Here everything inside fn runs in
// dtype — LayerNorm's statistics and any softmax in the model included — and
// only what comes after (the loss, normally: cross-entropy on the float32
// logits) runs in float32. In rlx float16/bfloat16 are storage types: each op
// computes in float32 and rounds its stored result to 16 bits (docs/dtypes.md),
// which is what half-precision hardware with float32 accumulation does; a
// fused chain of elementwise ops rounds only where it stores. float64 tensors
// are cast too, unlike torch.autocast (which leaves double alone): in rlx plain
// numbers and random.normal default to float64, so an input made that way would
// otherwise promote every op back to float64 and AMP would silently do nothing.

import { Tensor } from '../tensor/tensor.js';
import { flatten, unflatten, type PyTreeOrNode } from '../compiler/transforms/pytree.js';
import { ValueError } from '../tensor/errors.js';
import { isFloat } from '../tensor/dtype.js';

/** The compute dtypes of mixed precision. */
export type AmpDtype = 'bfloat16' | 'float16';

const AMP_DTYPES: readonly string[] = ['bfloat16', 'float16'];

/** Throws a ValueError unless `dtype` is 'bfloat16' or 'float16'; `op` names the caller. */
function checkAmpDtype(op: string, dtype: unknown): AmpDtype {
  if (typeof dtype !== 'string' || !AMP_DTYPES.includes(dtype)) throw new ValueError(`${op}: the mixed-precision dtype must be 'bfloat16' or 'float16', got ${typeof dtype === 'string' ? `'${dtype}'` : String(dtype)}`);
  return dtype as AmpDtype;
}

/** `x` with each tensor leaf for which `pick` holds cast to `to`; numbers, strings, functions and other non-tensors pass unchanged. */
function castLeaves(x: unknown, pick: (t: Tensor) => boolean, to: 'bfloat16' | 'float16' | 'float32'): unknown {
  if (x instanceof Tensor) return pick(x) ? x.cast(to) : x;
  if (Array.isArray(x)) return x.map((v) => castLeaves(v, pick, to));
  if (x === null || typeof x !== 'object') return x;
  const proto = Object.getPrototypeOf(x) as object | null;
  if (proto === Object.prototype || proto === null) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, castLeaves(v, pick, to)]));
  // A registered pytree node (an nn.Module): its leaves are tensors, its configuration static.
  let flat: ReturnType<typeof flatten>;
  try {
    flat = flatten(x as PyTreeOrNode);
  } catch {
    return x; // not a pytree: passed as it is
  }
  return unflatten(flat.def, flat.leaves.map((t) => (pick(t) ? t.cast(to) : t)));
}

/**
 * `fn` run in mixed precision: its arguments' floating tensors (a model's parameters, the inputs) cast
 * to `dtype` ('bfloat16' or 'float16'), its results' float16/bfloat16 tensors cast back to float32.
 * Integer, bool and complex tensors and non-tensor arguments pass unchanged; float64 is cast too (unlike
 * torch.autocast: rlx's plain numbers and random.normal default to float64). Differentiating through it with respect to a float32 model gives float32
 * gradients (the model is the float32 master copy; the forward and backward run in `dtype`), so a
 * training step is `valueAndGrad((m) => crossEntropy(autocast(fwd, dtype)(m, x), y))(model)` with the
 * loss computed in float32 on the float32 logits, as torch.autocast runs cross-entropy. Unlike
 * torch.autocast, every op inside `fn` runs in `dtype` (norms and softmax too), not a per-op choice.
 * With 'float16', scale the loss (optim.withLossScaling) so small gradients do not flush to zero;
 * `nn.train(model, data, {amp})` does all of this.
 * @example
 * ```ts
 * const model = nn.Linear(3, 2, { key: random.key(0) });
 * const x = random.normal(random.key(1), [4, 3]);
 * const fwd = nn.amp.autocast((m: nn.Linear, xb: Tensor) => m.forward(xb), 'bfloat16');
 * fwd(model, x).dtype;                                    // 'float32'
 * const g = grad((m: nn.Linear) => fwd(m, x).square().mean())(model);
 * g.weight.dtype;                                         // 'float32'
 * const err = fwd(model, x).sub(model.forward(x)).abs().max().item() as number;
 * err > 0 && err < 0.02;                                  // true  (bfloat16 keeps 8 significant bits)
 * ```
 */
export function autocast<A extends unknown[], R>(fn: (...args: A) => R, dtype: AmpDtype): (...args: A) => R {
  if (typeof fn !== 'function') throw new ValueError(`nn.amp.autocast: expects a function (args) => output, got ${fn === null ? 'null' : typeof fn}`);
  const to = checkAmpDtype('nn.amp.autocast', dtype);
  const down = (t: Tensor) => t.dtype !== to && isFloat(t.dtype);
  const up = (t: Tensor) => t.dtype === 'float16' || t.dtype === 'bfloat16';
  return (...args: A): R => {
    const out = fn(...(args.map((a) => castLeaves(a, down, to)) as A));
    return castLeaves(out, up, 'float32') as R;
  };
}
