import type * as z from 'zod';
import { ConfigFileError, type ConfigIssue } from '../errors/config-file-error.js';

/** Turns zod issues into `{ path, reason }` pairs with dotted paths. */
export function configIssues(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    reason: issue.message,
  }));
}

/** Validates parsed file data against `schema`; throws `ConfigFileError` listing every bad field. */
export function validateConfig<S extends z.ZodType>(file: string, schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ConfigFileError(file, configIssues(result.error));
  return result.data;
}
