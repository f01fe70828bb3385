// Type-level assertions for the compile-only files of tests/types/ (checked by
// compile.test.ts with the project's TypeScript and with TypeScript 5.0).

/** True when A and B are the same type (not merely assignable either way). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only for `true`: `expectTrue<Equal<typeof x, Tensor>>()`. */
export function expectTrue<T extends true>(): T | void {}
