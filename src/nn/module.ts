// nn.Module: the base of every layer, and a pytree node.
//
// A module's state is its own enumerable properties, read in the order they
// were assigned (PyTorch's registration order):
//   - a Tensor is a parameter (a pytree leaf: grad differentiates it, an
//     optimizer updates it);
//   - a Module is a submodule (its parameters are nested under its name);
//   - null is an absent optional parameter (Linear without bias: PyTorch's None);
//   - anything else (numbers, strings, booleans, arrays of those) is static
//     configuration: part of the pytree's structure, so jit retraces when it
//     changes (train() / eval() flip `training`).
// Property names are PyTorch's (`weight`, `in_proj_weight`, `self_attn`,
// `linear1`, `0`, `1` in a Sequential), so the dotted paths are exactly the keys
// of PyTorch's state_dict() and loadStateDict takes what PyTorch saves.
//
// Modules are values: flatten gives their parameter tensors, unflatten builds
// a module of the same class around new tensors (a gradient, an optimizer's
// update, a jit output) without running the constructor. loadStateDict,
// train() and eval() mutate in place and return the module, like PyTorch's.

import { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError, DTypeError } from '../tensor/errors.js';
import { registerPytreeNode, type PytreeNode, type PyTree, PYTREE_NODE } from '../compiler/transforms/pytree.js';

/** How one own property of a module is treated (see the header). */
type Slot = 'param' | 'module' | 'static';

const slotOf = (v: unknown): Slot => (v instanceof Tensor ? 'param' : v instanceof Module ? 'module' : 'static');

/** Options of loadStateDict. */
export interface LoadStateDictOptions {
  /** Every key must match a parameter and every parameter must be given (PyTorch's strict); default true. */
  strict?: boolean;
}

/** What loadStateDict did not match (non-strict loads report; strict loads throw instead). */
export interface LoadStateDictResult {
  missingKeys: string[];
  unexpectedKeys: string[];
}

/**
 * The base class of every layer: parameters are Tensor properties, submodules
 * Module properties, the rest is static configuration (module.ts's header).
 * @example
 * ```ts
 * const m = nn.Linear(2, 1);
 * Object.keys(m.stateDict());   // ['weight', 'bias']
 * ```
 */
export abstract class Module implements PytreeNode {
  declare readonly [PYTREE_NODE]: true;
  /** PyTorch's training flag: Dropout drops only in training mode (train() / eval() set it for the whole tree). */
  training = true;

  /** The layer's computation. */
  abstract forward(...args: any[]): any;

