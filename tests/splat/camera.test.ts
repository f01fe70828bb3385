// splat.camera and splat.lookAt: validation (typed errors naming the field)
// and the geometry of lookAt checked by where it sends known points.

import { describe, expect, test } from 'vitest';
import * as splat from '../../src/splat/camera.js';
import { tensor } from '../../src/tensor/create.js';
import { ShapeError, ValueError } from '../../src/tensor/errors.js';

const I4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
const K = [[100, 0, 32], [0, 90, 24], [0, 0, 1]];

/** Camera-space point of world point p under a row-major 4×4 view matrix. */
const apply = (v: readonly number[], p: number[]) => [0, 1, 2].map((r) => v[4 * r]! * p[0]! + v[4 * r + 1]! * p[1]! + v[4 * r + 2]! * p[2]! + v[4 * r + 3]!);

describe('splat.camera', () => {
  test('accepts nested rows, flat lists and tensors alike', () => {
    const a = splat.camera({ viewmat: I4, K, width: 64, height: 48 });
    const b = splat.camera({ viewmat: I4.flat(), K: K.flat(), width: 64, height: 48 });
    const c = splat.camera({ viewmat: tensor(I4), K: tensor(K), width: 64, height: 48, near: 0.5, far: 100 });
    expect(a.viewmat).toEqual(I4.flat());
    expect(b.K).toEqual(K.flat());
    expect([c.near, c.far, a.near, a.far]).toEqual([0.5, 100, 0.01, 1e10]);
    expect(Object.isFrozen(a) && Object.isFrozen(a.viewmat)).toBe(true);
  });
  test('typed errors name what is wrong', () => {
    expect(() => splat.camera({ viewmat: I4.slice(0, 3), K, width: 4, height: 4 })).toThrow(ShapeError);
    expect(() => splat.camera({ viewmat: tensor([[1, 0], [0, 1]]), K, width: 4, height: 4 })).toThrow(/viewmat must be 4×4/);
    expect(() => splat.camera({ viewmat: [...I4.slice(0, 3), [0, 0, 1, 1]], K, width: 4, height: 4 })).toThrow(/last row/);
    expect(() => splat.camera({ viewmat: I4, K: [[0, 0, 1], [0, 1, 1], [0, 0, 1]], width: 4, height: 4 })).toThrow(/focal/);
    expect(() => splat.camera({ viewmat: I4, K: [[1, 0.1, 1], [0, 1, 1], [0, 0, 1]], width: 4, height: 4 })).toThrow(/skew/);
    expect(() => splat.camera({ viewmat: I4, K, width: 0, height: 4 })).toThrow(ValueError);
    expect(() => splat.camera({ viewmat: I4, K, width: 4.5, height: 4 })).toThrow(/width/);
    expect(() => splat.camera({ viewmat: I4, K, width: 4, height: 4, near: 0 })).toThrow(/near/);
    expect(() => splat.camera({ viewmat: I4, K, width: 4, height: 4, near: 2, far: 1 })).toThrow(/far/);
    expect(() => splat.camera({ viewmat: [[NaN, 0, 0, 0], ...I4.slice(1)], K, width: 4, height: 4 })).toThrow(/finite.*row 0, column 0/);
  });
});

describe('splat.lookAt', () => {
  test('the target lands on the optical axis, up points to the image top, right to the right', () => {
    const eye = [1, 2, 3],
      target = [-2, 0.5, 7];
    const cam = splat.lookAt({ eye, target, fovY: 60, width: 80, height: 60 });
    const t = apply(cam.viewmat, target);
    const dist = Math.hypot(-3, -1.5, 4);
    expect(t[0]).toBeCloseTo(0, 12);
    expect(t[1]).toBeCloseTo(0, 12);
    expect(t[2]).toBeCloseTo(dist, 12);
    expect(apply(cam.viewmat, eye).map((v) => Math.abs(v))).toEqual([0, 0, 0].map(() => expect.closeTo(0, 12)));
    // A point above the target (world +y) has camera y < 0 (OpenCV: y down, so it is drawn nearer the top).
    expect(apply(cam.viewmat, [target[0]!, target[1]! + 1, target[2]!])[1]!).toBeLessThan(0);
    // The rotation is orthonormal with determinant +1 (a proper rotation, right-handed axes).
    const R = [0, 1, 2].map((r) => cam.viewmat.slice(4 * r, 4 * r + 3));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(R[i]!.reduce((s, v, k) => s + v * R[j]![k]!, 0)).toBeCloseTo(i === j ? 1 : 0, 12);
    const det = R[0]![0]! * (R[1]![1]! * R[2]![2]! - R[1]![2]! * R[2]![1]!) - R[0]![1]! * (R[1]![0]! * R[2]![2]! - R[1]![2]! * R[2]![0]!) + R[0]![2]! * (R[1]![0]! * R[2]![1]! - R[1]![1]! * R[2]![0]!);
    expect(det).toBeCloseTo(1, 12);
  });
  test('a point at the top edge of the vertical field of view projects to v = 0', () => {
    const cam = splat.lookAt({ eye: [0, 0, 0], target: [0, 0, -1], fovY: 90, width: 100, height: 50 });
    const [fx, , cx, , fy, cy] = cam.K;
    // 45° above the axis at distance 2 (world +y is up): v = fy·y/z + cy must be 0, the image's top edge.
    const p = apply(cam.viewmat, [0, 2, -2]);
    expect(fy! * (p[1]! / p[2]!) + cy!).toBeCloseTo(0, 12);
    expect(fx).toBeCloseTo(25, 12);
    expect([cx, cy]).toEqual([50, 25]);
  });
  test('bad input', () => {
    expect(() => splat.lookAt({ eye: [0, 0, 0], target: [0, 0, 0], fovY: 60, width: 4, height: 4 })).toThrow(/differ/);
    expect(() => splat.lookAt({ eye: [0, 0, 0], target: [0, 3, 0], fovY: 60, width: 4, height: 4 })).toThrow(/parallel/);
    expect(() => splat.lookAt({ eye: [0, 0, 0], target: [0, 0, 1], fovY: 180, width: 4, height: 4 })).toThrow(/fovY/);
    expect(() => splat.lookAt({ eye: [0, 0], target: [0, 0, 1], fovY: 60, width: 4, height: 4 } as never)).toThrow(/eye/);
  });
});
