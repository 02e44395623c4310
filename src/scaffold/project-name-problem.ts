/** The longest npm package name. */
const MAX_NAME_LENGTH = 214;

/**
 * Why `name` cannot name a new bot project, or `undefined` when it can. The name is both the
 * folder created and the `name` in its package.json, so it follows npm's rules for a package
 * name (lower case, URL-safe, no scope) and must not be `moonglass`, which the project depends on.
 */
export function projectNameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name.length > MAX_NAME_LENGTH) return `the name is ${name.length} characters long; npm allows at most ${MAX_NAME_LENGTH}`;
  if (name !== name.toLowerCase()) return 'npm package names are lower case';
  if (name.startsWith('.') || name.startsWith('_')) return 'a package name must not start with "." or "_"';
  if (!/^[a-z0-9][a-z0-9._~-]*$/.test(name)) {
    return 'use only lower-case letters, digits, "-", ".", "_" and "~" (no spaces, slashes or scopes): the name is also the folder created';
  }
  if (['node_modules', 'favicon.ico'].includes(name)) return `npm reserves the name "${name}"`;
  if (name === 'moonglass') return 'the project depends on the package "moonglass", so it cannot have that name itself';
  return undefined;
}
