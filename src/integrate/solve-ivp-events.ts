// Events of integrate.solveIvp, as SciPy 1.10's ivp.py handles them: an event
// is a function e(t, y) → scalar; after each accepted step the sign changes
// of every event since the previous step are found (find_active_events), each
// is located by Brent's method on the step's dense output
// (solve_event_equation: brentq with xtol = rtol = 4·EPS), and a terminal
// event ends the integration at the earliest terminal root (handle_events).

import { Tensor } from '../tensor/tensor.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { isComplex } from '../tensor/dtype.js';
import { tensor } from '../tensor/create.js';

/** An event function: its zero is the event. `terminal` and `direction` as SciPy's attributes. */
export interface EventFunction {
  (t: Tensor, y: Tensor): Tensor | number;
  /** Stop the integration at this event's first zero (default false). */
  terminal?: boolean;
  /** Only zeros where e increases (> 0), decreases (< 0) or both (0, the default). */
  direction?: number;
}

const EPS = 2 ** -52;

/** One event: the user's function, called with host t and the state; its value read back as a number. */
export interface Event {
  index: number;
  terminal: boolean;
  direction: number;
  value: (t: number, y: Tensor) => number;
}

/** Checks the events option and reads each function's attributes (prepare_events). */
export function prepareEvents(op: string, events: EventFunction | readonly EventFunction[], device: string | undefined): Event[] {
  const list = typeof events === 'function' ? [events] : events;
  if (!Array.isArray(list)) throw new ValueError(`${op}: events must be a function e(t, y) or an array of them, got ${typeof events}`);
  return list.map((e: EventFunction, index) => {
    if (typeof e !== 'function') throw new ValueError(`${op}: events[${index}] must be a function e(t, y), got ${typeof e}`);
    const terminal = e.terminal ?? false;
    const direction = e.direction ?? 0;
    if (typeof terminal !== 'boolean') throw new ValueError(`${op}: events[${index}].terminal must be a boolean, got ${String(terminal)}`);
    if (typeof direction !== 'number' || Number.isNaN(direction)) throw new ValueError(`${op}: events[${index}].direction must be a number (its sign is used), got ${String(direction)}`);
    const value = (t: number, y: Tensor): number => {
      const tt = tensor(t);
      const r = e(device === undefined ? tt : tt.on(device), y);
      if (typeof r === 'number') return r;
      if (!(r instanceof Tensor)) throw new DTypeError(`${op}: events[${index}](t, y) must return a number or a one-element real Tensor, got ${r === null ? 'null' : typeof r}`);
      if (r.size !== 1) throw new ShapeError(`${op}: events[${index}](t, y) must return one value, got a tensor of shape [${r.shape.join(', ')}]`);
      if (isComplex(r.dtype)) throw new DTypeError(`${op}: events[${index}](t, y) must return a real value, got ${r.dtype}`);
      return Number(r.item());
    };
    return { index, terminal, direction, value };
  });
}

/** Indices of the events whose value changed sign between g and gNew in their direction (find_active_events). */
export function findActiveEvents(events: readonly Event[], g: readonly number[], gNew: readonly number[]): number[] {
  const active: number[] = [];
  events.forEach((e, i) => {
    const up = g[i]! <= 0 && gNew[i]! >= 0;
    const down = g[i]! >= 0 && gNew[i]! <= 0;
    if ((up && e.direction > 0) || (down && e.direction < 0) || ((up || down) && e.direction === 0)) active.push(i);
  });
  return active;
}

const signbit = (x: number): boolean => x < 0 || Object.is(x, -0);

/**
 * SciPy's brentq (scipy/optimize/Zeros/brentq.c): a zero of f in [xa, xb],
 * where f(xa) and f(xb) have opposite signs, to |Δx| < xtol + rtol·|x|.
 */
export function brentq(op: string, f: (x: number) => number, xa: number, xb: number, xtol: number, rtol: number, maxiter = 100): number {
  let xpre = xa,
    xcur = xb,
    xblk = 0,
    fblk = 0,
    spre = 0,
    scur = 0;
  let fpre = f(xpre),
    fcur = f(xcur);
  if (fpre === 0) return xpre;
  if (fcur === 0) return xcur;
  if (signbit(fpre) === signbit(fcur)) throw new ValueError(`${op}: the event function has the same sign (${fpre}, ${fcur}) at both ends of the step [${xa}, ${xb}] on the dense output; Brent's method needs a sign change`);
  for (let i = 0; i < maxiter; i++) {
    if (fpre !== 0 && fcur !== 0 && signbit(fpre) !== signbit(fcur)) {
      xblk = xpre;
      fblk = fpre;
      spre = scur = xcur - xpre;
    }
    if (Math.abs(fblk) < Math.abs(fcur)) {
      xpre = xcur;
      xcur = xblk;
      xblk = xpre;
      fpre = fcur;
      fcur = fblk;
      fblk = fpre;
    }
    const delta = (xtol + rtol * Math.abs(xcur)) / 2;
    const sbis = (xblk - xcur) / 2;
    if (fcur === 0 || Math.abs(sbis) < delta) return xcur;
    if (Math.abs(spre) > delta && Math.abs(fcur) < Math.abs(fpre)) {
      let stry: number;
      if (xpre === xblk) {
        stry = (-fcur * (xcur - xpre)) / (fcur - fpre); // interpolate
      } else {
        const dpre = (fpre - fcur) / (xpre - xcur); // extrapolate (inverse quadratic)
        const dblk = (fblk - fcur) / (xblk - xcur);
        stry = (-fcur * (fblk * dblk - fpre * dpre)) / (dblk * dpre * (fblk - fpre));
      }
      if (2 * Math.abs(stry) < Math.min(Math.abs(spre), 3 * Math.abs(sbis) - delta)) {
        spre = scur; // good short step
        scur = stry;
      } else {
        spre = sbis; // bisect
        scur = sbis;
      }
    } else {
      spre = sbis;
      scur = sbis;
    }
    xpre = xcur;
    fpre = fcur;
    xcur += Math.abs(scur) > delta ? scur : sbis > 0 ? delta : -delta;
    fcur = f(xcur);
  }
  return xcur; // the bracket still holds a zero; SciPy raises RuntimeError here (it does not happen for continuous e within 100 iterations)
}

/**
 * Roots of the active events in (tOld, t] on the step's dense output `sol`;
 * with a terminal one among them, only the roots up to the first terminal
 * root in the direction of integration are kept (handle_events).
 */
export function handleEvents(op: string, sol: (t: number) => Tensor, events: readonly Event[], active: number[], tOld: number, t: number): { active: number[]; roots: number[]; terminate: boolean } {
  let roots = active.map((i) => brentq(`${op}: events[${i}]`, (s) => events[i]!.value(s, sol(s)), tOld, t, 4 * EPS, 4 * EPS));
  if (!active.some((i) => events[i]!.terminal)) return { active, roots, terminate: false };
  // A stable sort by time in the direction of integration (numpy.argsort's quicksort is not stable, but ties of distinct events at one root are measure-zero).
  const order = roots.map((_, k) => k).sort((a, b) => (t > tOld ? roots[a]! - roots[b]! : roots[b]! - roots[a]!));
  active = order.map((k) => active[k]!);
  roots = order.map((k) => roots[k]!);
  const first = active.findIndex((i) => events[i]!.terminal);
  return { active: active.slice(0, first + 1), roots: roots.slice(0, first + 1), terminate: true };
}
