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
// reply, lost }. ctl is an Int32Array over a SharedArrayBuffer:
//   ctl[0] DONE: the sequence number of the last synchronous request answered
//          (the start answers as request 1), notified when it changes;
//   ctl[1] STATUS of that answer: 0 ok, 1 error, 2 the device is lost, 3 the
//          worker is exiting;
//   ctl[2] LENGTH: the byte length of the UTF-8 JSON text (a result or an
//          error message) written to `reply`;
//   ctl[3] LOST: 0, or the byte length of the JSON {reason, message} written
//          to `lost` once Dawn has resolved `device.lost`.
// Requests carry `sync: true` and their `seq` when the main thread waits for
// them. Only the request the main thread waits on is ever answered (a late
// answer to an abandoned one is dropped), and it is answered exactly once:
// by its handler, or at once when the device is lost or the worker exits
// meanwhile, so a blocked main thread never waits out its timeout for those.
// On a loss the worker also posts { lost: true }, which rejects the awaited
// reads on the main side; every request after a loss is refused.
//
// Nothing that goes wrong here ends the thread: a handler's exception is its
// request's error (thrown by the main side, or kept for the next synchronous
// call), and an exception or rejection outside any request is kept the same way.
//
// `op: 'test'` requests provoke those failures for tests/webgpu (loss, a
// loss during a read or a blocked call, exceptions in and outside handlers,
// the worker's exit); nothing else sends them.

export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const ctl = new Int32Array(workerData.ctl);
const reply = new Uint8Array(workerData.reply);
const lostArea = new Uint8Array(workerData.lost);
const encoder = new TextEncoder();
const DONE = 0, STATUS = 1, LENGTH = 2, LOST = 3;

const state = { gpu: undefined, adapter: undefined, device: undefined, lost: undefined, deferred: undefined, loseInRead: false, maps: 0, closing: false };
const buffers = new Map();
// Buffers whose creation failed (out of memory...): why, for the requests that name them later.
const failedBuffers = new Map();
const pipelines = new Map();
// The synchronous request the main thread is blocked on (the start is request 1), undefined when none.
let waiting = 1;

const messageOf = (e) => String(e && e.message ? e.message : e);

function answer(seq, status, value) {
  if (seq !== waiting) return; // answered already (the device was lost meanwhile), or abandoned by the main thread
  waiting = undefined;
  let bytes = encoder.encode(JSON.stringify(value === undefined ? null : value));
  if (bytes.length > reply.length) bytes = encoder.encode(JSON.stringify(status === 0 ? null : String(value).slice(0, reply.length / 4)));
  reply.set(bytes);
  Atomics.store(ctl, LENGTH, bytes.length);
  Atomics.store(ctl, STATUS, status);
  Atomics.store(ctl, DONE, seq);
  Atomics.notify(ctl, DONE);
}

function onLost(info) {
  if (state.lost) return;
  const reason = String(info && info.reason !== undefined ? info.reason : 'unknown');
  const message = String(info && info.message ? info.message : '').slice(0, 1000);
  state.lost = { reason, message };
  const bytes = encoder.encode(JSON.stringify(state.lost));
  lostArea.set(bytes);
  Atomics.store(ctl, LOST, bytes.length);
  if (waiting !== undefined) answer(waiting, 2, null);
  try {
    parentPort.postMessage({ lost: true });
  } catch {
    // the main side reads the loss from ctl[LOST] at its next call
  }
}

// Errors outside any request (a Dawn callback, a timer): kept for the next synchronous call, the thread goes on.
process.on('uncaughtException', (e) => {
  state.deferred ??= 'the WebGPU worker hit an uncaught exception: ' + messageOf(e);
});
process.on('unhandledRejection', (e) => {
  state.deferred ??= 'the WebGPU worker hit an unhandled rejection: ' + messageOf(e);
});
process.on('exit', (code) => {
  if (waiting !== undefined) answer(waiting, 3, 'the WebGPU worker exited (code ' + code + ')');
});

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
    device.lost.then(onLost, (e) => onLost({ reason: 'unknown', message: messageOf(e) }));
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
  if (b) return b;
  const failed = failedBuffers.get(id);
  throw new Error('buffer #' + id + (failed ? ' was never created (' + failed + ')' : ' does not exist (freed)'));
}

