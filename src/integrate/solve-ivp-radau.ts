// integrate.solveIvp's 'Radau' method (SciPy 1.10's scipy/integrate/_ivp/radau.py):
// placeholder until the method lands; the driver (solve-ivp.ts) constructs it.

import type { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import type { Interpolant } from './solve-ivp-dense.js';
import type { IvpStepper } from './solve-ivp-step.js';
import type { HostSystem } from './solve-ivp-implicit.js';

export class RadauStepper implements IvpStepper {
  readonly direction = 1;
  status: 'running' | 'finished' | 'failed' = 'running';
  t = 0;
  tOld: number | undefined;
  nfev = 0;
  njev = 0;
  nlu = 0;
  constructor(sys: HostSystem, t0: number, y0: Float64Array, tBound: number, maxStep: number, firstStep: number | undefined) {
    void [sys, t0, y0, tBound, maxStep, firstStep];
    throw new ValueError("integrate.solveIvp: method 'Radau' (implicit, for stiff problems) is not implemented yet");
  }
  get y(): Tensor {
    throw new ValueError('unreachable');
  }
  step(): string | undefined {
    return undefined;
  }
  denseOutput(): Interpolant {
    throw new ValueError('unreachable');
  }
}
