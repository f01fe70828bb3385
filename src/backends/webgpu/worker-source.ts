// The WebGPU device's thread: the source of the worker that owns Dawn.
//
// Why a worker: WebGPU only reads back asynchronously (mapAsync), and Dawn
// resolves that promise from the event loop of the thread that owns the
// device. With the device on a worker, the main thread can block on a read
// (Atomics.wait on a SharedArrayBuffer while the worker's loop maps the
// buffer), so `toArray()` works on webgpu tensors, and `await t.data()` is a
// plain message. Everything else (buffers, writes, pipelines, dispatches)
// goes to the worker as ordered messages that the main thread does not wait
// for; their errors are kept and thrown at the next synchronous call.
//
// The source is a string evaluated as a CommonJS worker (`eval: true`): the
// same text serves src/ under vitest, dist/ and dist/cjs/, with no .ts file
// for a worker to load. It imports the `webgpu` package (dawn.node) from the
// file URL the main thread resolved.
//
// Dawn quirk worked around here: the GPU instance from create() must stay
// reachable; once collected, Dawn's event processing touches freed memory
// (a segfault, seen on llvmpipe with dispatches of 2^16 invocations).
//
// Protocol (device.ts is the other side): workerData = { url, attempts, ctl,
// reply }. ctl is an Int32Array over a SharedArrayBuffer: ctl[0] is set to 1
// and notified when a synchronous request is answered, ctl[1] is its status
// (0 ok, 1 error), ctl[2] the byte length of the UTF-8 JSON text written to
// `reply` (an error message or a result). Requests carry `sync: true` when
// the main thread waits for them.

export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const ctl = new Int32Array(workerData.ctl);
const reply = new Uint8Array(workerData.reply);
const encoder = new TextEncoder();

const state = { gpu: undefined, adapter: undefined, device: undefined, lost: undefined, deferred: undefined };
const buffers = new Map();
const pipelines = new Map();

function answer(status, value) {
  let bytes = encoder.encode(JSON.stringify(value === undefined ? null : value));
  if (bytes.length > reply.length) bytes = encoder.encode(JSON.stringify(status === 0 ? null : String(value).slice(0, reply.length / 4)));
  reply.set(bytes);
  Atomics.store(ctl, 2, bytes.length);
  Atomics.store(ctl, 1, status);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
}

