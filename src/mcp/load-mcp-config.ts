import { loadCommentedConfigFile } from '../kernel/config/load-commented-config-file.js';
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
  const { config, file } = loadCommentedConfigFile({
    configDir,
    fileName: MCP_CONFIG_FILE_NAME,
    schema: McpConfigSchema,
    defaultText: MCP_CONFIG_DEFAULT_TEXT,
    unknownKeys: mcpConfigUnknownKeys,
    logger,
    messages: {
      written: `wrote the default ${MCP_CONFIG_FILE_NAME} (no MCP servers)`,
      unwritable: `cannot write the default ${MCP_CONFIG_FILE_NAME}; running without MCP servers`,
      unknown: 'unknown MCP settings ignored',
    },
  });
  logger.debug({ file, servers: Object.keys(config.servers) }, 'read the MCP settings');
  return config;
}
