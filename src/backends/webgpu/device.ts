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
// adapter, a WGSL compile error, a validation error, out of GPU memory, a
// lost device. Commands the main thread does not wait for (create, write,
// dispatch) report their errors at the next synchronous call.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DeviceError } from '../../tensor/errors.js';
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

/** A GPU buffer on the device (the worker holds the GPUBuffer; this is its name and size). */
export interface GpuBuffer {
  readonly id: number;
  readonly bytes: number;
}

/** A compute pipeline compiled from WGSL (entry point `entry`). */
export interface GpuPipeline {
  readonly id: number;
}

export class WebGpuDevice {
  private readonly ctl: Int32Array;
  private readonly reply: Uint8Array;
  private readonly decoder = new TextDecoder();
  private nextId = 1;
  private nextReq = 1;
  private readonly pending = new Map<number, { resolve: (b: ArrayBuffer) => void; reject: (e: Error) => void }>();
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    ctl: SharedArrayBuffer,
    reply: SharedArrayBuffer,
    readonly info: WebGpuInfo,
  ) {
    this.ctl = new Int32Array(ctl);
    this.reply = new Uint8Array(reply);
    worker.on('message', (m: { req: number; data?: ArrayBuffer; error?: string }) => {
      const p = this.pending.get(m.req);
      if (!p) return;
      this.pending.delete(m.req);
      if (m.error !== undefined) p.reject(new DeviceError(`webgpu: ${m.error}`));
      else p.resolve(m.data!);
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', (e) => this.fail(`the WebGPU worker failed: ${e.message}`));
    worker.on('exit', (code) => this.fail(`the WebGPU worker exited (code ${code})`));
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
      reply = new SharedArrayBuffer(REPLY_BYTES);
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, attempts: list, ctl, reply }, stdout: false, stderr: false });
    worker.unref();
    const c = new Int32Array(ctl);
    const waited = Atomics.wait(c, 0, 0, START_TIMEOUT_MS);
    const text = new TextDecoder().decode(new Uint8Array(reply).slice(0, Atomics.load(c, 2)));
    if (waited === 'timed-out') {
      void worker.terminate();
      throw new DeviceError(`webgpu: no answer from the WebGPU worker within ${START_TIMEOUT_MS / 1000} s`);
    }
    if (Atomics.load(c, 1) !== 0) {
      void worker.terminate();
      throw new DeviceError(`webgpu: ${JSON.parse(text) as string}`);
    }
    return new WebGpuDevice(worker, ctl, reply, JSON.parse(text) as WebGpuInfo);
  }

  private fail(why: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new DeviceError(`webgpu: ${why}`));
    this.pending.clear();
    this.closedWhy = why;
  }
  private closedWhy = '';

  private check(): void {
    if (this.closed) throw new DeviceError(`webgpu: ${this.closedWhy}`);
  }

  private post(m: Record<string, unknown>): void {
    this.check();
    this.worker.postMessage(m);
  }

  /** Sends a request and blocks until the worker answers; returns its JSON result. */
  private callSync(m: Record<string, unknown>): unknown {
    this.check();
    Atomics.store(this.ctl, 0, 0);
    this.worker.postMessage({ ...m, sync: true });
    if (Atomics.wait(this.ctl, 0, 0, CALL_TIMEOUT_MS) === 'timed-out') throw new DeviceError(`webgpu: ${String(m['op'])} did not finish within ${CALL_TIMEOUT_MS / 1000} s`);
    const text = this.decoder.decode(this.reply.slice(0, Atomics.load(this.ctl, 2)));
    const value = JSON.parse(text) as unknown;
    if (Atomics.load(this.ctl, 1) !== 0) throw new DeviceError(`webgpu: ${String(value)}`);
    return value;
  }

  /** A new buffer of `bytes` bytes (zeroed), optionally filled with `data` (copied now). */
  createBuffer(bytes: number, data?: ArrayBufferView): GpuBuffer {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new DeviceError(`webgpu: createBuffer: size ${bytes} is not a byte count`);
    const max = this.info.limits['maxBufferSize'] ?? Infinity;
    if (bytes > max) throw new DeviceError(`webgpu: createBuffer: ${bytes} bytes exceed the adapter's maxBufferSize ${max}`);
    const b: GpuBuffer = { id: this.nextId++, bytes };
    this.post({ op: 'create', id: b.id, bytes });
    if (data !== undefined) this.write(b, data);
    return b;
  }

  /** Copies `data` into the buffer at byte `offset` (a multiple of 4). */
  write(b: GpuBuffer, data: ArrayBufferView, offset = 0): void {
    if (offset % 4 !== 0) throw new DeviceError(`webgpu: write: offset ${offset} is not a multiple of 4`);
    if (offset + data.byteLength > b.bytes) throw new DeviceError(`webgpu: write: ${data.byteLength} bytes at ${offset} overflow the buffer's ${b.bytes}`);
    const copy = new Uint8Array(data.byteLength);
    copy.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.worker.postMessage({ op: 'write', id: b.id, offset, data: copy.buffer }, [copy.buffer]);
  }

  /** Releases the buffer's GPU memory. */
  free(b: GpuBuffer): void {
    if (!this.closed) this.worker.postMessage({ op: 'free', id: b.id });
  }

  /** Compiles WGSL into a compute pipeline (blocking: compile errors throw here, with their line numbers). */
  pipeline(code: string, entry = 'main'): GpuPipeline {
    const p: GpuPipeline = { id: this.nextId++ };
    this.callSync({ op: 'pipeline', id: p.id, code, entry });
    return p;
  }

  /** Runs the pipeline over `groups` workgroups with buffers bound at 0, 1, ... of group 0. */
  dispatch(p: GpuPipeline, buffers: readonly GpuBuffer[], groups: readonly [number, number?, number?]): void {
    const lim = this.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
    const g = [groups[0], groups[1] ?? 1, groups[2] ?? 1];
    if (g.some((x) => !Number.isInteger(x) || x < 0 || x > lim)) throw new DeviceError(`webgpu: dispatch: workgroup counts ${g.join('×')} outside 0..${lim}`);
    this.post({ op: 'dispatch', pipeline: p.id, buffers: buffers.map((b) => b.id), groups: g });
  }

  /** The buffer's bytes [offset, offset + bytes), blocking until the GPU has written them. */
  readSync(b: GpuBuffer, bytes = b.bytes, offset = 0): ArrayBuffer {
    this.checkRange(b, bytes, offset);
    const into = new SharedArrayBuffer(bytes);
    this.callSync({ op: 'read', id: b.id, offset, bytes, into });
    const out = new ArrayBuffer(bytes);
    new Uint8Array(out).set(new Uint8Array(into));
    return out;
  }

  /** The buffer's bytes, without blocking this thread. */
  read(b: GpuBuffer, bytes = b.bytes, offset = 0): Promise<ArrayBuffer> {
    try {
      this.checkRange(b, bytes, offset);
      this.check();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const req = this.nextReq++;
    return new Promise<ArrayBuffer>((resolve, reject) => {
      this.pending.set(req, { resolve, reject });
      this.worker.ref(); // an awaited read keeps the process alive until it settles
      this.post({ op: 'readAsync', id: b.id, offset, bytes, req });
    });
  }

  /** Blocks until every command sent so far has run on the GPU; throws what failed since the last synchronous call. */
  finish(): void {
    this.callSync({ op: 'finish' });
  }

  /** Live buffers and pipelines on the worker (for tests of the pool and the cache). */
  stats(): { buffers: number; pipelines: number } {
    return this.callSync({ op: 'stats' }) as { buffers: number; pipelines: number };
  }

  private checkRange(b: GpuBuffer, bytes: number, offset: number): void {
    if (offset % 4 !== 0 || offset < 0 || bytes < 0 || offset + bytes > b.bytes) throw new DeviceError(`webgpu: read: bytes [${offset}, ${offset + bytes}) outside the buffer's ${b.bytes}`);
  }
}

let started: { device?: WebGpuDevice; reason?: string } | undefined;

/** The process's WebGPU device, started on first use; throws DeviceError saying why there is none. */
export function webgpuDevice(): WebGpuDevice {
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
