// Symbolic graphs: graph(name, g => ...) traces a builder over named inputs and
// params whose dims may be dynamic symbols; compile() turns the resulting Func
// into an executable that runs at any binding of those dims without recompiling.

import { Node, pushScope, popScope } from './ir.js';
import { type DTypeLike, toDType } from '../tensor/dtype.js';
import { DTypeError, ValueError, TransformError } from '../tensor/errors.js';
import { bind, constNode } from './primitives.js';
import { reverseMode, requireDifferentiable } from './transforms/autodiff.js';
import { batchGraph } from './transforms/vmap.js';
import { type Dim, fmtShape } from '../tensor/shape.js';
import { Tensor } from '../tensor/tensor.js';
import { tensor, type TensorData } from '../tensor/create.js';
import { executableFor, realize } from './realize.js';
import { defaultDevice } from '../backends/registry.js';
import { fromStorage } from '../tensor/create.js';
import type { BoundExecutable } from './executable.js';

/** Outputs of a builder: one tensor, a list, or a record of tensors. */
export type Outputs = Tensor | Tensor[] | Record<string, Tensor>;

/**
 * The `g` a graph() builder receives: declares the graph's named inputs and params (dims may be symbols such as 'batch').
 * @example
 * ```ts
 * const f = graph('score', (g) => {
 *   const x = g.input('x', ['batch', 2]);   // 'batch': bound when run
 *   const w = g.param('w', [2]);
 *   return x.mul(w).sum(1);
 * });
 * [f.inputNames, f.paramNames];   // [['x', 'w'], ['w']]
 * ```
 */
export class GraphBuilder {
  /** @internal */
  readonly declared: Node[] = [];
  /** @internal */
  readonly kinds: ('input' | 'param')[] = [];

  private declare(kind: 'input' | 'param', name: string, shape: readonly Dim[], dtype: DTypeLike): Tensor {
    if (this.declared.some((n) => n.attrs['name'] === name)) throw new ValueError(`graph: '${name}' is declared twice`);
    for (const d of shape) {
      if (typeof d === 'number' ? !Number.isInteger(d) || d < 0 : d.length === 0) throw new ValueError(`graph: ${kind} '${name}' has an invalid dim ${JSON.stringify(d)} in ${fmtShape(shape)}`);
    }
    const n = new Node('input', [], { name, kind }, shape.map((d) => (d === '?' ? `?${name}` : d)), toDType(dtype));
    this.declared.push(n);
    this.kinds.push(kind);
    return new Tensor(n);
  }
  /** A named input; dims may be symbols ('batch', or '?' for one private to this input). */
  input(name: string, shape: readonly Dim[], dtype: DTypeLike = 'float64'): Tensor {
    return this.declare('input', name, shape, dtype);
  }
  /** A named parameter (an input that transforms will differentiate by default). */
  param(name: string, shape: readonly Dim[], dtype: DTypeLike = 'float64'): Tensor {
    return this.declare('param', name, shape, dtype);
  }
}

/**
 * A traced function of named inputs.
 * @example
 * ```ts
 * const f = graph('loss', (g) => g.input('x', [2]).mul(g.param('w', [2])).sum());
 * const df = f.grad().compile().run({ x: [3, 4], w: [1, 1] }) as Record<string, Tensor>;
 * df['w'].tolist();   // [3, 4]  (d/dw of x·w is x)
 * ```
 */
export class Func {
  constructor(
    readonly name: string,
    /** @internal */ readonly declared: Node[],
    /** @internal */ readonly kinds: ('input' | 'param')[],
    /** @internal */ readonly outputs: Node[],
    /** @internal */ readonly outputKeys: string[] | 'single' | 'list',
    /** @internal every node the builder created (dead ones included, for DCE) */ readonly created: Node[],
  ) {}

  get inputNames(): string[] {
    return this.declared.map((n) => n.attrs['name'] as string);
  }
  get paramNames(): string[] {
    return this.declared.filter((_, i) => this.kinds[i] === 'param').map((n) => n.attrs['name'] as string);
  }

  /** Compiles for a device (cached: compiling the same Func twice is a cache hit). */
  compile(opts: { device?: string } = {}): CompiledFunc {
    return new CompiledFunc(this, opts.device ?? defaultDevice());
  }
  /** Same as compile(): the Func is already a whole traced graph. */
  jit(opts: { device?: string } = {}): CompiledFunc {
    return this.compile(opts);
  }

  /**
   * A Func of the same inputs returning {name: d out / d name} for the named inputs
   * (default: the params, or every input if there are none). The Func must return one real scalar.
   */
  grad(names?: string[]): Func {
    const wrt = names ?? (this.paramNames.length ? this.paramNames : this.inputNames);
    const nodes = wrt.map((nm) => {
      const n = this.declared.find((d) => d.attrs['name'] === nm);
      if (!n) throw new TransformError(`${this.name}.grad: no input named '${nm}' (inputs: ${this.inputNames.join(', ')})`);
      return n;
    });
    if (this.outputs.length !== 1 || this.outputs[0]!.shape.length !== 0) throw new TransformError(`${this.name}.grad: the Func must return one scalar`);
    const y = this.outputs[0]!;
    requireDifferentiable(`${this.name}.grad: output`, [y]);
    requireDifferentiable(`${this.name}.grad: input`, nodes);
    const cts = reverseMode([y], [new Tensor(constNode(1, y.dtype, []))], nodes);
    const outs = nodes.map((n, i) => (cts[i] ?? new Tensor(constNode(0, n.dtype, n.shape))).node);
    return new Func(`grad(${this.name})`, this.declared, this.kinds, outs, wrt, []);
  }

