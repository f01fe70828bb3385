// The WebGPU device as the main thread sees it: a worker that owns Dawn
// (worker-source.ts says why and the protocol), GPU buffers named by ids,
// compute pipelines, dispatches, and reads that block (`readSync`, for
// toArray) or not (`read`, for `await t.data()`).
//
// Nothing starts at import: the first call that needs the device (or
// `webgpuStatus()`, which `backends()` and `rlx info` call) spawns the worker
// and waits for its adapter, once per process. Adapters are tried in order:
// Dawn's default backend (Vulkan/Metal/D3D12) at core feature level when a
// Vulkan driver is installed, then OpenGL ES at compatibility level (the
// Mesa llvmpipe path, the one that works on a headless Linux machine without
// a GPU). `RLX_WEBGPU_BACKEND` (e.g. 'vulkan', 'opengles') names the one to
// use. For the GL path, EGL_PLATFORM defaults to 'surfaceless' (set in this
// process's environment before Dawn loads, only when unset).
//
// Errors are DeviceErrors naming what failed: no `webgpu` package, no
// adapter, a WGSL compile error, a validation error, out of GPU memory
// ("createBuffer(N bytes): out of memory on the device: ..."), a lost device.
// Commands the main thread does not wait for (create, write, dispatch) report
// their errors at the next synchronous call.
//
// A lost device (Dawn resolves `device.lost`: a driver reset, a GPU removed,
// `destroy()`) ends it for good: every later call on it throws a DeviceError
// with Dawn's reason and message, awaited reads pending then reject, and a
// call blocked on the worker at that moment returns with that error at once.
// The next webgpuDevice() starts a new device, one `generation` later;
// buffers and pipelines carry their generation, and a device refuses those of
// another with a DeviceError (their contents went with their device), so an
// old id is never taken for a new buffer.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DeviceError, DeviceLostError } from '../../tensor/errors.js';
import { packageRoot } from '../../package-root.js';
import { WORKER_SOURCE } from './worker-source.js';

/** What the adapter is and can do (from the worker at start). */
export interface WebGpuInfo {
  /** Which attempt found it: 'default' or 'opengles' or the RLX_WEBGPU_BACKEND value. */
  backend: string;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  features: string[];
  limits: Record<string, number>;
}

/** Whether a WebGPU device can be had here, and if not why. */
export type WebGpuStatus = { available: true; info: WebGpuInfo } | { available: false; reason: string };

interface Attempt {
  label: string;
  options: string[];
  featureLevel?: 'compatibility' | 'core';
}

/** How long the main thread waits for the worker: adapter start (shader compilers load) and one request. */
const START_TIMEOUT_MS = 20_000;
const CALL_TIMEOUT_MS = 120_000;
/** Bytes of the reply area (JSON results and error messages). */
const REPLY_BYTES = 1 << 16;

function vulkanDriverInstalled(): boolean {
  for (const dir of ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d']) {
    try {
      if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.json'))) return true;
    } catch {
      // unreadable: as if absent
    }
  }
  return false;
}

function attempts(): Attempt[] {
  const named = process.env['RLX_WEBGPU_BACKEND'];
  if (named) return [{ label: named, options: [`backend=${named}`], ...(named.startsWith('opengl') ? { featureLevel: 'compatibility' as const } : {}) }];
  const list: Attempt[] = [];
  // Dawn prints its failed Vulkan probe on stderr; without a Vulkan driver there is nothing to find.
  if (process.platform !== 'linux' || vulkanDriverInstalled()) list.push({ label: 'default', options: [] });
  if (process.platform === 'linux') list.push({ label: 'opengles', options: ['backend=opengles'], featureLevel: 'compatibility' });
  return list;
}

function webgpuPackageUrl(): string | undefined {
  try {
    return pathToFileURL(createRequire(join(packageRoot(), 'package.json')).resolve('webgpu')).href;
  } catch {
    return undefined;
  }
}

