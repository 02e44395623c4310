import * as z from 'zod';
import { objectShape } from '../../kernel/config/zod-introspection.js';

interface SchemaInternals {
  _zod: { def: { innerType?: z.ZodType } };
}

/**
 * Marks a config field as a secret (an API key, a token) through zod metadata. The
 * management page shows a secret blank with a set / not-set mark, and saving an empty
 * string keeps the value on disk. Only this marker makes a field secret: no field is
 * guessed secret from its name.
 *
 * ```ts
 * api_key: secret(z.string().default('')).describe('服务商的 API key')
 * ```
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ secret: true });
}

/** True when the schema, or a schema it wraps (`.default()`, `.optional()` ...), is marked by `secret()`. */
function isSecret(schema: z.ZodType): boolean {
  let current: z.ZodType | undefined = schema;
  while (current !== undefined) {
    if (z.globalRegistry.get(current)?.['secret'] === true) return true;
    current = (current as unknown as SchemaInternals)._zod.def.innerType;
  }
  return false;
}

function collect(shape: Record<string, z.ZodType>, prefix: string, found: Set<string>): void {
  for (const [key, schema] of Object.entries(shape)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isSecret(schema)) {
      found.add(path);
      continue;
    }
    const inner = objectShape(schema);
    if (inner !== undefined) collect(inner, path, found);
  }
}

/**
 * The dotted paths (`api_key`, `provider.token`) of the fields of `model` marked by
 * `secret()`, nested objects included. A marked object counts as one secret field.
 */
export function secretFields(model: z.ZodObject): Set<string> {
  const found = new Set<string>();
  collect(model.shape as Record<string, z.ZodType>, '', found);
  return found;
}
