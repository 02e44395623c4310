/**
 * Characters allowed in a plugin id or a component name. Plugin ids such as
 * `example.hello-yueli` use dots and dashes; `:` is the separator and never allowed.
 */
const PART_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Why `value` cannot be a signature part, or `undefined` when it can. */
export function signaturePartProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${typeof value}`;
  if (value.length === 0) return 'is empty';
  if (value.includes(':')) return `"${value}" contains ":", which separates the parts`;
  if (!PART_PATTERN.test(value)) return `"${value}" may only contain letters, digits, "_", "." and "-"`;
  return undefined;
}
