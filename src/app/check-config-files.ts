import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { resolveAdapter } from '../adapters/find-adapter.js';
import { BOT_CONFIG_FILE_NAME, BotConfigSchema } from '../chat/bot-config.js';
import { APP_CONFIG_FILE_NAME, AppConfigSchema } from '../kernel/config/app-config.js';
import { readSecretTomlFile, readTomlFile } from '../kernel/config/read-toml-file.js';
import { validateConfig } from '../kernel/config/validate-config.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { MODELS_CONFIG_FILE_NAME, ModelsConfigSchema } from '../llm/models-config.js';
import { MCP_CONFIG_FILE_NAME, McpConfigSchema } from '../mcp/mcp-config.js';

/** One config file as `moonglass check` found it. */
export interface ConfigFileReport {
  file: string;
  /** `absent`: start will write the defaults; `invalid`: start would refuse it. */
  state: 'ok' | 'absent' | 'invalid';
  /** For `invalid`: the reason, naming the file and each field. */
  problem?: string;
  /** The validated settings (the defaults when absent); undefined when invalid. */
  value?: unknown;
}

export interface ConfigCheck {
  files: ConfigFileReport[];
  /** The adapter that would run, and what is wrong with it if anything. */
  adapter: { name: string; problem?: string };
}

/**
 * Reads and validates every host config file without writing anything: `features.toml`,
 * `bot.toml`, `models.toml`, `mcp.toml`, and the chosen adapter with `adapters/<name>.toml`. Every
 * problem is collected, not only the first.
 */
export async function checkConfigFiles(configDir: string, adapterOverride?: string): Promise<ConfigCheck> {
  const files = [
    checkFile(join(configDir, APP_CONFIG_FILE_NAME), AppConfigSchema, readTomlFile),
    checkFile(join(configDir, BOT_CONFIG_FILE_NAME), BotConfigSchema, readTomlFile),
    checkFile(join(configDir, MODELS_CONFIG_FILE_NAME), ModelsConfigSchema, readSecretTomlFile),
    checkFile(join(configDir, MCP_CONFIG_FILE_NAME), McpConfigSchema, readSecretTomlFile),
  ];
  const bot = files[1]!.value as z.output<typeof BotConfigSchema> | undefined;
  // An invalid bot.toml still names its adapter when that key itself is readable.
  const name = adapterOverride ?? bot?.platform.adapter ?? adapterNamedIn(files[1]!) ?? 'console';
  const adapter: ConfigCheck['adapter'] = { name };
  try {
    const resolved = await resolveAdapter(name);
    files.push(checkFile(join(configDir, 'adapters', `${name}.toml`), resolved.configSchema, readTomlFile));
  } catch (error) {
    adapter.problem = describeError(error);
  }
  return { files, adapter };
}

function checkFile(file: string, schema: z.ZodType, read: (file: string) => Record<string, unknown> | undefined): ConfigFileReport {
  if (!existsSync(file)) return { file, state: 'absent', value: schema.parse({}) };
  try {
    const data = read(file);
    return { file, state: 'ok', value: validateConfig(file, schema, data ?? {}) };
  } catch (error) {
    return { file, state: 'invalid', problem: describeError(error) };
  }
}

/** `[platform] adapter` of a bot.toml that did not validate as a whole, when it is a plain string. */
function adapterNamedIn(report: ConfigFileReport): string | undefined {
  if (report.state !== 'invalid') return undefined;
  try {
    const platform = readTomlFile(report.file)?.['platform'];
    const adapter = typeof platform === 'object' && platform !== null ? (platform as Record<string, unknown>)['adapter'] : undefined;
    return typeof adapter === 'string' && /^[a-z0-9_]+$/.test(adapter) ? adapter : undefined;
  } catch {
    return undefined;
  }
}
