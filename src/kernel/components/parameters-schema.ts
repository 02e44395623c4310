import type * as z from 'zod';

/** A JSON Schema for an object of named parameters, as model tool declarations use. */
export interface JsonObjectSchema {
  /** Always `'object'`: parameters are named. */
  type: 'object';
  /** Each parameter's JSON Schema, by name. */
  properties?: Record<string, Record<string, unknown>>;
  /** The names of the parameters that must be given; each must be in `properties`. */
  required?: string[];
  /** Whether (or with what schema) parameters beyond `properties` are accepted. */
  additionalProperties?: boolean | Record<string, unknown>;
  [keyword: string]: unknown;
}

/** Parameters of an action or tool: a JSON Schema object, or a zod object schema. */
export type ParametersSchema = JsonObjectSchema | z.ZodObject;

/** True for a zod schema (of any copy of zod 4). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** Why `value` cannot be a parameters schema, or `undefined` when it can. */
export function parametersSchemaProblem(value: unknown): string | undefined {
  if (isZodSchema(value)) {
    return (value as { _zod: { def: { type: string } } })._zod.def.type === 'object' ? undefined : 'must be a zod object schema (z.object)';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON Schema object or a zod object schema';
  const schema = value as Record<string, unknown>;
  if (schema['type'] !== 'object') return `must have type "object", got ${JSON.stringify(schema['type'])}`;
  const properties = schema['properties'];
  if (properties !== undefined && (typeof properties !== 'object' || properties === null || Array.isArray(properties))) {
    return '.properties must be an object';
  }
  const required = schema['required'];
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((key) => typeof key === 'string')) return '.required must be an array of strings';
    const known = new Set(Object.keys((properties as Record<string, unknown> | undefined) ?? {}));
    const unknown = required.filter((key) => !known.has(key));
    if (unknown.length > 0) return `.required names properties that do not exist: ${unknown.join(', ')}`;
  }
  return undefined;
}
