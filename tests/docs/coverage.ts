// Doc coverage of the public API, read with the TypeScript compiler API (no
// typedoc run: that takes tens of seconds). Walks src/index.ts's exports, through
// `export * as ns` namespaces, and reports for each exported value (function,
// class, const) whether its doc comment has a summary and an @example. This is
// what typedoc renders (npm run docs), so a gap here is a gap in the reference.
// It also extracts the ```ts blocks of every @example (exports and the public
// members of exported classes) for the doctest, tests/docs/examples.test.ts.

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
  /** A function, or a const whose type can be called (`export const zeros = (...) => ...`). */
  callable: boolean;
  /** A class extending Error (RlxError and its subclasses): exempt from the example rule. */
  errorClass: boolean;
}

/** One ```ts block of an @example tag, where it is in the source. */
export interface ExampleBlock {
  /** Public name of the documented thing: 'linalg.solve', 'Tensor.sum'. */
  name: string;
  /** Source file, relative to the repository root. */
  file: string;
  /** 1-based line in `file` of the block's first code line (the line after the ```ts fence). */
  line: number;
  code: string;
}

/** A problem with an @example tag itself (no ```ts block, unclosed fence): the doctest would miss it. */
export interface ExampleTagProblem {
  name: string;
  file: string;
  line: number;
  problem: string;
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

/**
 * The ```ts blocks of the @example tags of one doc comment, read from the raw
 * comment text: TypeScript's JSDoc parser would reflow the code and could take
 * an `@` inside it for a tag. An @example section runs to the next tag line.
 */
function exampleBlocksOf(doc: ts.JSDoc, name: string, problems: ExampleTagProblem[]): Omit<ExampleBlock, 'name'>[] {
  const sf = doc.getSourceFile();
  const file = path.relative(ROOT, sf.fileName);
  const first = sf.getLineAndCharacterOfPosition(doc.getStart(sf)).line; // 0-based line of '/**'
  const lines = sf.text.slice(doc.getStart(sf), doc.end).split('\n')
    .map((l, i) => (i === 0 ? l.replace(/^\/\*\*/, '') : l).replace(/\*\/\s*$/, '').replace(/^\s*\*(?: |$)/, ''));
  const out: Omit<ExampleBlock, 'name'>[] = [];
  let tagLine = -1; // line of the current @example, -1 outside one
  let blocksInTag = 0;
  let fence: { line: number; code: string[] } | null = null;
  const endTag = (): void => {
    if (tagLine >= 0 && blocksInTag === 0) problems.push({ name, file, line: first + tagLine + 1, problem: '@example without a ```ts block' });
    tagLine = -1;
  };
  lines.forEach((raw, i) => {
    const l = raw.trimEnd();
    if (fence !== null) {
      if (/^\s*```\s*$/.test(l)) {
        out.push({ file, line: first + fence.line + 2, code: fence.code.join('\n') + '\n' });
        fence = null;
      } else fence.code.push(raw);
      return;
    }
    if (/^@\w+/.test(l)) {
      endTag();
      if (/^@example\b/.test(l)) { tagLine = i; blocksInTag = 0; }
      return;
    }
    if (tagLine >= 0 && /^\s*```/.test(l)) {
      if (/^\s*```(ts|typescript)\s*$/.test(l)) { fence = { line: i, code: [] }; blocksInTag++; }
      else problems.push({ name, file, line: first + i + 1, problem: `@example fence '${l.trim()}' is not \`\`\`ts` });
    }
  });
  if (fence !== null) problems.push({ name, file, line: first + (fence as { line: number }).line + 1, problem: 'unclosed ```ts fence' });
  endTag();
  return out;
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

export interface ApiWalk {
  exports: ExportDoc[];
  /** Every @example block of the exports and of their classes' public members, each declaration once. */
  examples: ExampleBlock[];
  problems: ExampleTagProblem[];
  /** Names a user imports from 'rlx' as values (the doctest's prelude). */
  rootValues: string[];
}

/** Every public export reachable from src/index.ts, namespaces expanded (the namespace itself listed too). */
export function collectExports(): ExportDoc[] {
  return walkApi().exports;
}

const isPublicMember = (m: ts.ClassElement): boolean =>
  !(ts.getCombinedModifierFlags(m as unknown as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) &&
  m.name !== undefined && !ts.isPrivateIdentifier(m.name) && !m.name.getText().startsWith('_');

/** The walk behind collectExports, with the @example blocks and the root value names. */
export function walkApi(): ApiWalk {
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
  const examples: ExampleBlock[] = [];
  const problems: ExampleTagProblem[] = [];
  const seen = new Set<ts.JSDoc>(); // a declaration reachable under two names shows its examples once
  const addExamples = (decls: readonly ts.Node[], name: string): void => {
    for (const d of decls) {
      for (const doc of jsDocsOf(d as ts.Declaration)) {
        if (seen.has(doc)) continue;
        seen.add(doc);
        for (const b of exampleBlocksOf(doc, name, problems)) examples.push({ name, ...b });
      }
    }
  };
  const isErrorClass = (sym: ts.Symbol): boolean => {
    if (!(sym.flags & ts.SymbolFlags.Class)) return false;
    const base = (t: ts.Type): boolean => t.getSymbol()?.getName() === 'Error' || (t.isClassOrInterface() && checker.getBaseTypes(t).some(base));
    return base(checker.getDeclaredTypeOfSymbol(sym));
  };

  const walk = (moduleSym: ts.Symbol, prefix: string): void => {
    for (const exp of checker.getExportsOfModule(moduleSym)) {
      const name = prefix + exp.getName();
      const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
      const decls = target.getDeclarations() ?? [];
      const file = decls[0] ? path.relative(ROOT, decls[0].getSourceFile().fileName) : '';
      if (decls[0] && ts.isSourceFile(decls[0])) {
        // `export * as ns from './x.js'`: the namespace's doc is on the export declaration.
        const exportDecls = (exp.getDeclarations() ?? []).map((d) => (ts.isNamespaceExport(d) ? d.parent : d));
        out.push({ name, kind: 'namespace', file, ...summaryOf(exportDecls as ts.Declaration[]), callable: false, errorClass: false });
        walk(target, name + '.');
        continue;
      }
      const kind = kindOf(target);
      const callable = kind === 'function' || (kind === 'const' && decls[0] !== undefined &&
        checker.getTypeOfSymbolAtLocation(target, decls[0]).getCallSignatures().length > 0);
      out.push({ name, kind, file, ...summaryOf(decls), callable, errorClass: isErrorClass(target) });
      addExamples(decls, name);
      if (kind === 'class') {
        for (const d of decls) {
          if (!ts.isClassDeclaration(d)) continue;
          for (const m of d.members) if (isPublicMember(m)) addExamples([m], `${name}.${ts.isConstructorDeclaration(m) ? 'constructor' : m.name!.getText()}`);
        }
      }
    }
  };
  const sym = checker.getSymbolAtLocation(entry);
  if (sym === undefined) throw new Error('doc coverage: src/index.ts has no module symbol');
  walk(sym, '');
  const rootValues = checker.getExportsOfModule(sym)
    .filter((e) => (e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e).flags & ts.SymbolFlags.Value)
    .map((e) => e.getName()).sort();
  return { exports: out.sort((a, b) => a.name.localeCompare(b.name)), examples, problems, rootValues };
}

/** Value exports (what a user calls or constructs): the ones that must carry a summary. */
export const isValue = (e: ExportDoc): boolean => e.kind === 'function' || e.kind === 'class' || e.kind === 'const' || e.kind === 'enum';
