import * as z from 'zod';

/** What a secret value is shown as in log lines, error messages and the web console. */
export const SECRET_PLACEHOLDER = '(secret)';

/** Secret texts shorter than this are not scrubbed from messages: they would mangle them, and hide nothing. */
const SHORTEST_SCRUBBED_SECRET = 4;

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  options?: readonly z.ZodType[];
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: readonly z.ZodType[];
  rest?: z.ZodType | null;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

function present(schemas: readonly (z.ZodType | null | undefined)[]): z.ZodType[] {
  return schemas.filter((schema): schema is z.ZodType => schema !== undefined && schema !== null);
}

/** True when `schema` itself carries the `secret: true` metadata that `secret()` (or `.meta({ secret: true })`) adds. */
export function isMarkedSecret(schema: z.ZodType): boolean {
  return z.globalRegistry.get(schema)?.['secret'] === true;
}

/**
 * The schemas that validate the same value as `schema`: the inner type of a wrapper
 * (`.default()`, `.optional()` ...), both sides of a pipe (`.transform()`, `.pipe()`) or an
 * intersection, every option of a union, the target of `z.lazy()`.
 */
export function sameValueSchemas(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.type === 'lazy' && def.getter !== undefined) return [def.getter()];
  return present([def.innerType, def.in, def.out, def.left, def.right, ...(def.options ?? [])]);
}

/** The schema of the part of the value at `key` (an object key, an array index, a record key), without unwrapping. */
function partSchema(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return def.shape !== undefined && Object.hasOwn(def.shape, key) ? def.shape[key as string] : (def.catchall ?? undefined);
    case 'array':
      return def.element;
    case 'tuple':
      return def.items?.[Number(key)] ?? def.rest ?? undefined;
    case 'record':
    case 'map':
    case 'set':
      return def.valueType;
    default:
      return undefined;
  }
}

/** Every schema directly under `schema`, keys of records and maps included. */
function childSchemas(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  return present([
    ...sameValueSchemas(schema),
    ...Object.values(def.shape ?? {}),
    def.catchall,
    def.element,
    ...(def.items ?? []),
    def.rest,
    def.keyType,
    def.valueType,
  ]);
}

/** True when `schema` or anything under it (array elements, record values, union options ...) is marked secret. */
export function containsSecret(schema: z.ZodType, seen = new Set<z.ZodType>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (isMarkedSecret(schema)) return true;
  return childSchemas(schema).some((child) => containsSecret(child, seen));
}

/**
 * True when the value at `path` inside a value of `schema` is, or holds, something secret:
 * a schema along the path is marked secret, or the schema at the end of the path contains a
 * secret. Wrappers, pipes, unions and intersections are looked through; records and arrays
 * are followed to their values. Used to decide what a log line or an error may quote.
 */
export function reachesSecret(schema: z.ZodType, path: readonly PropertyKey[], seen = new Map<z.ZodType, Set<number>>()): boolean {
  return reaches(schema, path, 0, seen);
}

function reaches(schema: z.ZodType, path: readonly PropertyKey[], index: number, seen: Map<z.ZodType, Set<number>>): boolean {
  const visited = seen.get(schema) ?? new Set<number>();
  if (visited.has(index)) return false;
  visited.add(index);
  seen.set(schema, visited);
  if (isMarkedSecret(schema)) return true;
  if (index === path.length) return containsSecret(schema);
  if (sameValueSchemas(schema).some((inner) => reaches(inner, path, index, seen))) return true;
  const part = partSchema(schema, path[index]!);
  return part !== undefined && reaches(part, path, index + 1, seen);
}

/** The value at `path` inside nested tables and arrays, or `undefined`. */
export function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * The texts of the secret values inside `data` (strings, and numbers as written), for
 * scrubbing messages that quote them: a whole-model refinement may build its message from
 * any field. Texts shorter than four characters are left out.
 */
export function secretTextsIn(schema: z.ZodType, data: unknown): string[] {
  const texts = new Set<string>();
  const visit = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, Array.isArray(value) ? Number(key) : key]);
      return;
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return;
    const text = String(value);
    if (text.length >= SHORTEST_SCRUBBED_SECRET && reachesSecret(schema, path)) texts.add(text);
  };
  visit(data, []);
  // Longest first, so that a secret containing another is replaced whole.
  return [...texts].sort((left, right) => right.length - left.length);
}

/** `text` with every occurrence of each of `secrets` replaced by `(secret)`. */
export function scrubSecretTexts(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(SECRET_PLACEHOLDER);
  return out;
}

const english = z.locales.en();

/**
 * The reason for an issue on a secret field, never taken from `issue.message`: a custom
 * message can quote the value (`error: (issue) => \`bad key ${issue.input}\``). zod's own
 * English text is rebuilt from the issue's facts, which hold the schema's rules and, through
 * `input`, only the type of the value; the messages that list the allowed values (an enum, a
 * literal, which may be the secret itself) and custom checks get a text of their own. For
 * an empty or absent value the model's own message is kept: there is nothing it could quote.
 */
export function secretIssueReason(issue: z.core.$ZodIssue, input: unknown): string {
  // An empty value has nothing to quote: keep the model's own words ("API key is required").
  if (input === undefined || input === null || input === '') return issue.message;
  if (issue.code === 'invalid_value') return 'Invalid option: not one of the values the model allows';
  if (issue.code === 'custom') return "Invalid input: fails the config model's own check (its message is not shown for a secret field)";
  const rebuilt = english.localeError({ ...issue, input } as unknown as Parameters<typeof english.localeError>[0]);
  const message = typeof rebuilt === 'string' ? rebuilt : rebuilt?.message;
  return message ?? 'Invalid input';
}