  /** A Func whose named inputs gain a leading batch axis of `size` (a number or a dim name); outputs are batched on axis 0. */
  vmap(names: string[], size: number | string): Func {
    const env = new Map<Node, { t: Tensor; dim: number | null }>();
    const declared = this.declared.map((n) => {
      if (!names.includes(n.attrs['name'] as string)) return n;
      const b = new Node('input', [], n.attrs, [size, ...n.shape], n.dtype);
      env.set(n, { t: new Tensor(b), dim: 0 });
      return b;
    });
    for (const nm of names) if (!this.inputNames.includes(nm)) throw new TransformError(`${this.name}.vmap: no input named '${nm}'`);
    const res = batchGraph(this.outputs, env);
    const outs = res.map((r) => {
      if (r.dim === null) {
        const s = r.t.node.shape;
        return bind('expand', [bind('reshape', [r.t.node], { shape: [1, ...s] })], { shape: [size, ...s] });
      }
      return r.dim === 0 ? r.t.node : bind('permute', [r.t.node], { perm: [r.dim, ...[...Array(r.t.node.shape.length).keys()].filter((k) => k !== r.dim)] });
    });
    return new Func(`vmap(${this.name})`, declared, this.kinds, outs, this.outputKeys, []);
  }
}

/**
 * graph(name, g => ...): traces the builder into a Func.
 * @example
 * ```ts
 * const f = graph('double', (g) => g.input('x', [3]).mul(2));
 * f.inputNames;   // ['x']
 * (f.compile().run({ x: [1, 2, 3] }) as Tensor).tolist();   // [2, 4, 6]
 * ```
 */
export function graph(name: string, build: (g: GraphBuilder) => Outputs): Func {
  const g = new GraphBuilder();
  const created = pushScope();
  let out: Outputs;
  try {
    out = build(g);
  } finally {
    popScope();
  }
  let nodes: Node[];
  let keys: string[] | 'single' | 'list';
  if (out instanceof Tensor) (nodes = [out.node]), (keys = 'single');
  else if (Array.isArray(out)) (nodes = out.map((t) => t.node)), (keys = 'list');
  else (keys = Object.keys(out)), (nodes = keys.map((k) => (out as Record<string, Tensor>)[k]!.node));
  if (nodes.length === 0) throw new ValueError(`graph '${name}': the builder returned no outputs`);
  return new Func(name, g.declared, g.kinds, nodes, keys, created);
}

/**
 * The executable form of a Func (compile() / Func.compile()): run(inputs) binds the symbolic dims and runs without recompiling.
 * @example
 * ```ts
 * const run = graph('double', (g) => g.input('x', ['n']).mul(2)).compile();
 * (run.run({ x: [1, 2] }) as Tensor).tolist();      // [2, 4]
 * (run.run({ x: [1, 2, 3] }) as Tensor).tolist();   // [2, 4, 6]  (same executable, n = 3)
 * ```
 */
export class CompiledFunc {
  private readonly exe: BoundExecutable;
  private readonly leaves: Node[];
  constructor(
    readonly func: Func,
    readonly device: string,
  ) {
    const r = executableFor(func.outputs, device, func.declared, func.created);
    this.exe = r.exe;
    this.leaves = r.leaves;
  }

  /** The compile report (passes, kernels, plan) of this executable. */
  get report() {
    return this.exe.report;
  }

  /** Runs with named inputs (tensors, TypedArrays or nested arrays). */
  run(inputs: Record<string, Tensor | TensorData>): Outputs {
    const f = this.func;
    const vals = f.declared.map((n) => {
      const name = n.attrs['name'] as string;
      if (!(name in inputs)) throw new ValueError(`${f.name}.run: missing input '${name}' (expected ${f.inputNames.join(', ')})`);
      const v = inputs[name]!;
      const t = v instanceof Tensor ? v : tensor(v as TensorData, { dtype: n.dtype });
      if (t.dtype !== n.dtype) throw new DTypeError(`${f.name}.run: input '${name}' must be ${n.dtype}, got ${t.dtype}`);
      realize([t.node]);
      return t;
    });
    for (const k of Object.keys(inputs)) if (!f.inputNames.includes(k)) throw new ValueError(`${f.name}.run: unknown input '${k}' (expected ${f.inputNames.join(', ')})`);
    const extra = this.leaves.slice(f.declared.length);
    realize(extra);
    const outs = this.exe.run([...vals.map((t) => ({ data: t.node.data!, shape: t.shape })), ...extra.map((l) => ({ data: l.data!, shape: l.shape as number[] }))]);
    const env = this.exe.bindDims([...vals.map((t) => ({ data: t.node.data!, shape: t.shape })), ...extra.map((l) => ({ data: l.data!, shape: l.shape as number[] }))]);
    const tensors = outs.map((d, i) => fromStorage(d, f.outputs[i]!.shape.map((x) => (typeof x === 'number' ? x : env.get(x)!)), f.outputs[i]!.dtype, this.device));
    if (f.outputKeys === 'single') return tensors[0]!;
    if (f.outputKeys === 'list') return tensors;
    return Object.fromEntries(f.outputKeys.map((k, i) => [k, tensors[i]!]));
  }
}

/**
 * compile(graphOrFunc, {device}): the executable form of a Func.
 * @example
 * ```ts
 * const f = graph('affine', (g) => g.input('x', ['batch', 3]).matmul(g.param('w', [3, 2])));
 * const run = compile(f);                // one executable for every batch size
 * run.run({ x: [[1, 2, 3]], w: [[1, 0], [0, 1], [1, 1]] });   // [[4, 5]]
 * ```
 */
export function compile(f: Func, opts: { device?: string } = {}): CompiledFunc {
  return f.compile(opts);
}
