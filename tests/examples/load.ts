// Loads an example script (examples/NAME.mjs, plain JS importing the built
// dist/) by file URL, so the tests type-check without declarations for it.
import { existsSync } from 'node:fs';

export async function loadExample<T>(name: string): Promise<T> {
  if (!existsSync('dist/index.js')) throw new Error('examples import dist/: run npm run build first');
  const url = new URL(`../../examples/${name}.mjs`, import.meta.url).href;
  return (await import(url)) as T;
}
