// The compiler's working graph and the capture of a user DAG into it.
//
// capture() walks the user's nodes once, producing the compile-cache key and the
// leaves in slot order; on a cache hit nothing else is built. buildGraph()
// clones the DAG into private nodes that passes may rewrite freely.

import { Node, attrsKey, topoSort } from './ir.js';
import { DTYPES, DTYPE_INFO, type DType } from '../tensor/dtype.js';
import { isSpecialLiteral } from './passes/const-value.js';
import { kindOf, type ElementwiseOp } from './primitives.js';
import { scalarEvaluator, type ScalarValue } from '../backends/js/evaluate.js';
import { shapesEqual } from '../tensor/shape.js';

/** A graph under compilation: inputs are 'input' nodes whose attrs.slot is their position. */
export interface Graph {
  inputs: Node[];
  outputs: Node[];
  /** Every node (topological order), possibly including dead ones until DCE runs. */
  nodes: Node[];
}

export interface Captured {
  key: string;
  /** A 32-bit hash of the same structure the key spells (equal keys, equal hashes): the cache looks up by it, then compares keys. */
  hash: number;
  /** User leaves ('buffer' or symbolic 'input') in slot order. */
  leaves: Node[];
  /** Every node above the roots, inputs first. */
  order: Node[];
  /**
   * Values of the literals that are parameters (not keyed by value, see
   * passes/const-value.ts), flattened in key order ([re, im] for complex):
   * the compiled graph reads them at run time.
   */
  consts: number[];
  /** The parameter literals, in the order of `consts`: 'const' nodes, or ops folded here. */
  params: Node[];
  /** Ops over literals folded here whose value is special (keyed by value): [node, value]. */
  literals: [Node, ScalarValue][];
  /** Ops folded here (params and literals among them). */
  folded: number;
}

const shapeKey = (s: readonly (number | string)[]): string => (s.length === 1 ? String(s[0]) : s.join(','));

// The key's hash, computed from the same parts as the key (V8 hashes a fresh
// key string char by char on a Map lookup: ~0.4 µs for a 200-char key, more
// than the rest of a capture). FNV-1a style over 32-bit words.
const mix = (h: number, x: number): number => Math.imul(h ^ x, 16777619);
function strHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}
// Names (op, dtype, device, symbolic dim) hash by their characters: short,
// and cheaper to walk than a Map memo is to look up.
const nameHash = strHash;
// One character per dtype in the key (the key only has to be injective).
const DTYPE_CODE: Readonly<Record<string, string>> = Object.fromEntries(DTYPES.map((d, i) => [d, String.fromCharCode(97 + i)]));
function shapeHash(h: number, s: readonly (number | string)[]): number {
  h = mix(h, s.length);
  for (let i = 0; i < s.length; i++) {
    const d = s[i]!;
    h = mix(h, typeof d === 'number' ? d | 0 : nameHash(d));
  }
  return h;
}

/** Storage types (float16/bfloat16 computed in float32, int8/uint8 in int32). */
const isStorageType = (d: DType): boolean => DTYPE_INFO[d].compute !== d;

/**
 * The value of an elementwise op over literals (values `vals`), or undefined
 * when it is not folded here: arithmetic on storage types (float16/bfloat16,
 * int8/uint8) is legalized to its compute dtype first, so the constant-fold
 * pass folds it after legalization, as it always did. Otherwise this is the
 * value that pass would compute (the same js scalar kernel), bit for bit.
 */
function foldHere(n: Node, vals: readonly ScalarValue[]): ScalarValue | undefined {
  if (isStorageType(n.dtype)) return undefined;
  for (const x of n.inputs) if (isStorageType(x.dtype)) return undefined;
  return scalarEvaluator(
    n.op as ElementwiseOp,
    n.attrs,
    n.inputs.map((x) => x.dtype),
    n.dtype,
  )(vals);
}

/**
 * Walks roots; returns the structural key (leaves numbered by first use), its
 * hash, the leaves and the parameter values.
 *
 * Literals: a 'const' whose value no pass rewrites on (passes/const-value.ts)
 * is a parameter, keyed by dtype and shape only, its value collected in
 * `consts` (compiler/const-params.ts). An elementwise op whose inputs are all
 * literals is folded here, so that the key says whether its value is one a
 * pass rewrites on (x * (2 * 0.5) is x * 1, simplified away): it is then
 * keyed as a literal of that value or as a parameter.
 */
