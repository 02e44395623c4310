import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { resolveAdapter } from '../adapters/find-adapter.js';
import { BOT_CONFIG_FILE_NAME, BotConfigSchema } from '../chat/bot-config.js';
import { APP_CONFIG_FILE_NAME, AppConfigSchema } from '../kernel/config/app-config.js';
import { readSecretTomlFile, readTomlFile } from '../kernel/config/read-toml-file.js';
import { unknownKeys } from '../kernel/config/unknown-keys.js';
import { validateConfig } from '../kernel/config/validate-config.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { MODELS_CONFIG_FILE_NAME, ModelsConfigSchema } from '../llm/models-config.js';
import { MCP_CONFIG_FILE_NAME, McpConfigSchema } from '../mcp/mcp-config.js';
import { mcpConfigUnknownKeys } from '../mcp/mcp-config-unknown-keys.js';
import { modelsConfigUnknownKeys } from '../llm/models-config-unknown-keys.js';

/** One config file as `moonglass check` found it. */
export interface ConfigFileReport {
  file: string;
  /** `absent`: start will write the defaults; `invalid`: start would refuse it. */
  state: 'ok' | 'absent' | 'invalid';
  /** For `invalid`: the reason, naming the file and each field. */
  problem?: string;
  /** The validated settings (the defaults when absent); undefined when invalid. */
  value?: unknown;
  /** The file as parsed, before validation (also when invalid); undefined when absent or not TOML. */
  data?: Record<string, unknown>;
  /** For `ok`: dotted keys the host does not read (start logs them and goes on), e.g. `permisions`. */
  unknownKeys?: string[];
}

export interface ConfigCheck {
  files: ConfigFileReport[];
  /** The adapter that would run, and what is wrong with it if anything. */
  adapter: { name: string; problem?: string };
}

/** One of the host's own config files: its name in the config folder, its schema, how it is read. */
export interface HostConfigFile {
  name: string;
  schema: z.ZodType;
  /** Files that may hold secrets are read without quoting a bad line back. */
  read: (file: string) => Record<string, unknown> | undefined;
  /** The keys its loader warns about at start as unknown. */
  findUnknown: (data: Record<string, unknown>) => string[];
}

/** The host's own config files, in the order check reports them (the config reference documents each). */
export const HOST_CONFIG_FILES: readonly HostConfigFile[] = [
  { name: APP_CONFIG_FILE_NAME, schema: AppConfigSchema, read: readTomlFile, findUnknown: (data) => unknownKeys(AppConfigSchema, data) },
  { name: BOT_CONFIG_FILE_NAME, schema: BotConfigSchema, read: readTomlFile, findUnknown: (data) => unknownKeys(BotConfigSchema, data) },
  { name: MODELS_CONFIG_FILE_NAME, schema: ModelsConfigSchema, read: readSecretTomlFile, findUnknown: modelsConfigUnknownKeys },
  { name: MCP_CONFIG_FILE_NAME, schema: McpConfigSchema, read: readSecretTomlFile, findUnknown: mcpConfigUnknownKeys },
];

/**
 * Reads and validates every host config file without writing anything: `features.toml`,
 * `bot.toml`, `models.toml`, `mcp.toml`, and the chosen adapter with `adapters/<name>.toml`. Every
 * problem is collected, not only the first.
 */
export async function checkConfigFiles(configDir: string, adapterOverride?: string): Promise<ConfigCheck> {
  const files = HOST_CONFIG_FILES.map((host) => checkFile(join(configDir, host.name), host.schema, host.read, host.findUnknown));
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

/**
 * One file, read once. `findUnknown` is the function the file's loader warns with at start, so
 * check names the same keys the start would.
 */
function checkFile(
  file: string,
  schema: z.ZodType,
  read: (file: string) => Record<string, unknown> | undefined,
  findUnknown?: (data: Record<string, unknown>) => string[],
): ConfigFileReport {
  if (!existsSync(file)) return { file, state: 'absent', value: schema.parse({}) };
  let data: Record<string, unknown> | undefined;
  try {
    data = read(file) ?? {};
    const value = validateConfig(file, schema, data);
    return { file, state: 'ok', value, data, ...(findUnknown === undefined ? {} : { unknownKeys: findUnknown(data) }) };
  } catch (error) {
    return { file, state: 'invalid', problem: describeError(error), ...(data === undefined ? {} : { data }) };
  }
}

/** `[platform] adapter` of a bot.toml that did not validate as a whole, when it is a plain string. */
function adapterNamedIn(report: ConfigFileReport): string | undefined {
  if (report.state !== 'invalid') return undefined;
  const platform = report.data?.['platform'];
  const adapter = typeof platform === 'object' && platform !== null ? (platform as Record<string, unknown>)['adapter'] : undefined;
  return typeof adapter === 'string' && /^[a-z0-9_]+$/.test(adapter) ? adapter : undefined;
}
