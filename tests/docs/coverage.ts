// Doc coverage of the public API, read with the TypeScript compiler API (no
// typedoc run: that takes tens of seconds). Walks src/index.ts's exports, through
// `export * as ns` namespaces, and reports for each exported value (function,
// class, const) whether its doc comment has a summary and an @example. This is
// what typedoc renders (npm run docs), so a gap here is a gap in the reference.

import ts from 'typescript';
import path from 'node:path';

export type ExportKind = 'function' | 'class' | 'const' | 'enum' | 'type' | 'namespace';

export interface ExportDoc {
  /** Dotted public name: 'matmul', 'linalg.solve', 'sparse.raw.cg'. */
  name: string;
  kind: ExportKind;
  /** Source file of the declaration, relative to the repository root. */
  file: string;
  /** First sentence of the doc comment ('' when there is none). */
  summary: string;
  hasExample: boolean;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
export const ENTRY = path.join(ROOT, 'src/index.ts');

function kindOf(sym: ts.Symbol): ExportKind {
  const f = sym.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) return 'namespace';
  return 'type';
}

/** The JSDoc blocks attached to a declaration (a const's live on its statement). */
function jsDocsOf(decl: ts.Declaration): ts.JSDoc[] {
  let node: ts.Node = decl;
  if (ts.isVariableDeclaration(node)) node = node.parent.parent; // VariableStatement
  return ts.getJSDocCommentsAndTags(node).filter((d): d is ts.JSDoc => ts.isJSDoc(d));
}

function commentText(c: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c.map((p) => (p.kind === ts.SyntaxKind.JSDocText ? p.text : p.getText())).join('');
}

/** First sentence (up to the first '. ' or blank line) of the first non-empty doc comment. */
function summaryOf(decls: readonly ts.Declaration[]): { summary: string; hasExample: boolean } {
  let summary = '';
  let hasExample = false;
  for (const d of decls) {
    for (const doc of jsDocsOf(d)) {
      const text = commentText(doc.comment).trim();
      if (summary === '' && text !== '') summary = text.split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');
      if (doc.tags?.some((t) => t.tagName.text === 'example')) hasExample = true;
    }
  }
  return { summary, hasExample };
}

/** Every public export reachable from src/index.ts, namespaces expanded (the namespace itself listed too). */
export function collectExports(): ExportDoc[] {
  const program = ts.createProgram([ENTRY], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  if (entry === undefined) throw new Error(`doc coverage: cannot read ${ENTRY}`);
  const out: ExportDoc[] = [];

  const walk = (moduleSym: ts.Symbol, prefix: string): void => {
    for (const exp of checker.getExportsOfModule(moduleSym)) {
      const name = prefix + exp.getName();
      const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
      const decls = target.getDeclarations() ?? [];
      const file = decls[0] ? path.relative(ROOT, decls[0].getSourceFile().fileName) : '';
      if (decls[0] && ts.isSourceFile(decls[0])) {
        // `export * as ns from './x.js'`: the namespace's doc is on the export declaration.
        const exportDecls = (exp.getDeclarations() ?? []).map((d) => (ts.isNamespaceExport(d) ? d.parent : d));
        out.push({ name, kind: 'namespace', file, ...summaryOf(exportDecls as ts.Declaration[]) });
        walk(target, name + '.');
        continue;
      }
      out.push({ name, kind: kindOf(target), file, ...summaryOf(decls) });
    }
  };
  const sym = checker.getSymbolAtLocation(entry);
  if (sym === undefined) throw new Error('doc coverage: src/index.ts has no module symbol');
  walk(sym, '');
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Value exports (what a user calls or constructs): the ones that must carry a summary. */
export const isValue = (e: ExportDoc): boolean => e.kind === 'function' || e.kind === 'class' || e.kind === 'const' || e.kind === 'enum';
