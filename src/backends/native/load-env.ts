// Environment variables that OpenBLAS reads once, when the library
// initialises (it is loaded with the addon): rlx sets its choices only for
// the duration of that load, so the variables are not left behind and child
// processes see the environment the user gave (openblas-core.ts,
// openblas-spin.ts).

/**
 * Runs `load` with `name` set to `value` (undefined: nothing set), then
 * restores the variable as it was (present with its value, or absent).
 */
export function withEnvVar<T>(name: string, value: string | undefined, load: () => T): T {
  if (value === undefined) return load();
  const had = Object.prototype.hasOwnProperty.call(process.env, name);
  const before = process.env[name];
  process.env[name] = value;
  try {
    return load();
  } finally {
    if (had) process.env[name] = before;
    else delete process.env[name];
  }
}