  /**
   * Every parameter with its dotted PyTorch name, in registration order.
   * @example
   * ```ts
   * nn.Sequential(nn.Linear(3, 2), nn.ReLU()).namedParameters().map(([k]) => k);   // ['0.weight', '0.bias']
   * ```
   */
  namedParameters(): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    const walk = (m: Module, prefix: string) => {
      for (const key of Object.keys(m)) {
        const v = (m as unknown as Record<string, unknown>)[key];
        if (v instanceof Tensor) out.push([prefix + key, v]);
        else if (v instanceof Module) walk(v, `${prefix}${key}.`);
      }
    };
    walk(this, '');
    return out;
  }

  /**
   * The parameters in registration order.
   * @example
   * ```ts
   * nn.Linear(4, 3).parameters().map((p) => p.shape);   // [[3, 4], [3]]
   * ```
   */
  parameters(): Tensor[] {
    return this.namedParameters().map(([, p]) => p);
  }

  /**
   * PyTorch's state_dict(): dotted parameter names to tensors.
   * @example
   * ```ts
   * Object.keys(nn.Linear(2, 2, { bias: false }).stateDict());   // ['weight']
   * ```
   */
  stateDict(): Record<string, Tensor> {
    return Object.fromEntries(this.namedParameters());
  }

  /**
   * Loads parameters by PyTorch name, in place (values cast to each
   * parameter's dtype; shapes must match). Strict (the default) throws a
   * ValueError naming every missing and unexpected key; a shape mismatch is a
   * ShapeError naming the key either way.
   * @example
   * ```ts
   * const m = nn.Linear(2, 1);
   * m.loadStateDict({ weight: tensor([[1, 2]]), bias: tensor([0.5]) });
   * m.forward(tensor([[1, 1]])).tolist();   // [[3.5]]
   * ```
   */
  loadStateDict(dict: Readonly<Record<string, Tensor>>, opts: LoadStateDictOptions = {}): LoadStateDictResult {
    const strict = opts.strict ?? true;
    if (dict === null || typeof dict !== 'object') throw new ValueError(`loadStateDict: expected an object of tensors by name, got ${dict === null ? 'null' : typeof dict}`);
    const owners = new Map<string, [Module, string, Tensor]>();
    const walk = (m: Module, prefix: string) => {
      for (const key of Object.keys(m)) {
        const v = (m as unknown as Record<string, unknown>)[key];
        if (v instanceof Tensor) owners.set(prefix + key, [m, key, v]);
        else if (v instanceof Module) walk(v, `${prefix}${key}.`);
      }
    };
    walk(this, '');
    const missingKeys = [...owners.keys()].filter((k) => !(k in dict));
    const unexpectedKeys = Object.keys(dict).filter((k) => !owners.has(k));
    if (strict && (missingKeys.length > 0 || unexpectedKeys.length > 0)) {
      const parts = [missingKeys.length ? `missing keys: ${missingKeys.join(', ')}` : '', unexpectedKeys.length ? `unexpected keys: ${unexpectedKeys.join(', ')}` : ''].filter(Boolean);
      throw new ValueError(`loadStateDict (strict): ${parts.join('; ')}`);
    }
    // Check every shape before assigning any, so a failed load changes nothing.
    const updates: [Module, string, Tensor][] = [];
    for (const [name, [m, key, cur]] of owners) {
      if (!(name in dict)) continue;
      const v = dict[name];
      if (!(v instanceof Tensor)) throw new ValueError(`loadStateDict: '${name}' must be a Tensor, got ${v === null ? 'null' : typeof v}`);
      if (v.shape.length !== cur.shape.length || v.shape.some((d, i) => d !== cur.shape[i]))
        throw new ShapeError(`loadStateDict: '${name}' has shape [${v.shape}] but the parameter has shape [${cur.shape}]`);
      if (v.dtype !== cur.dtype && (v.dtype.startsWith('complex') || v.dtype === 'bool'))
        throw new DTypeError(`loadStateDict: '${name}' is ${v.dtype}; the parameter is ${cur.dtype}`);
      updates.push([m, key, v.dtype === cur.dtype ? v : v.cast(cur.dtype)]);
    }
    for (const [m, key, v] of updates) (m as unknown as Record<string, unknown>)[key] = v;
    return { missingKeys, unexpectedKeys };
  }

  /**
   * Sets training mode on this module and every submodule (PyTorch's train()); returns this.
   * @example
   * ```ts
   * nn.Dropout(0.5).eval().training;   // false
   * ```
   */
  train(mode = true): this {
    const walk = (m: Module) => {
      m.training = mode;
      for (const v of Object.values(m)) if (v instanceof Module) walk(v);
    };
    walk(this);
    return this;
  }

  /**
   * Evaluation mode (train(false)): Dropout passes its input through; returns this.
   * @example
   * ```ts
   * nn.Sequential(nn.Dropout(0.1)).eval().training;   // false
   * ```
   */
  eval(): this {
    return this.train(false);
  }
}

/** What unflatten needs besides the children: the class and every static property, in the original key order. */
interface ModuleAux {
  proto: object;
  keys: string[];
  slots: Slot[];
  statics: unknown[];
}

/** A string for a static value in a cache key (JSON where it is JSON; functions and symbols by their text). */
const staticKey = (v: unknown): string => {
  // Numbers, booleans and strings (most statics: sizes, flags, names) without JSON.stringify's
  // replacer call: the same strings it gives, ~20 µs a step less on the MLP's jitted step.
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === 'function' ? `fn:${x.name || x.toString()}` : typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  } catch {
    return String(v);
  }
};

registerPytreeNode(Module, {
  flatten(m) {
    const keys = Object.keys(m);
    const rec = m as unknown as Record<string, unknown>;
    const slots = keys.map((k) => slotOf(rec[k]));
    const children: PyTree[] = [];
    const statics: unknown[] = [];
    keys.forEach((k, i) => (slots[i] === 'static' ? statics.push(rec[k]) : children.push(rec[k] as PyTree)));
    const aux: ModuleAux = { proto: Object.getPrototypeOf(m) as object, keys, slots, statics };
    const auxKey = keys.map((k, i) => (slots[i] === 'static' ? `${k}=${staticKey(rec[k])}` : `${k}:${slots[i]}`)).join(';');
    return { children, aux, auxKey };
  },
  unflatten(auxIn, children) {
    const aux = auxIn as ModuleAux;
    const m = Object.create(aux.proto) as Record<string, unknown>;
    let c = 0,
      s = 0;
    aux.keys.forEach((k, i) => {
      m[k] = aux.slots[i] === 'static' ? aux.statics[s++] : children[c++];
    });
    return m as unknown as Module;
  },
});