export function capture(roots: readonly Node[], device: string, fixedLeaves: readonly Node[] = []): Captured {
  const order = topoSort(roots);
  // Node.scratch holds each node's position in `order` (inputs come first, so
  // it is set before any user reads it). Each leaf appears once in `order`, so
  // without fixed leaves it simply takes the next slot.
  const leaves: Node[] = [...fixedLeaves];
  let key = device;
  let h = nameHash(device);
  const consts: number[] = [];
  const params: Node[] = [];
  const literals: [Node, ScalarValue][] = [];
  let folded = 0;
  // Literal value of each node of `order` that is one (by position), once a const is seen.
  let lit: (ScalarValue | undefined)[] | undefined;
  const keyLiteral = (n: Node, v: ScalarValue) => {
    if (isSpecialLiteral(v)) {
      const a = attrsKey({ value: v });
      key += `|C${DTYPE_CODE[n.dtype]}${shapeKey(n.shape)}:${a}`;
      h = shapeHash(mix(mix(mix(h, 2), nameHash(n.dtype)), strHash(a)), n.shape);
      return true;
    }
    // A parameter: its value is an argument of the executable, not part of the key.
    key += `|K${DTYPE_CODE[n.dtype]}${shapeKey(n.shape)}`;
    h = shapeHash(mix(mix(h, 6), nameHash(n.dtype)), n.shape);
    if (typeof v === 'number') consts.push(v);
    else consts.push(v[0]!, v[1]!);
    params.push(n);
    return false;
  };
  // Declared inputs are part of the signature even when no output uses them.
  for (let i = 0; i < fixedLeaves.length; i++) {
    const l = fixedLeaves[i]!;
    key += `|F${i}:${l.dtype}:${shapeKey(l.shape)}`;
    h = shapeHash(mix(mix(mix(h, 5), i), nameHash(l.dtype)), l.shape);
  }
  let slotOf: Map<Node, number> | undefined;
  if (fixedLeaves.length) {
    slotOf = new Map();
    fixedLeaves.forEach((l, i) => slotOf!.set(l, i));
  }
  for (let i = 0; i < order.length; i++) {
    const n = order[i]!;
    if (n.op === 'buffer' || n.op === 'input') {
      let s = slotOf ? slotOf.get(n) : undefined;
      if (s === undefined) {
        s = leaves.length;
        slotOf?.set(n, s);
        leaves.push(n);
      }
      key += `|L${s}:${DTYPE_CODE[n.dtype]}${shapeKey(n.shape)}`;
      h = shapeHash(mix(mix(mix(h, 1), s), nameHash(n.dtype)), n.shape);
    } else if (n.op === 'const') {
      const v = n.attrs['value'] as ScalarValue;
      (lit ??= [])[i] = v;
      keyLiteral(n, v);
    } else if (lit !== undefined && (n.op === 'reshape' || n.op === 'expand') && lit[n.inputs[0]!.scratch] !== undefined) {
      lit[i] = lit[n.inputs[0]!.scratch];
      keyOp(n);
    } else if (lit !== undefined && n.inputs.length > 0 && kindOf(n.op) === 'elementwise' && n.inputs.every((x) => lit![x.scratch] !== undefined)) {
      const v = foldHere(
        n,
        n.inputs.map((x) => lit![x.scratch]!),
      );
      if (v === undefined) keyOp(n);
      else {
        lit[i] = v;
        folded++;
        if (keyLiteral(n, v)) literals.push([n, v]);
      }
    } else {
      keyOp(n);
    }
    n.scratch = i;
  }
  function keyOp(n: Node): void {
    const a = attrsKey(n.attrs);
    const ins = n.inputs;
    // '=': the shape of the first input (spelled out earlier in the key).
    key += `|${n.op}:${DTYPE_CODE[n.dtype]}${ins.length && shapesEqual(n.shape, ins[0]!.shape) ? '=' : shapeKey(n.shape)}:${a}:`;
    h = shapeHash(mix(mix(mix(h, 3), nameHash(n.op)), nameHash(n.dtype)), n.shape);
    if (a !== '') h = mix(h, strHash(a));
    h = mix(h, ins.length);
    for (let k = 0; k < ins.length; k++) {
      key += `${ins[k]!.scratch},`;
      h = mix(h, ins[k]!.scratch);
    }
  }
  key += '|->';
  h = mix(h, 4);
  for (let i = 0; i < roots.length; i++) {
    key += i ? `,${roots[i]!.scratch}` : `${roots[i]!.scratch}`;
    h = mix(h, roots[i]!.scratch);
  }
  return { key, hash: h & 0x3fffffff, leaves, order, consts, params, literals, folded }; // hash: a small integer (Smi), a cheap Map key
}

