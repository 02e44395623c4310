import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { valueAt } from '../../kernel/config/value-at-path.js';
import { describeError } from '../../kernel/errors/describe-error.js';
import { ManifestError } from '../errors/manifest-error.js';
import { type PluginManifest, PluginManifestSchema } from './plugin-manifest.js';

export const MANIFEST_FILE_NAME = '_manifest.json';

/** Reads and validates `<folder>/_manifest.json`; throws `ManifestError` naming each bad field. */
export function readPluginManifest(folder: string): PluginManifest {
  const file = join(folder, MANIFEST_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ManifestError(folder, [{ field: '', reason: missing ? 'is missing' : `cannot be read: ${describeError(error)}` }], {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(folder, [{ field: '', reason: `is not valid JSON: ${(error as Error).message}` }], { cause: error });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ManifestError(folder, [{ field: '', reason: 'must be a JSON object' }]);
  }
  const result = PluginManifestSchema.safeParse(data);
  if (!result.success) {
    throw new ManifestError(
      folder,
      result.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        reason: valueAt(data, issue.path) === undefined ? '清单缺少必填字段 (required field is missing)' : issue.message,
      })),
    );
  }
  return Object.freeze(result.data);
}

