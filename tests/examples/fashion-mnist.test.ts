// examples/fashion-mnist.mjs: issue 18's training loop on Debian's
// Fashion-MNIST (dataset-fashion-mnist, installed by .ci/run) with a smaller
// budget than the example's default (2 epochs of 60,000 images: 85.7-87.0 %
// test accuracy over seeds 0-2, measured): 2 epochs of the first 12,000
// images reach 84.6-84.9 % on 2,000 test images (seeds 0-2), so ≥ 82 % here;
// one compile for every step; the loss falls. The accuracy is recounted here
// from the returned model's predictions, not taken from the example.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';
import type { Tensor } from '../../src/index.js';

interface FashionMnist {
  DATA: string;
  load(split: 'train' | 'test', limit?: number): { x: Tensor; y: Tensor; n: number };
  run(opts?: { epochs?: number; trainLimit?: number; testLimit?: number; seed?: number }): {
    model: { forward(x: Tensor): Tensor };
    losses: number[];
    testAccuracy: number;
    imagesPerSecond: number;
    compiles: number;
  };
}

const DATA = '/usr/share/datasets/fashion-mnist';

describe('examples/fashion-mnist.mjs', () => {
  it('requires the data in CI (RLX_REQUIRE_NATIVE marks a CI run)', () => {
    if (process.env.RLX_REQUIRE_NATIVE === '1') expect(existsSync(`${DATA}/train-images-idx3-ubyte.gz`), `${DATA} missing: scripts/install-system-deps.sh --with-data`).toBe(true);
  });

  it.runIf(existsSync(`${DATA}/train-images-idx3-ubyte.gz`))('an MLP trained for 2 epochs on 12,000 images classifies ≥ 82 % of 2,000 test images, compiled once', async () => {
    const ex = await loadExample<FashionMnist>('fashion-mnist');
    const r = ex.run({ epochs: 2, trainLimit: 12000, testLimit: 2000, seed: 0 });
    expect(r.compiles).toBe(1);
    expect(r.losses[1]!).toBeLessThan(r.losses[0]!);
    const test = ex.load('test', 2000);
    const hits = r.model.forward(test.x).argmax(-1).eq(test.y).cast('int32').sum().item() as number;
    expect(hits / 2000).toBeCloseTo(r.testAccuracy, 12);
    expect(hits / 2000).toBeGreaterThanOrEqual(0.82);
  }, 120_000);
});
