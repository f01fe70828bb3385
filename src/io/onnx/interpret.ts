// Checking a decoded ONNX graph at load time and evaluating it with rlx ops.
// The check refuses what cannot run before anything runs: no graph, no default
// opset, op types rlx does not import (all of them listed at once), inputs
// used before they are defined (ONNX requires nodes in topological order),
// graph outputs nothing defines. Evaluation walks the nodes in order over an
// environment of values (values.ts): each op's rlx error is re-raised as an
// OnnxError that names the node.

import { RlxError } from '../../tensor/errors.js';
import { OnnxError, type UnsupportedOp } from './errors.js';
import { OPS, SUPPORTED_OPS } from './ops.js';
import { NodeCtx } from './registry.js';
import type { GraphProto, ModelProto } from './schema.js';
import type { Val } from './values.js';

const DEFAULT_DOMAINS = new Set(['', 'ai.onnx']);

/** The model's graph and the opset version of its default domain, after the load-time checks. */
export function checkModel(m: ModelProto): { graph: GraphProto; opset: number } {
  const g = m.graph;
  if (g === undefined) throw new OnnxError('loadOnnx', undefined, undefined, 'the file holds no graph (ModelProto.graph is missing): is it an ONNX model?');
  const opset = m.opsetImport.find((o) => DEFAULT_DOMAINS.has(o.domain))?.version;
  if (opset === undefined) throw new OnnxError('loadOnnx', undefined, undefined, `the model imports no version of the default ONNX opset (imports: ${m.opsetImport.map((o) => `${o.domain || '""'} ${o.version}`).join(', ') || 'none'})`);

  const unsupported: UnsupportedOp[] = g.nodes
    .filter((n) => !DEFAULT_DOMAINS.has(n.domain) || !Object.hasOwn(OPS, n.opType))
    .map((n) => ({ opType: n.opType, domain: n.domain, node: n.name }));
  if (unsupported.length > 0) {
    const byType = new Map<string, string[]>();
    for (const u of unsupported) {
      const key = u.domain && !DEFAULT_DOMAINS.has(u.domain) ? `${u.domain}.${u.opType}` : u.opType;
      byType.set(key, [...(byType.get(key) ?? []), `'${u.node}'`]);
    }
    const list = [...byType].map(([t, nodes]) => `${t} (node${nodes.length > 1 ? 's' : ''} ${nodes.slice(0, 5).join(', ')}${nodes.length > 5 ? `, … ${nodes.length} in all` : ''})`);
    throw new OnnxError('loadOnnx', undefined, undefined, `unsupported operators: ${list.join('; ')}. rlx imports: ${SUPPORTED_OPS.join(', ')}`, unsupported);
  }

  const defined = new Set<string>([...g.inputs.map((v) => v.name), ...g.initializers.map((t) => t.name)]);
  for (const n of g.nodes) {
    for (const i of n.inputs) if (i !== '' && !defined.has(i)) throw new OnnxError('loadOnnx', undefined, `${n.opType} '${n.name}'`, `input '${i}' is not a graph input, an initializer or the output of an earlier node`);
    for (const o of n.outputs) if (o !== '') defined.add(o);
  }
  for (const o of g.outputs) if (!defined.has(o.name)) throw new OnnxError('loadOnnx', undefined, undefined, `graph output '${o.name}' is not computed by any node`);
  return { graph: g, opset };
}

/** Runs the graph's nodes over `env` (graph inputs and initializers already in it) and returns the graph outputs' values. */
export function evaluate(g: GraphProto, opset: number, env: Map<string, Val>): Val[] {
  for (const node of g.nodes) {
    const ctx = new NodeCtx(node, opset);
    const ins = node.inputs.map((name) => {
      if (name === '') return undefined;
      const v = env.get(name);
      if (v === undefined) ctx.fail(`input '${name}' was not computed (an optional output rlx's ${node.opType} does not produce)`);
      return v;
    });
    let outs: Val[];
    try {
      outs = OPS[node.opType]!(ins, ctx);
    } catch (e) {
      if (e instanceof OnnxError || !(e instanceof RlxError)) throw e;
      throw new OnnxError('run', undefined, ctx.label, `${e.name}: ${e.message}`);
    }
    node.outputs.forEach((name, i) => {
      if (name !== '' && outs[i] !== undefined) env.set(name, outs[i]!);
    });
  }
  return g.outputs.map((o) => {
    const v = env.get(o.name);
    if (v === undefined) throw new OnnxError('run', undefined, undefined, `graph output '${o.name}' was not computed`);
    return v;
  });
}
