import type * as z from 'zod';
import { objectShape } from './zod-introspection.js';

/** Dotted paths of keys in `data` that `schema` does not declare (two levels: tables and fields). */
export function unknownKeys(schema: z.ZodObject, data: Record<string, unknown>): string[] {
  const found: string[] = [];
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const [key, value] of Object.entries(data)) {
    const field = shape[key];
    if (field === undefined) {
      found.push(key);
      continue;
    }
    const inner = objectShape(field);
    if (inner === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    for (const innerKey of Object.keys(value)) {
      if (!(innerKey in inner)) found.push(`${key}.${innerKey}`);
    }
  }
  return found;
}