async function init() {
  const mod = await import(workerData.url);
  Object.assign(globalThis, mod.globals);
  const tried = [];
  for (const attempt of workerData.attempts) {
    const gpu = mod.create(attempt.options);
    const adapter = await gpu.requestAdapter(attempt.featureLevel ? { featureLevel: attempt.featureLevel } : undefined);
    if (!adapter) {
      tried.push(attempt.label);
      continue;
    }
    const features = [...adapter.features].filter((f) => f === 'shader-f16');
    // The adapter's compute limits, not the (compatibility-mode) defaults: 128 invocations per workgroup otherwise.
    const requiredLimits = {};
    for (const k of ['maxComputeWorkgroupSizeX', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupStorageSize', 'maxStorageBuffersPerShaderStage', 'maxStorageBufferBindingSize', 'maxBufferSize']) {
      if (adapter.limits[k] !== undefined) requiredLimits[k] = adapter.limits[k];
    }
    const device = await adapter.requestDevice({ requiredFeatures: features, requiredLimits });
    state.gpu = gpu;
    state.adapter = adapter;
    state.device = device;
    device.lost.then((info) => {
      state.lost = info.message || info.reason || 'lost';
    });
    device.addEventListener('uncapturederror', (e) => {
      state.deferred ??= e.error.message;
    });
    const info = adapter.info;
    const L = device.limits;
    return {
      backend: attempt.label,
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
      features: [...device.features],
      limits: {
        maxStorageBufferBindingSize: L.maxStorageBufferBindingSize,
        maxBufferSize: L.maxBufferSize,
        maxComputeWorkgroupStorageSize: L.maxComputeWorkgroupStorageSize,
        maxComputeInvocationsPerWorkgroup: L.maxComputeInvocationsPerWorkgroup,
        maxComputeWorkgroupSizeX: L.maxComputeWorkgroupSizeX,
        maxComputeWorkgroupsPerDimension: L.maxComputeWorkgroupsPerDimension,
        maxStorageBuffersPerShaderStage: L.maxStorageBuffersPerShaderStage,
      },
    };
  }
  throw new Error('no WebGPU adapter (tried: ' + tried.join('; ') + ')');
}

function buffer(id) {
  const b = buffers.get(id);
  if (!b) throw new Error('buffer #' + id + ' does not exist (freed, or its creation failed)');
  return b;
}

// Runs f inside validation and out-of-memory error scopes; an error becomes the deferred error.
async function scoped(f) {
  const d = state.device;
  d.pushErrorScope('out-of-memory');
  d.pushErrorScope('validation');
  let thrown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  const validation = await d.popErrorScope();
  const oom = await d.popErrorScope();
  if (thrown) throw thrown;
  if (oom) throw new Error('out of GPU memory: ' + oom.message);
  if (validation) throw new Error(validation.message);
}

async function read(id, offset, size) {
  const d = state.device;
  const src = buffer(id);
  // Wait for the work already submitted (the dispatches that write src) before copying it out. WebGPU orders
  // the copy after them anyway; on Dawn's GL backend over llvmpipe a read once in ~50 test runs still saw a
  // compute result unwritten (a reduction's first output read as 0), which waiting for completion rules out.
  await d.queue.onSubmittedWorkDone();
  const padded = (size + 3) & ~3;
  const staging = d.createBuffer({ size: Math.max(4, padded), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const enc = d.createCommandEncoder();
    if (padded > 0) enc.copyBufferToBuffer(src, offset, staging, 0, padded);
    d.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = staging.getMappedRange().slice(0, size);
    staging.unmap();
    return out;
  } finally {
    staging.destroy();
  }
}

const handlers = {
  async create(m) {
    await scoped(() => {
      buffers.set(m.id, state.device.createBuffer({ size: Math.max(4, (m.bytes + 3) & ~3), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }));
    });
  },
  async write(m) {
    const b = buffer(m.id);
    const bytes = new Uint8Array(m.data);
    const padded = (bytes.length + 3) & ~3;
    const src = padded === bytes.length ? bytes : (() => { const p = new Uint8Array(padded); p.set(bytes); return p; })();
    await scoped(() => state.device.queue.writeBuffer(b, m.offset, src));
  },
  async free(m) {
    const b = buffers.get(m.id);
    if (b) {
      buffers.delete(m.id);
      b.destroy();
    }
  },
  async pipeline(m) {
    // The module's errors (Dawn reports WGSL errors as validation errors, with line:column) and the pipeline's, in one scope.
    const d = state.device;
    let p;
    await scoped(() => {
      const module = d.createShaderModule({ code: m.code });
      p = d.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: m.entry } });
    });
    pipelines.set(m.id, p);
  },
  async dispatch(m) {
    const d = state.device;
    const p = pipelines.get(m.pipeline);
    if (!p) throw new Error('pipeline #' + m.pipeline + ' does not exist');
    await scoped(() => {
      const bg = d.createBindGroup({ layout: p.getBindGroupLayout(0), entries: m.buffers.map((id, i) => ({ binding: i, resource: { buffer: buffer(id) } })) });
      const enc = d.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(p);
      pass.setBindGroup(0, bg);
      pass.dispatchWorkgroups(m.groups[0], m.groups[1], m.groups[2]);
      pass.end();
      d.queue.submit([enc.finish()]);
    });
  },
  async read(m) {
    const data = new Uint8Array(await read(m.id, m.offset, m.bytes));
    new Uint8Array(m.into).set(data);
  },
  async readAsync(m) {
    const data = await read(m.id, m.offset, m.bytes);
    parentPort.postMessage({ req: m.req, data }, [data]);
  },
  async finish() {
    await state.device.queue.onSubmittedWorkDone();
  },
  async stats() {
    return { buffers: buffers.size, pipelines: pipelines.size };
  },
};

let queue = init().then(
  (info) => answer(0, info),
  (e) => answer(1, String(e && e.message ? e.message : e)),
);

parentPort.on('message', (m) => {
  queue = queue.then(async () => {
    try {
      if (!state.device) throw new Error('no device');
      if (state.lost !== undefined) throw new Error('the WebGPU device was lost: ' + state.lost);
      // A synchronous request (or an awaited read) first reports what failed since the last one.
      if (state.deferred !== undefined && (m.sync || m.op === 'readAsync')) {
        const e = state.deferred;
        state.deferred = undefined;
        throw new Error('an earlier command failed: ' + e);
      }
      const value = await handlers[m.op](m);
      if (m.sync) answer(0, value);
    } catch (e) {
      const msg = m.op + ': ' + String(e && e.message ? e.message : e);
      if (m.sync) answer(1, msg);
      else if (m.op === 'readAsync') parentPort.postMessage({ req: m.req, error: msg });
      else state.deferred ??= msg;
    }
  });
});
`;
