import type * as z from 'zod';
import { ConfigFileError, type ConfigIssue } from '../errors/config-file-error.js';
import { reachesSecret, scrubSecretTexts, secretIssueReason, secretTextsIn, valueAtPath } from './secret-schema.js';

/**
 * Turns zod issues into `{ path, reason }` pairs with dotted paths. With the `schema` and
 * the `data` that were validated, no reason quotes a secret: an issue on (or inside) a
 * field marked secret gets a reason rebuilt from the issue's facts, never its message, and
 * any secret value from `data` that another message quotes (a whole-model refinement) is
 * replaced by `(secret)`.
 */
export function configIssues(error: z.ZodError, schema?: z.ZodType, data?: unknown): ConfigIssue[] {
  const secrets = schema === undefined ? [] : secretTextsIn(schema, data);
  return error.issues.map((issue) => {
    const onSecret = schema !== undefined && reachesSecret(schema, issue.path);
    const reason = onSecret ? secretIssueReason(issue, valueAtPath(data, issue.path)) : issue.message;
    return { path: issue.path.map(String).join('.'), reason: scrubSecretTexts(reason, secrets) };
  });
}

/**
 * Validates parsed file data against `schema`; throws `ConfigFileError` listing every bad
 * field, without quoting a secret value (see `configIssues`).
 */
export function validateConfig<S extends z.ZodType>(file: string, schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new ConfigFileError(file, configIssues(result.error, schema, data));
  return result.data;
}
