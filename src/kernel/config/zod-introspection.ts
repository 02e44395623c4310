import type * as z from 'zod';

interface ZodInternals {
  _zod: { def: { type: string; innerType?: z.ZodType; defaultValue?: unknown } };
  description?: string;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function internals(schema: z.ZodType): ZodInternals {
  return schema as unknown as ZodInternals;
}

/** The schema under `.default()`, `.optional()`, `.prefault()` and similar wrappers. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const { def } = internals(current)._zod;
    if (!WRAPPERS.has(def.type) || def.innerType === undefined) return current;
    current = def.innerType;
  }
}

/** The `.describe()` text of a field, wherever in its wrapper chain it was set. */
export function describeSchema(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  while (current !== undefined) {
    const own = internals(current);
    if (typeof own.description === 'string' && own.description !== '') return own.description;
    current = WRAPPERS.has(own._zod.def.type) ? own._zod.def.innerType : undefined;
  }
  return undefined;
}

/** The zod type name after unwrapping (`object`, `string`, `number`, `boolean` ...). */
export function schemaType(schema: z.ZodType): string {
  return internals(unwrapSchema(schema))._zod.def.type;
}

/** The shape of an object schema (after unwrapping), or `undefined` for other types. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const inner = unwrapSchema(schema) as unknown as { shape?: Record<string, z.ZodType> };
  return schemaType(schema) === 'object' ? inner.shape : undefined;
}
