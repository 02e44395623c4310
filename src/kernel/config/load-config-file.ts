import type * as z from 'zod';
import type { Logger } from '../logger/logger.js';
import { loadCommentedConfigFile } from './load-commented-config-file.js';
import { readSecretTomlFile, readTomlFile } from './read-toml-file.js';
import { containsSecret } from './secret-schema.js';
import { renderTomlDocument } from './render-toml-document.js';
import { unknownKeys } from './unknown-keys.js';

export interface LoadConfigFileOptions<S extends z.ZodObject> {
  configDir: string;
  fileName: string;
  schema: S;
  /** Comment lines at the top of a generated file. */
  header: readonly string[];
  logger: Logger;
}

/**
 * Reads `<configDir>/<fileName>`, writing a default file rendered from the schema (its
 * descriptions as comments) when there is none. A file that does not parse or validate stops
 * the start with a `ConfigFileError` naming the file and each field; the file is left as it
 * is. Unknown keys are reported, not dropped silently. A schema with a secret field (an
 * adapter's access token) reads the file like `models.toml`: a syntax error keeps no cause,
 * since the TOML parser's own message quotes the offending line.
 */
export function loadConfigFile<S extends z.ZodObject>(options: LoadConfigFileOptions<S>): z.output<S> {
  const { configDir, fileName, schema, header, logger } = options;
  return loadCommentedConfigFile({
    configDir,
    fileName,
    schema,
    logger,
    read: containsSecret(schema) ? readSecretTomlFile : readTomlFile,
    defaultText: () => renderTomlDocument({ header, schema, values: schema.parse({}) as Record<string, unknown> }),
    unknownKeys: (data) => unknownKeys(schema, data),
    messages: {
      written: `wrote the default ${fileName}`,
      unwritable: `cannot write the default ${fileName}; running with the defaults`,
      unknown: 'unknown settings ignored',
    },
  }).config;
}
