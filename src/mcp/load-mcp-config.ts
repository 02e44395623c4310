import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile } from '../kernel/config/atomic-write-file.js';
import { readTomlFile } from '../kernel/config/read-toml-file.js';
import { validateConfig } from '../kernel/config/validate-config.js';
import { ConfigFileError } from '../kernel/errors/config-file-error.js';
import { describeError } from '../kernel/errors/describe-error.js';
import type { Logger } from '../kernel/logger/logger.js';
import { MCP_CONFIG_DEFAULT_TEXT } from './mcp-config-default-text.js';
import { MCP_CONFIG_FILE_NAME, type McpConfig, McpConfigSchema } from './mcp-config.js';
import { mcpConfigUnknownKeys } from './mcp-config-unknown-keys.js';

/**
 * Reads `<configDir>/mcp.toml`, writing the commented default file (no servers) when there
 * is none. A file that does not parse or validate throws a `ConfigFileError` naming the
 * file and each field by its dotted path (e.g. `servers.search.url`); the file is left as it
 * is. Unknown keys are reported with a warning.
 */
export function loadMcpConfig(configDir: string, logger: Logger): McpConfig {
  const file = join(configDir, MCP_CONFIG_FILE_NAME);
  const data = readMcpToml(file);
  if (data === undefined) {
    const defaults = McpConfigSchema.parse({});
    try {
      mkdirSync(configDir, { recursive: true });
      atomicWriteFile(file, MCP_CONFIG_DEFAULT_TEXT, { durable: false });
      logger.info({ file }, `wrote the default ${MCP_CONFIG_FILE_NAME} (no MCP servers)`);
    } catch (error) {
      logger.warn({ file, error: describeError(error) }, `cannot write the default ${MCP_CONFIG_FILE_NAME}; running without MCP servers`);
    }
    return defaults;
  }
  const config = validateConfig(file, McpConfigSchema, data);
  const unknown = mcpConfigUnknownKeys(data);
  if (unknown.length > 0) logger.warn({ file, keys: unknown }, `unknown MCP settings ignored: ${unknown.join(', ')}`);
  logger.debug({ file, servers: Object.keys(config.servers) }, 'read the MCP settings');
  return config;
}

/**
 * The parsed file. A syntax error is re-thrown without its cause: the TOML parser's own
 * message quotes the offending line, which may hold a token from a server's `env`. The issue
 * keeps the line and column.
 */
export function readMcpToml(file: string): Record<string, unknown> | undefined {
  try {
    return readTomlFile(file);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new ConfigFileError(error.file, error.issues);
    throw error;
  }
}
