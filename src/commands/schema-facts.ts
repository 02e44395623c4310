import type * as z from 'zod';

interface ZodDefinition {
  type: string;
  innerType?: z.ZodType;
}

function definitionOf(schema: z.ZodType): ZodDefinition {
  return (schema as unknown as { _zod: { def: ZodDefinition } })._zod.def;
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/default/nullable wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 10; depth += 1) {
    const definition = definitionOf(current);
    if (!WRAPPERS.has(definition.type) || definition.innerType === undefined) return current;
    current = definition.innerType;
  }
  return current;
}

/** A boolean option is a flag: `--verbose` alone means true. */
export function isBooleanSchema(schema: z.ZodType): boolean {
  return definitionOf(unwrapped(schema)).type === 'boolean';
}

/** True when leaving the value out is fine (optional, or with a default). */
export function acceptsMissing(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The `.describe()` text of the schema or of what it wraps. */
export function descriptionOf(schema: z.ZodType): string | undefined {
  return schema.description ?? unwrapped(schema).description;
}
