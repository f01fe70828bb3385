// The doctest's value check: an @example line of the form
//   <expression>;   // <literal> [any note]
// where the comment starts with a JSON-like literal (numbers, arrays, 'strings',
// true/false/null) is rewritten, on the same line, into a check that the
// expression's value equals the literal: Tensors compare by tolist(), typed
// arrays as arrays, numbers to the precision the literal is written with (half
// a unit in its last written digit; integers to 1e-9 relative). Lines whose
// comment is not such a literal (prose, "≈ ...", NaN) are left as they are.

/** The checker the rewritten lines call (one line: it goes on the prelude's line, so line numbers stay). */
export const CHECK_HELPER =
  'const __norm = (v) => (v != null && typeof v === "object" && typeof v.tolist === "function") ? __norm(v.tolist()) : ArrayBuffer.isView(v) ? Array.from(v) : Array.isArray(v) ? v.map(__norm) : v; ' +
  'const __eq = (a, e, tol) => Array.isArray(e) ? Array.isArray(a) && a.length === e.length && e.every((x, i) => __eq(a[i], x, tol)) : typeof e === "number" ? typeof a === "number" && (a === e || Math.abs(a - e) <= Math.max(tol, 1e-9 * Math.abs(e))) : a === e; ' +
  'const __expect = (v, e, tol, line) => { const a = __norm(v); if (!__eq(a, e, tol)) throw new Error(`line ${line}: the comment says ${JSON.stringify(e)}, the value is ${JSON.stringify(a)}`); };';

const SKIP_START = /^(const|let|var|for|if|while|import|export|function|class|await|return|try|\}|\{)\b/;

/** The literal a comment starts with and the tolerance its digits give, or undefined. */
export function leadingLiteral(comment: string): { value: unknown; tol: number; text: string } | undefined {
  const text = comment.trim();
  if (!/^[-\d[\]'"tfn]/.test(text)) return undefined;
  // Try the longest prefix ending at a word boundary that parses.
  const cuts: number[] = [text.length];
  for (let i = text.length - 1; i > 0; i--) if (/\s/.test(text[i]!) && !/\s/.test(text[i - 1]!)) cuts.push(i);
  for (const end of cuts) {
    const raw = text.slice(0, end).replace(/[,;:]$/, '');
    const json = raw.replace(/'([^'\\]*)'/g, (_, s: string) => JSON.stringify(s));
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      continue;
    }
    if (value === null || typeof value === 'object' ? !Array.isArray(value) && value !== null : false) continue;
    return { value, tol: toleranceOf(raw), text: raw };
  }
  return undefined;
}

/** Half a unit in the last written digit of the literal's most precise non-integer (0 when all are integers). */
function toleranceOf(raw: string): number {
  let tol = Infinity;
  for (const m of raw.matchAll(/-?\d+(?:\.(\d+))?(?:[eE]([-+]?\d+))?/g)) {
    const decimals = m[1]?.length ?? 0;
    const exp = m[2] !== undefined ? Number(m[2]) : 0;
    if (decimals === 0 && m[2] === undefined) continue; // an integer: exact up to 1e-9 relative
    tol = Math.min(tol, 0.5 * 10 ** (exp - decimals) * 1.000001);
  }
  return tol === Infinity ? 0 : tol;
}

/** The block with every checkable line rewritten in place (same line count). */
export function withChecks(code: string): { code: string; checks: number } {
  let checks = 0;
  const lines = code.split('\n').map((line, i) => {
    const m = /^(\s*)([^/].*?);\s*\/\/(.*)$/.exec(line);
    if (!m || SKIP_START.test(m[2]!.trim()) || /[=]\s*[^=>]/.test(m[2]!.replace(/[=!<>]==?|=>/g, ''))) return line;
    const lit = leadingLiteral(m[3]!);
    if (!lit) return line;
    checks++;
    return `${m[1]}__expect((${m[2]}), ${JSON.stringify(lit.value)}, ${lit.tol}, ${i + 1});`;
  });
  return { code: lines.join('\n'), checks };
}
