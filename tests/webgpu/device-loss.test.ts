// A lost WebGPU device (src/backends/webgpu/device.ts): every later call on
// it throws a DeviceError with Dawn's reason and message, reads pending at the
// loss reject, a call blocked at the loss returns at once, the next
// webgpuDevice() starts a new device that refuses the old one's buffers and
// pipelines. The loss is provoked by destroying the device in its worker
// (loseForTest: Dawn then resolves `device.lost` with reason 'destroyed', as
// it does for a driver reset with reason 'unknown'). Its own file: module
// state is per test file, so these losses touch no other file's device.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DeviceError, DeviceLostError } from '../../src/tensor/errors.js';
import { webgpuDevice, webgpuStatus, type WebGpuDevice } from '../../src/backends/webgpu/device.js';
import { EXP } from './gpu-run.js';

const status = webgpuStatus();

/** The message of a call on a device lost by loseForTest (reason and message as Dawn gives them). */
const LOST = /webgpu: \w+: the WebGPU device was lost \(reason 'destroyed': [^)]*destroyed[^)]*\)\. Everything on it is gone.*The next use of webgpu starts a new device/;
/** The message of a new device refusing a handle of the lost one. */
const STALE = /is from WebGPU device \d+ \(the WebGPU device was lost \(reason 'destroyed'.*not from this one \(\d+\): its contents are gone/;


/** What `f` throws (it must throw). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

/** A live device with a buffer [1, 2, 3, 4] and a pipeline on it, checked to work. */
function fresh(): { d: WebGpuDevice; b: GpuBufferOf; p: GpuPipelineOf } {
  const d = webgpuDevice();
  expect(d.alive).toBe(true);
  const b = d.createBuffer(16, Float32Array.of(1, 2, 3, 4));
  const p = d.pipeline(EXP);
  expect([...new Float32Array(d.readSync(b))]).toEqual([1, 2, 3, 4]);
  return { d, b, p };
}
type GpuBufferOf = ReturnType<WebGpuDevice['createBuffer']>;
type GpuPipelineOf = ReturnType<WebGpuDevice['pipeline']>;

describe.runIf(status.available)('a lost WebGPU device', () => {
  it('every later call throws a DeviceError with the reason, message and what to do', async () => {
    const { d, b, p } = fresh();
    const out = d.createBuffer(16);
    // A tensor whose data is only on this device (realized, never read back).
    const kept = rlx.tensor([1, 2, 3], { dtype: 'float32' }).on('webgpu').mul(3).realize();
    d.loseForTest();
    expect(d.alive).toBe(false);
    for (const [name, f] of [
      ['readSync', () => d.readSync(b)],
      ['dispatch', () => d.dispatch(p, [b, out], [1])],
      ['createBuffer', () => d.createBuffer(16)],
      ['write', () => d.write(b, Float32Array.of(5))],
      ['pipeline', () => d.pipeline(EXP)],
      ['finish', () => d.finish()],
      ['stats', () => d.stats()],
    ] as const) {
      const e = thrown(f);
      expect(e, name).toBeInstanceOf(DeviceLostError); // a DeviceError too
      expect(e, name).toBeInstanceOf(DeviceError);
      expect(e.message, name).toMatch(LOST);
      expect(e.message, name).toContain(`webgpu: ${name}: `);
    }
    await expect(d.read(b)).rejects.toThrow(DeviceError);
    await expect(d.read(b)).rejects.toThrow(LOST);
    expect(() => d.free(b)).not.toThrow(); // nothing to free: its memory went with the device
    // The tensor's data was on the lost device: reading it is the loss, blocking or awaited.
    const e = thrown(() => kept.toArray());
    expect(e).toBeInstanceOf(DeviceLostError);
    expect(e.message).toMatch(STALE);
    await expect(kept.data()).rejects.toThrow(STALE);
    // A new computation through the public API runs on a new device (the backend drops the lost device's pool and
    // pipelines), and a host leaf whose GPU copy was on the lost device is uploaded again from its host data.
    expect(rlx.tensor([1, 2, 3], { dtype: 'float32' }).on('webgpu').add(1).toArray()).toEqual(Float32Array.of(2, 3, 4));
    const leaf = rlx.tensor([4, 5], { dtype: 'float32' });
    expect(leaf.on('webgpu').mul(2).toArray()).toEqual(Float32Array.of(8, 10));
    webgpuDevice().loseForTest();
    expect(leaf.on('webgpu').mul(3).toArray()).toEqual(Float32Array.of(12, 15));
  });

  it('reads pending at the loss reject: one waiting for its mapping, one queued behind it', async () => {
    const { d, b } = fresh();
    d.faultForTest('lose-in-read');
    const during = d.read(b),
      queued = d.read(b, 8);
    await expect(during).rejects.toThrow(LOST);
    await expect(queued).rejects.toThrow(LOST);
    expect(d.alive).toBe(false);
  });

  it('a synchronous call blocked when the device is lost returns at once with the loss', () => {
    const { d } = fresh();
    const t0 = Date.now();
    // The request never finishes on its own; the device is lost 50 ms after it starts.
    const e = thrown(() => d.faultForTest('hang-then-lose'));
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.message).toMatch(LOST);
    expect(Date.now() - t0).toBeLessThan(10_000); // not the 120 s timeout of a call without an answer
    expect(() => d.finish()).toThrow(LOST);
  });

  it('an awaited read queued behind a request that never finishes rejects when the device is lost', async () => {
    const { d, b } = fresh();
    d.faultForTest('hang-then-lose', false);
    // The worker never reaches this read: only the loss, reported from the worker, can settle it.
    await expect(d.read(b)).rejects.toThrow(LOST);
    expect(d.alive).toBe(false);
  });

  it('the next webgpuDevice() is a new device (generation + 1) that works and refuses the old handles', () => {
    const { d, b, p } = fresh();
    d.loseForTest();
    const n = webgpuDevice();
    expect(n).not.toBe(d);
    expect(n.generation).toBe(d.generation + 1);
    // Same ids may exist on the new device: the old handles must be refused, not read as these.
    const nb = n.createBuffer(16, Float32Array.of(0.5, 1.5, 2.5, 3.5)),
      ny = n.createBuffer(16);
    n.dispatch(n.pipeline(EXP), [nb, ny], [1]);
    expect([...new Float32Array(n.readSync(ny))]).toEqual([2, 4, 6, 8]);
    for (const [name, f] of [
      ['readSync', () => n.readSync(b)],
      ['write', () => n.write(b, Float32Array.of(1))],
      ['dispatch', () => n.dispatch(p, [nb, ny], [1])],
      ['dispatch', () => n.dispatch(n.pipeline(EXP), [b, ny], [1])],
    ] as const) {
      const e = thrown(f);
      expect(e, name).toBeInstanceOf(DeviceLostError); // a DeviceError too
      expect(e, name).toBeInstanceOf(DeviceError);
      expect(e.message, name).toMatch(STALE);
    }
    const before = n.stats().buffers;
    n.free(b); // an old handle: nothing happens to the new device's buffers
    expect(n.stats().buffers).toBe(before);
    expect([...new Float32Array(n.readSync(nb))]).toEqual([0.5, 1.5, 2.5, 3.5]);
  });

  it('a worker that exits during a call ends its device with a DeviceError, and the next device starts', () => {
    const { d, b } = fresh();
    const t0 = Date.now();
    const e = thrown(() => d.faultForTest('exit'));
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.message).toMatch(/webgpu: faultForTest: the WebGPU worker exited \(code 7\)\. Everything on it is gone/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(d.alive).toBe(false);
    expect(() => d.readSync(b)).toThrow(/the WebGPU worker exited \(code 7\)/);
    const n = webgpuDevice();
    expect(n.generation).toBe(d.generation + 1);
    expect(() => n.readSync(b)).toThrow(/is from WebGPU device \d+ \(the WebGPU worker exited \(code 7\)\)/);
    const nb = n.createBuffer(8, Int32Array.of(-3, 7));
    expect([...new Int32Array(n.readSync(nb))]).toEqual([-3, 7]);
  });
});
