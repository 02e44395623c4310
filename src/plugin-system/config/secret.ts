import type * as z from 'zod';
import { containsSecret, isMarkedSecret } from '../../kernel/config/secret-schema.js';
import { objectShape } from '../../kernel/config/zod-introspection.js';
import { PluginConfigError } from './plugin-config-error.js';

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  items?: readonly z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/**
 * Marks a config field as a secret (an API key, a token) through zod metadata. The
 * management page shows a secret blank with a set / not-set mark, saving an empty string
 * keeps the value on disk, and log lines and errors show `(secret)` instead of its value.
 * Only this marker makes a field secret: no field is guessed secret from its name.
 *
 * ```ts
 * api_key: secret(z.string().default('')).describe('服务商的 API key')
 * ```
 *
 * Where it may go: on a field of the model or of a nested object, inside or outside
 * `.default()`, `.prefault()`, `.optional()`, `.nullable()`, `.readonly()`, `.catch()`, and
 * on either side of `.transform()` / `.pipe()`; a marked object or array is one secret field.
 * Not on a part of a field's value (an array element, a record value, a union option, a field
 * of an object under `.transform()`): the page and the save can only keep a whole field
 * secret, so such a model is refused at load (`MG_PLUGIN_CONFIG`) naming the field.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ secret: true });
}

/** The schemas that hold the whole value of a field: itself, through wrappers and both sides of pipes. */
function wholeValueSchemas(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  const inner = [def.innerType, def.type === 'pipe' ? def.in : undefined, def.type === 'pipe' ? def.out : undefined];
  return [schema, ...inner.filter((item): item is z.ZodType => item !== undefined).flatMap(wholeValueSchemas)];
}

/** True when the field as a whole is marked by `secret()`, outside or inside its wrappers and pipes. */
function isSecretField(schema: z.ZodType): boolean {
  return wholeValueSchemas(schema).some(isMarkedSecret);
}

/** Where under `schema` the first secret mark sits, as a path such as `[]`, `.*.token` or ` (union option 1)`; undefined for none. */
function markRoute(schema: z.ZodType, seen = new Set<z.ZodType>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  if (isMarkedSecret(schema)) return '';
  const def = defOf(schema);
  const steps: [string, z.ZodType | null | undefined][] = [
    ['', def.innerType],
    ['', def.in],
    ['', def.out],
    ['', def.type === 'lazy' ? def.getter?.() : undefined],
    ...(def.options ?? []).map((option, index): [string, z.ZodType] => [` (union option ${index + 1})`, option]),
    [' (intersection)', def.left],
    [' (intersection)', def.right],
    ...Object.entries(def.shape ?? {}).map(([key, inner]): [string, z.ZodType] => [`.${key}`, inner]),
    [def.type === 'record' || def.type === 'map' ? '.*' : '[]', def.element ?? def.valueType],
    ...(def.items ?? []).map((item, index): [string, z.ZodType] => [`[${index}]`, item]),
    ['[]', def.rest],
  ];
  for (const [step, inner] of steps) {
    if (inner === undefined || inner === null) continue;
    const route = markRoute(inner, seen);
    if (route !== undefined) return `${step}${route}`;
  }
  return undefined;
}

/** A field that holds a secret mark on a part of its value, which cannot be kept secret on its own. */
export interface MisplacedSecret {
  /** Dotted path of the field inside `[plugin]`. */
  field: string;
  /** Where in the field's value the mark sits, e.g. `accounts[].token` or `tokens.*`. */
  at: string;
}

interface SecretWalk {
  fields: Set<string>;
  misplaced: MisplacedSecret[];
}

function walk(shape: Record<string, z.ZodType>, prefix: string, found: SecretWalk): void {
  for (const [key, schema] of Object.entries(shape)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isSecretField(schema)) {
      found.fields.add(path);
      continue;
    }
    const inner = objectShape(schema);
    if (inner !== undefined) {
      walk(inner, path, found);
      continue;
    }
    if (containsSecret(schema)) {
      // Kept secret as a whole all the same, so that nothing shows a part of it.
      found.fields.add(path);
      found.misplaced.push({ field: path, at: `${path}${markRoute(schema) ?? ''}` });
    }
  }
}

function walkModel(model: z.ZodObject): SecretWalk {
  const found: SecretWalk = { fields: new Set(), misplaced: [] };
  walk(model.shape as Record<string, z.ZodType>, '', found);
  return found;
}

/**
 * The dotted paths (`api_key`, `provider.token`) of the fields of `model` marked by
 * `secret()`, nested objects included. A marked object counts as one secret field. A field
 * with a mark on a part of its value (see `misplacedSecrets`) counts as one secret field too,
 * so that the page never shows any of it.
 */
export function secretFields(model: z.ZodObject): Set<string> {
  return walkModel(model).fields;
}

/** The fields of `model` that put `secret()` on a part of their value, which the host refuses. */
export function misplacedSecrets(model: z.ZodObject): MisplacedSecret[] {
  return walkModel(model).misplaced;
}

/** Why `misplaced` is refused, for errors and the page. */
export function misplacedSecretReason(misplaced: MisplacedSecret): string {
  return `puts secret() on a part of its value (at ${misplaced.at}), which cannot be kept secret on its own`;
}

/**
 * Throws `PluginConfigError` (`MG_PLUGIN_CONFIG`) naming the first field of `model` that puts
 * `secret()` on a part of its value: inside an array, a record, a union or an object under a
 * pipe, the web console could neither show it as set / not set nor keep it on an empty save.
 */
export function assertSecretsPlaced(model: z.ZodObject, pluginId: string, file: string): void {
  const [first] = misplacedSecrets(model);
  if (first === undefined) return;
  throw new PluginConfigError(pluginId, file, first.field, misplacedSecretReason(first), {
    fix:
      `Mark the whole field instead, e.g. ${first.field}: secret(z.array(z.string())).default([]), ` +
      'or give the secret a field of its own (secret() may wrap or sit inside .default(), .optional(), .nullable(), .transform() and .pipe(), and nested objects may hold secret fields).',
  });
}