/**
 * A GPU buffer on the device (the worker holds the GPUBuffer; this is its name
 * and size, and the generation of the device it is on: one from a device that
 * was lost is refused, never confused with a buffer of the device after it).
 */
export interface GpuBuffer {
  readonly id: number;
  readonly bytes: number;
  readonly generation: number;
}

/** A compute pipeline compiled from WGSL (entry point `entry`), on the device of its generation. */
export interface GpuPipeline {
  readonly id: number;
  readonly generation: number;
}

/** Slots of the control array shared with the worker (worker-source.ts describes the protocol). */
const DONE = 0,
  STATUS = 1,
  LENGTH = 2,
  LOST = 3;
/** Bytes of the area where the worker writes the loss ({reason, message} as JSON). */
const LOST_BYTES = 4096;

/** Devices started in this process, numbered from 1 (a device started after a loss has the next number). */
let generations = 0;
/** How each device that is no longer usable ended ("the WebGPU device was lost (reason ...)"), by generation. */
const ended = new Map<number, string>();

/** Test faults that the worker provokes on request (tests/webgpu). */
export type WebGpuTestFault = 'throw' | 'uncaught' | 'unhandled' | 'lose-in-read' | 'hang-then-lose' | 'exit';

export class WebGpuDevice {
  private readonly ctl: Int32Array;
  private readonly reply: Uint8Array;
  private readonly lostArea: Uint8Array;
  private readonly decoder = new TextDecoder();
  private nextId = 1;
  private nextReq = 1;
  /** Sequence number of the last synchronous request (the start was 1). */
  private seq = 1;
  private readonly pending = new Map<number, { resolve: (b: ArrayBuffer) => void; reject: (e: Error) => void }>();
  /** Why every call on this device now fails (lost, or its worker stopped); undefined while it works. */
  private death: string | undefined;

