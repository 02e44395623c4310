// What `moonglass check` warns about in config files the host accepts: keys it does not know
// (start only logs them, so a misspelt `[permisions]` would otherwise pass check silently),
// and a models.toml whose providers no task can use (every reply would fail at its first call).
import { basename } from 'node:path';
import type * as z from 'zod';
import { BotConfigSchema } from '../chat/bot-config.js';
import { AppConfigSchema } from '../kernel/config/app-config.js';
import { readTomlFile } from '../kernel/config/read-toml-file.js';
import { unknownKeys } from '../kernel/config/unknown-keys.js';
import { FALLBACK_TASK } from '../llm/llm-service.js';
import type { ModelsConfig } from '../llm/models-config.js';
import { modelsConfigUnknownKeys } from '../llm/models-config-unknown-keys.js';
import { mcpConfigUnknownKeys } from '../mcp/mcp-config-unknown-keys.js';
import type { ConfigFileReport } from './check-config-files.js';

const UNKNOWN_KEYS: Record<string, (data: Record<string, unknown>) => string[]> = {
  'features.toml': (data) => unknownKeys(AppConfigSchema as z.ZodObject, data),
  'bot.toml': (data) => unknownKeys(BotConfigSchema as z.ZodObject, data),
  'models.toml': modelsConfigUnknownKeys,
  'mcp.toml': mcpConfigUnknownKeys,
};

/** `config/bot.toml: unknown key permisions (ignored; a typo?)`, one line per key, for the host's own files that are valid. */
export function unknownKeyWarnings(files: readonly ConfigFileReport[]): string[] {
  const warnings: string[] = [];
  for (const file of files) {
    const find = UNKNOWN_KEYS[basename(file.file)];
    if (file.state !== 'ok' || find === undefined) continue;
    const data = readTomlFile(file.file) ?? {};
    for (const key of find(data)) warnings.push(`${file.file}: unknown key ${key} (ignored: the host does not read it; a typo?)`);
  }
  return warnings;
}

/**
 * A real model is configured (a provider exists) but the fallback task `actor` lists no
 * models: every task without models of its own, NDFC's replies among them, fails with
 * MG_LLM_TASK at its first request.
 */
export function replyTaskWarning(file: string, models: ModelsConfig): string | undefined {
  if (Object.keys(models.providers).length === 0) return undefined;
  if ((models.tasks[FALLBACK_TASK]?.models.length ?? 0) > 0) return undefined;
  const names = Object.keys(models.models);
  const example = names.length > 0 ? `models = ["${names[0]}"]` : 'models = ["<a name under [models]>"]';
  return `${file}: [tasks.${FALLBACK_TASK}] lists no models, so every reply fails (MG_LLM_TASK) until it does: add [tasks.${FALLBACK_TASK}] ${example}`;
}