/**
 * Clones the user DAG into a private Graph whose leaves are 'input' slot nodes;
 * the parameter literals `params` (capture's) become consts with attrs.param,
 * their offset in the executable's constant vector.
 */
export function buildGraph(roots: readonly Node[], leaves: readonly Node[], extraNodes: readonly Node[] = [], cap?: Pick<Captured, 'params' | 'literals' | 'consts'>): Graph {
  const map = new Map<Node, Node>();
  // Parameters (and ops folded by capture) become literals; their inputs, if any, are left dead.
  let offset = 0;
  for (const p of cap?.params ?? []) {
    const k = cap!.consts;
    const lanes = DTYPE_INFO[p.dtype].lanes;
    const c = new Node('const', [], { value: lanes === 2 ? [k[offset]!, k[offset + 1]!] : k[offset]!, param: offset }, p.shape, p.dtype);
    c.device = p.device;
    map.set(p, c);
    offset += lanes;
  }
  for (const [n, v] of cap?.literals ?? []) {
    const c = new Node('const', [], { value: v }, n.shape, n.dtype);
    c.device = n.device;
    map.set(n, c);
  }
  const inputs = leaves.map((l, slot) => {
    const n = new Node('input', [], { slot, ...(typeof l.attrs['name'] === 'string' ? { name: l.attrs['name'] } : {}) }, l.shape, l.dtype);
    map.set(l, n);
    return n;
  });
  const nodes: Node[] = [...inputs];
  const all = topoSort([...roots, ...extraNodes]);
  for (const n of all) {
    if (map.has(n)) {
      if (n.op !== 'buffer' && n.op !== 'input') nodes.push(map.get(n)!); // a literal, mapped above
      continue;
    }
    // A dead node of a traced builder may use a leaf the outputs never reach: skip it.
    if (n.op === 'buffer' || n.op === 'input' || n.inputs.some((x) => !map.has(x))) continue;
    const c = new Node(n.op, n.inputs.map((x) => map.get(x)!), n.attrs, n.shape, n.dtype);
    c.device = n.device;
    map.set(n, c);
    nodes.push(c);
  }
  return { inputs, outputs: roots.map((r) => map.get(r)!), nodes };
}

/**
 * Rebuilds g bottom-up: `fn` may return a replacement for a node (given its
 * already-rewritten inputs); otherwise the node is kept, cloned if its inputs changed.
 */
export function rewriteGraph(g: Graph, fn: (n: Node, inputs: Node[]) => Node | undefined): Graph {
  const map = new Map<Node, Node>();
  const nodes: Node[] = [];
  const known = new Set<Node>();
  for (const n of g.nodes) {
    if (n.op === 'input') {
      map.set(n, n);
      nodes.push(n);
      known.add(n);
      continue;
    }
    const ins = n.inputs.map((x) => map.get(x) ?? x);
    let r = fn(n, ins);
    if (r === undefined) {
      r = ins.every((x, i) => x === n.inputs[i]) ? n : new Node(n.op, ins, n.attrs, n.shape, n.dtype);
      if (r !== n) r.device = n.device;
    }
    map.set(n, r);
    // New nodes created by fn (and their new inputs) join the list in order.
    appendNew(nodes, known, r);
  }
  return { inputs: g.inputs, outputs: g.outputs.map((o) => map.get(o) ?? o), nodes };
}

/** Appends r and any of its ancestors not yet in `list` (inputs first). */
function appendNew(list: Node[], known: Set<Node>, r: Node): void {
  if (known.has(r)) return;
  const stack: [Node, number][] = [[r, 0]];
  const onStack = new Set<Node>([r]);
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [n, i] = top;
    if (i < n.inputs.length) {
      top[1]++;
      const c = n.inputs[i]!;
      if (!known.has(c) && !onStack.has(c)) {
        onStack.add(c);
        stack.push([c, 0]);
      }
    } else {
      stack.pop();
      list.push(n);
      known.add(n);
    }
  }
}

/** Number of consumers of each node among `nodes` (distinct users). */
export function consumersOf(nodes: readonly Node[]): Map<Node, Node[]> {
  const m = new Map<Node, Node[]>();
  for (const n of nodes) {
    for (const x of new Set(n.inputs)) {
      let l = m.get(x);
      if (!l) m.set(x, (l = []));
      l.push(n);
    }
  }
  return m;
}
