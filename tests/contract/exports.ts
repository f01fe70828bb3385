// The public surface the contract test covers, read from src/index.ts at run
// time (so a new export or method joins without editing this file):
//
//   'name'             every top-level export (functions, classes, objects)
//   'ns.name'          every export of the module namespaces (linalg, sparse, random),
//                      nested ones too ('nn.functional.relu')
//   'Class#member'     every public prototype member (methods and getters, inherited
//                      ones included) of the classes whose instances users call on:
//                      Tensor, the sparse matrices and SparseFactorization;
//   'Class.member'     the static members of those classes.
//
// "Public" is read from the sources: a member whose every declaration in the
// class chain is private, protected, #private or marked @internal is left out
// (the implementation's helpers are not the API and change with it). The class
// declarations are found by parsing src/ without type-checking (fast).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as rlx from '../../src/index.js';

/** Classes whose prototypes are part of the contract (instances flow through user code). */
export const PROTOTYPES: Record<string, abstract new (...a: never[]) => unknown> = {
  Tensor: rlx.Tensor,
  CsrMatrix: rlx.sparse.CsrMatrix,
  CscMatrix: rlx.sparse.CscMatrix,
  CooMatrix: rlx.sparse.CooMatrix,
  SparseFactorization: rlx.sparse.SparseFactorization,
};

const isNamespace = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Module]';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []));
}

/** Per class name in src/: member name -> whether some declaration of it is public. */
let classMembers: Map<string, Map<string, boolean>> | undefined;
function declaredMembers(): Map<string, Map<string, boolean>> {
  if (classMembers) return classMembers;
  classMembers = new Map();
  for (const file of tsFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!/\bclass\s/.test(text)) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isClassDeclaration(n) && n.name) {
        const m = classMembers!.get(n.name.text) ?? new Map<string, boolean>();
        for (const el of n.members) {
          if (!el.name || ts.isPrivateIdentifier(el.name)) continue;
          const name = ts.isIdentifier(el.name) || ts.isStringLiteral(el.name) ? el.name.text : undefined;
          if (name === undefined) continue;
          const mods = ts.canHaveModifiers(el) ? (ts.getModifiers(el) ?? []) : [];
          const hidden = mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword) || ts.getJSDocTags(el).some((t) => t.tagName.text === 'internal') || /@internal\b/.test(el.getFullText().slice(0, el.getLeadingTriviaWidth()));
          m.set(name, (m.get(name) ?? false) || !hidden);
        }
        classMembers!.set(n.name.text, m);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return classMembers;
}

/** Public prototype member names up the chain (below Object.prototype), without the constructor. */
function members(cls: abstract new (...a: never[]) => unknown): string[] {
  const decl = declaredMembers();
  const pub = new Map<string, boolean>();
  for (let p = cls.prototype as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const own = decl.get((p as { constructor: { name: string } }).constructor.name);
    for (const n of Object.getOwnPropertyNames(p)) {
      if (n === 'constructor') continue;
      // Public if any declaration in the chain is; a member we found no declaration of counts as public.
      pub.set(n, (pub.get(n) ?? false) || (own?.get(n) ?? true));
    }
  }
  return [...pub].filter(([, p]) => p).map(([n]) => n);
}

/** Every name of the public surface, as listed above. */
export function publicSurface(): string[] {
  const names: string[] = [];
  // Namespaces nest (nn.functional, optim.schedules): their members are 'nn.functional.relu'.
  const walk = (prefix: string, ns: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(ns)) {
      if (isNamespace(v)) walk(`${prefix}${k}.`, v);
      else names.push(prefix + k);
    }
  };
  walk('', rlx as unknown as Record<string, unknown>);
  for (const [cls, C] of Object.entries(PROTOTYPES)) {
    for (const m of members(C)) names.push(`${cls}#${m}`);
    // Static members (none today) would be 'Class.name'.
    for (const m of Object.getOwnPropertyNames(C)) if (!['length', 'name', 'prototype'].includes(m)) names.push(`${cls}.${m}`);
  }
  return names;
}