  private constructor(
    private readonly worker: Worker,
    ctl: SharedArrayBuffer,
    reply: SharedArrayBuffer,
    lost: SharedArrayBuffer,
    readonly info: WebGpuInfo,
    /** This device's number in the process (1, then 2 after a loss...): buffers and pipelines carry it. */
    readonly generation: number,
  ) {
    this.ctl = new Int32Array(ctl);
    this.reply = new Uint8Array(reply);
    this.lostArea = new Uint8Array(lost);
    worker.on('message', (m: { req?: number; data?: ArrayBuffer; error?: string; lost?: boolean }) => {
      if (m.req === undefined) {
        if (m.lost === true) this.pollLost(); // rejects the pending reads
        return;
      }
      const p = this.pending.get(m.req);
      if (!p) return;
      this.pending.delete(m.req);
      if (m.data !== undefined) p.resolve(m.data);
      else {
        this.pollLost();
        p.reject(this.death !== undefined ? new DeviceLostError(`webgpu: read: ${this.deathMessage()}`) : new DeviceError(`webgpu: ${m.error ?? 'read failed'}`));
      }
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', (e) => this.end(`the WebGPU worker failed: ${e.message}`));
    worker.on('exit', (code) => this.end(`the WebGPU worker exited (code ${code})`));
    // After the listeners (a 'message' listener refs the port again): an idle device keeps no process alive.
    worker.unref();
  }

  /** Starts the worker and waits (blocking) for its adapter; throws DeviceError saying why there is none. */
  static start(): WebGpuDevice {
    const url = webgpuPackageUrl();
    if (url === undefined) throw new DeviceError("webgpu: the 'webgpu' package (Dawn for Node) is not installed; npm install webgpu@0.6.2");
    const list = attempts();
    if (list.length === 0) throw new DeviceError(`webgpu: no adapter to try on ${process.platform}`);
    if (list.some((a) => a.label.startsWith('opengl'))) process.env['EGL_PLATFORM'] ??= 'surfaceless';
    const ctl = new SharedArrayBuffer(16),
      reply = new SharedArrayBuffer(REPLY_BYTES),
      lost = new SharedArrayBuffer(LOST_BYTES);
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, attempts: list, ctl, reply, lost }, stdout: false, stderr: false });
    worker.unref();
    const c = new Int32Array(ctl);
    const waited = Atomics.wait(c, DONE, 0, START_TIMEOUT_MS);
    const text = new TextDecoder().decode(new Uint8Array(reply).slice(0, Atomics.load(c, LENGTH)));
    if (waited === 'timed-out') {
      void worker.terminate();
      throw new DeviceError(`webgpu: no answer from the WebGPU worker within ${START_TIMEOUT_MS / 1000} s`);
    }
    const status = Atomics.load(c, STATUS);
    if (status !== 0) {
      void worker.terminate();
      throw new DeviceError(`webgpu: ${status === 2 ? 'the WebGPU device was lost as it started' : String(JSON.parse(text))}`);
    }
    return new WebGpuDevice(worker, ctl, reply, lost, JSON.parse(text) as WebGpuInfo, ++generations);
  }

  /** Whether the device still works (false once it is lost or its worker stopped; webgpuDevice() then starts a new one). */
  get alive(): boolean {
    this.pollLost();
    return this.death === undefined;
  }

  /**
   * This device is over: every later call throws `why`, pending reads reject with it. A worker still running
   * (a lost device) is asked to exit once its mappings have settled: terminating it while Dawn has a mapAsync
   * pending aborts the process (dawn.node checks that every promise it made was settled).
   */
  private end(why: string, workerRunning = false): void {
    if (this.death !== undefined) return;
    this.death = why;
    ended.set(this.generation, why);
    const e = new DeviceLostError(`webgpu: read: ${this.deathMessage()}`);
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.worker.unref();
    if (workerRunning) {
      try {
        this.worker.postMessage({ op: 'close' });
      } catch {
        // the worker has gone already
      }
    }
  }

  /** Ends the device if the worker has reported Dawn's `device.lost` (shared memory: seen even before its message). */
  private pollLost(): void {
    if (this.death !== undefined) return;
    const n = Atomics.load(this.ctl, LOST);
    if (n === 0) return;
    const { reason, message } = JSON.parse(this.decoder.decode(this.lostArea.slice(0, n))) as { reason: string; message: string };
    this.end(`the WebGPU device was lost (reason '${reason}'${message ? `: ${message}` : ''})`, true);
  }

  private deathMessage(): string {
    return `${this.death}. Everything on it is gone: its buffers, its pipelines and the data of tensors computed on it. The next use of webgpu starts a new device; recompute those tensors there, or restart the process`;
  }

  private check(op: string): void {
    this.pollLost();
    if (this.death !== undefined) throw new DeviceLostError(`webgpu: ${op}: ${this.deathMessage()}`);
  }

  /** Refuses a buffer or pipeline of another (earlier, ended) device. */
  private own(op: string, kind: 'buffer' | 'pipeline', h: GpuBuffer | GpuPipeline): void {
    if (h.generation === this.generation) return;
    const how = ended.get(h.generation);
    throw new DeviceLostError(
      `webgpu: ${op}: ${kind} #${h.id} is from WebGPU device ${h.generation}${how !== undefined ? ` (${how})` : ''}, not from this one (${this.generation}): its contents are gone; recompute it on this device`,
    );
  }

  private post(op: string, m: Record<string, unknown>, transfer?: ArrayBuffer[]): void {
    this.check(op);
    this.worker.postMessage(m, transfer);
  }

  /** Sends a request and blocks until the worker answers (or the device is lost meanwhile); returns its JSON result. */
  private callSync(op: string, m: Record<string, unknown>): unknown {
    this.check(op);
    const seq = (this.seq = this.seq >= 0x7fffffff ? 2 : this.seq + 1);
    this.worker.postMessage({ ...m, sync: true, seq });
    const deadline = Date.now() + CALL_TIMEOUT_MS;
    for (let done = Atomics.load(this.ctl, DONE); done !== seq; done = Atomics.load(this.ctl, DONE)) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.ctl, DONE, done, left) === 'timed-out') {
        this.check(op);
        throw new DeviceError(`webgpu: ${op} did not finish within ${CALL_TIMEOUT_MS / 1000} s`);
      }
    }
    const status = Atomics.load(this.ctl, STATUS);
    const value = JSON.parse(this.decoder.decode(this.reply.slice(0, Atomics.load(this.ctl, LENGTH)))) as unknown;
    if (status === 0) return value;
    if (status === 3) this.end(String(value)); // the worker is exiting
    this.check(op); // a failure once the device is lost is the loss
    throw new DeviceError(`webgpu: ${String(value)}`);
  }

  /**
   * A new buffer of `bytes` bytes (zeroed), optionally filled with `data` (copied now).
   * Out of device memory is reported at the next synchronous call, as
   * "createBuffer(N bytes): out of memory on the device: ...".
   */
  createBuffer(bytes: number, data?: ArrayBufferView): GpuBuffer {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new DeviceError(`webgpu: createBuffer: size ${bytes} is not a byte count`);
    const max = this.info.limits['maxBufferSize'] ?? Infinity;
    if (bytes > max) throw new DeviceError(`webgpu: createBuffer: ${bytes} bytes exceed the adapter's maxBufferSize ${max}`);
    const b: GpuBuffer = { id: this.nextId++, bytes, generation: this.generation };
    this.post('createBuffer', { op: 'create', id: b.id, bytes });
    if (data !== undefined) this.write(b, data);
    return b;
  }

  /** Copies `data` into the buffer at byte `offset` (a multiple of 4). */
  write(b: GpuBuffer, data: ArrayBufferView, offset = 0): void {
    if (offset % 4 !== 0) throw new DeviceError(`webgpu: write: offset ${offset} is not a multiple of 4`);
    if (offset + data.byteLength > b.bytes) throw new DeviceError(`webgpu: write: ${data.byteLength} bytes at ${offset} overflow the buffer's ${b.bytes}`);
    this.check('write');
    this.own('write', 'buffer', b);
    const copy = new Uint8Array(data.byteLength);
    copy.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.post('write', { op: 'write', id: b.id, offset, data: copy.buffer }, [copy.buffer]);
  }

  /** Releases the buffer's GPU memory (nothing to do, and no error, once its device has ended). */
  free(b: GpuBuffer): void {
    if (b.generation === this.generation && this.alive) this.worker.postMessage({ op: 'free', id: b.id });
  }

  /** Compiles WGSL into a compute pipeline (blocking: compile errors throw here, with their line numbers). */
  pipeline(code: string, entry = 'main'): GpuPipeline {
    const p: GpuPipeline = { id: this.nextId++, generation: this.generation };
    this.callSync('pipeline', { op: 'pipeline', id: p.id, code, entry });
    return p;
  }

  /** Runs the pipeline over `groups` workgroups with buffers bound at 0, 1, ... of group 0. */
  dispatch(p: GpuPipeline, buffers: readonly GpuBuffer[], groups: readonly [number, number?, number?]): void {
    const lim = this.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
    const g = [groups[0], groups[1] ?? 1, groups[2] ?? 1];
    if (g.some((x) => !Number.isInteger(x) || x < 0 || x > lim)) throw new DeviceError(`webgpu: dispatch: workgroup counts ${g.join('×')} outside 0..${lim}`);
    this.check('dispatch');
    this.own('dispatch', 'pipeline', p);
    for (const b of buffers) this.own('dispatch', 'buffer', b);
    this.post('dispatch', { op: 'dispatch', pipeline: p.id, buffers: buffers.map((b) => b.id), groups: g });
  }

  /** The buffer's bytes [offset, offset + bytes), blocking until the GPU has written them. */
  readSync(b: GpuBuffer, bytes = b.bytes, offset = 0): ArrayBuffer {
    this.checkRange(b, bytes, offset);
    this.check('readSync');
    this.own('readSync', 'buffer', b);
    const into = new SharedArrayBuffer(bytes);
    this.callSync('readSync', { op: 'read', id: b.id, offset, bytes, into });
    const out = new ArrayBuffer(bytes);
    new Uint8Array(out).set(new Uint8Array(into));
    return out;
  }

  /** The buffer's bytes, without blocking this thread (rejects, never hangs, when the device is lost meanwhile). */
  read(b: GpuBuffer, bytes = b.bytes, offset = 0): Promise<ArrayBuffer> {
    const req = this.nextReq++;
    try {
      this.checkRange(b, bytes, offset);
      this.check('read');
      this.own('read', 'buffer', b);
      this.post('read', { op: 'readAsync', id: b.id, offset, bytes, req });
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return new Promise<ArrayBuffer>((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.worker.ref(); // an awaited read keeps the process alive until it settles
    });
  }

  /** Blocks until every command sent so far has run on the GPU; throws what failed since the last synchronous call. */
  finish(): void {
    this.callSync('finish', { op: 'finish' });
  }

  /** Live buffers and pipelines on the worker (for tests of the pool and the cache). */
  stats(): { buffers: number; pipelines: number } {
    return this.callSync('stats', { op: 'stats' }) as { buffers: number; pipelines: number };
  }

  /**
   * Test hook (tests/webgpu), not API: destroys the device in the worker, as a
   * driver reset would lose it (Dawn resolves `device.lost`, reason
   * 'destroyed'); returns once this side has seen the loss.
   * @internal
   */
  loseForTest(): void {
    try {
      this.callSync('loseForTest', { op: 'test', what: 'lose' });
    } catch (e) {
      if (this.death === undefined) throw e;
    }
  }

  /**
   * Test hook (tests/webgpu), not API: provokes a failure in the worker, in a
   * request this call waits for (`wait`, the default: this call throws what a
   * synchronous call would) or not (what fails is kept for the next
   * synchronous call). 'throw': the request's handler throws; 'uncaught' /
   * 'unhandled': an exception / a rejection outside any request (kept for the
   * next synchronous call); 'lose-in-read': the next read loses the device
   * while it waits for its mapping; 'hang-then-lose': the request never
   * finishes, and the device is lost 50 ms after it starts; 'exit': the worker
   * exits.
   * @internal
   */
  faultForTest(what: WebGpuTestFault, wait = true): void {
    if (wait) this.callSync('faultForTest', { op: 'test', what, ms: 50 });
    else this.post('faultForTest', { op: 'test', what, ms: 50 });
  }

  private checkRange(b: GpuBuffer, bytes: number, offset: number): void {
    if (offset % 4 !== 0 || offset < 0 || bytes < 0 || offset + bytes > b.bytes) throw new DeviceError(`webgpu: read: bytes [${offset}, ${offset + bytes}) outside the buffer's ${b.bytes}`);
  }
}

let started: { device?: WebGpuDevice; reason?: string } | undefined;

/**
 * The process's WebGPU device, started on first use; throws DeviceError saying
 * why there is none. Once the device is lost (or its worker stopped), the next
 * call starts a new one, with the next `generation`: buffers and pipelines of
 * the old one are refused by it with a DeviceError saying how the old one ended.
 */
export function webgpuDevice(): WebGpuDevice {
  if (started?.device !== undefined && !started.device.alive) started = undefined;
  started ??= tryStart();
  if (started.device === undefined) throw new DeviceError(started.reason!);
  return started.device;
}

function tryStart(): { device?: WebGpuDevice; reason?: string } {
  try {
    return { device: WebGpuDevice.start() };
  } catch (e) {
    return { reason: (e as Error).message };
  }
}

/** Whether WebGPU is usable here (starts the device on the first call). */
export function webgpuStatus(): WebGpuStatus {
  try {
    return { available: true, info: webgpuDevice().info };
  } catch (e) {
    return { available: false, reason: (e as Error).message.replace(/^webgpu: /, '') };
  }
}
