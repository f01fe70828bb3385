// The 3DGS layout of a PLY vertex: which property holds which parameter.
// Properties are found by name, so other orders, extra properties (normals,
// colours of point-cloud tools, anything) and float/double/integer types are
// all read; f_rest_* must be f_rest_0..f_rest_{M-1} with M = 3(K−1) for an
// SH degree 0–3 (M ∈ {0, 9, 24, 45}). The slots are in the order readPly
// fills the Gaussians: x y z, rot_0..3, scale_0..2, opacity, f_dc_0..2,
// f_rest_0..M-1.

import type { PlyElement } from './ply-header.js';
import { SplatFileError } from './errors.js';

/** f_rest count → SH degree (K − 1 = (d + 1)² − 1 coefficients per channel, 3 channels). */
const DEGREE_OF_REST: Record<number, number> = { 0: 0, 9: 1, 24: 2, 45: 3 };

/** The property names of the 3DGS layout for SH degree d, in the order writePly writes them. */
export function plyPropertyNames(degree: number): string[] {
  const rest = 3 * ((degree + 1) ** 2 - 1);
  return [
    'x', 'y', 'z', 'nx', 'ny', 'nz',
    'f_dc_0', 'f_dc_1', 'f_dc_2',
    ...Array.from({ length: rest }, (_, i) => `f_rest_${i}`),
    'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3',
  ];
}

/** Where each parameter of the vertex element is: `slots[j]` is the property index of slot j (order in the file header above). */
export interface GaussianLayout {
  /** Coefficients per channel K = (d + 1)². */
  readonly k: number;
  readonly slots: Int32Array;
}

/** Finds the 3DGS properties of `vertex` by name; a missing one or an f_rest count that is no SH degree is a SplatFileError at the element's line. */
export function gaussianLayout(vertex: PlyElement): GaussianLayout {
  const index = new Map(vertex.properties.map((p, i) => [p.name, i]));
  const rest = vertex.properties.filter((p) => /^f_rest_[0-9]+$/.test(p.name)).length;
  const degree = DEGREE_OF_REST[rest];
  if (degree === undefined) {
    throw new SplatFileError('ply', vertex.line, `element vertex has ${rest} f_rest properties; expected 0, 9, 24 or 45 (SH degree 0, 1, 2 or 3)`);
  }
  const names = ['x', 'y', 'z', 'rot_0', 'rot_1', 'rot_2', 'rot_3', 'scale_0', 'scale_1', 'scale_2', 'opacity', 'f_dc_0', 'f_dc_1', 'f_dc_2'];
  for (let i = 0; i < rest; i++) names.push(`f_rest_${i}`);
  const slots = new Int32Array(names.length);
  names.forEach((name, j) => {
    const i = index.get(name);
    if (i === undefined) {
      const what = name.startsWith('f_rest_') ? `${name} (f_rest must be numbered 0..${rest - 1})` : name;
      throw new SplatFileError('ply', vertex.line, `element vertex has no property ${what}; the 3DGS layout needs x y z f_dc_0..2 [f_rest_*] opacity scale_0..2 rot_0..3`);
    }
    if (vertex.properties[i]!.listCount !== undefined) throw new SplatFileError('ply', vertex.line, `property ${name} of element vertex is a list; expected a scalar`);
    slots[j] = i;
  });
  return { k: (degree + 1) ** 2, slots };
}