// Runs f inside validation and out-of-memory error scopes; an error becomes the request's error.
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
  if (oom) throw new Error('out of memory on the device: ' + oom.message);
  if (validation) throw new Error(validation.message);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Rounded up to a multiple of 4 (WebGPU's copy granularity) in double arithmetic: '(n + 3) & ~3' wraps at 2^31.
const pad4 = (n) => Math.ceil(n / 4) * 4;

async function read(id, offset, size) {
  const d = state.device;
  const src = buffer(id);
  // Wait for the work already submitted (the dispatches that write src) before copying it out. WebGPU orders
  // the copy after them anyway; on Dawn's GL backend over llvmpipe a read once in ~50 test runs still saw a
  // compute result unwritten (a reduction's first output read as 0), which waiting for completion rules out.
  await d.queue.onSubmittedWorkDone();
  const padded = pad4(size);
  let staging;
  try {
    await scoped(() => {
      staging = d.createBuffer({ size: Math.max(4, padded), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const enc = d.createCommandEncoder();
      if (padded > 0) enc.copyBufferToBuffer(src, offset, staging, 0, padded);
      d.queue.submit([enc.finish()]);
    });
    const mapped = staging.mapAsync(GPUMapMode.READ);
    state.maps++;
    try {
      if (state.loseInRead) {
        state.loseInRead = false;
        d.destroy(); // test: the device is lost while this read waits for its mapping
      }
      await mapped;
    } finally {
      state.maps--;
      exitIfClosing();
    }
    const out = staging.getMappedRange().slice(0, size);
    staging.unmap();
    return out;
  } finally {
    if (staging) staging.destroy();
  }
}

// After a loss the main side asks this thread to exit ({ op: 'close' }), which it does once no mapAsync is
// pending: a thread ended with one pending aborts the process (dawn.node checks its promises were settled).
function exitIfClosing() {
  if (state.closing && state.maps === 0) process.exit(0);
}

const handlers = {
  async create(m) {
    let b;
    try {
      await scoped(() => {
        b = state.device.createBuffer({ size: Math.max(4, pad4(m.bytes)), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
      });
    } catch (e) {
      if (b) b.destroy();
      failedBuffers.set(m.id, messageOf(e).split('\n')[0]);
      throw e;
    }
    buffers.set(m.id, b);
  },
  async write(m) {
    const b = buffer(m.id);
    const bytes = new Uint8Array(m.data);
    const padded = pad4(bytes.length);
    const src = padded === bytes.length ? bytes : (() => { const p = new Uint8Array(padded); p.set(bytes); return p; })();
    await scoped(() => state.device.queue.writeBuffer(b, m.offset, src));
  },
  async free(m) {
    failedBuffers.delete(m.id);
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
  async test(m) {
    switch (m.what) {
      case 'lose':
        state.device.destroy();
        await state.device.lost;
        return;
      case 'lose-in-read':
        state.loseInRead = true;
        return;
      case 'hang-then-lose':
        setTimeout(() => state.device.destroy(), m.ms);
        return new Promise(() => {});
      case 'throw':
        throw new TypeError('a test fault inside a request handler');
      case 'uncaught':
        setTimeout(() => {
          throw new Error('a test fault outside any request');
        }, 0);
        await sleep(20);
        return;
      case 'unhandled':
        Promise.reject(new Error('a test rejection outside any request'));
        await sleep(20);
        return;
      case 'exit':
        process.exit(7);
    }
    throw new Error('unknown test fault ' + m.what);
  },
};

// What a request was, for its error message.
function what(m) {
  switch (m.op) {
    case 'create':
      return 'createBuffer(' + m.bytes + ' bytes)';
    case 'write':
      return 'write(' + m.data.byteLength + ' bytes at ' + m.offset + ' of buffer #' + m.id + ')';
    case 'read':
    case 'readAsync':
      return 'read(' + m.bytes + ' bytes at ' + m.offset + ' of buffer #' + m.id + ')';
    default:
      return String(m.op);
  }
}

function refuseLost(m) {
  if (m.sync) answer(m.seq, 2, null);
  else if (m.op === 'readAsync') parentPort.postMessage({ req: m.req, lost: true });
}

async function handle(m) {
  try {
    if (!state.device) throw new Error('no device');
    if (state.lost) return refuseLost(m);
    // A synchronous request (or an awaited read) first reports what failed since the last one.
    if (state.deferred !== undefined && (m.sync || m.op === 'readAsync')) {
      const e = state.deferred;
      state.deferred = undefined;
      throw new Error('an earlier command failed: ' + e);
    }
    const h = handlers[m.op];
    if (typeof h !== 'function') throw new Error('unknown request');
    const value = await h(m);
    if (m.sync) answer(m.seq, 0, value);
  } catch (e) {
    try {
      // A failure right after a loss (a mapping aborted by it...) is the loss: give Dawn a turn to say so.
      if (!state.lost && state.device) await Promise.race([state.device.lost, sleep(5)]);
      if (state.lost) return refuseLost(m);
      const msg = what(m) + ': ' + messageOf(e);
      if (m.sync) answer(m.seq, 1, msg);
      else if (m.op === 'readAsync') parentPort.postMessage({ req: m.req, error: msg });
      else state.deferred ??= msg;
    } catch (e2) {
      state.deferred ??= 'the WebGPU worker could not report an error of ' + String(m && m.op) + ': ' + messageOf(e2);
      if (m && m.sync) answer(m.seq, 1, state.deferred);
    }
  }
}

let queue = init().then(
  (info) => answer(1, 0, info),
  (e) => answer(1, 1, messageOf(e)),
);

parentPort.on('message', (m) => {
  if (m.op === 'close') {
    state.closing = true;
    return exitIfClosing();
  }
  if (m.sync) waiting = m.seq;
  queue = queue.then(() => handle(m)).catch((e) => {
    state.deferred ??= 'the WebGPU worker: ' + messageOf(e);
  });
});
`;
