// What `moonglass check` warns about in config files the host accepts: keys it does not know
// (start only logs them, so a misspelt `[permisions]` would otherwise pass check silently),
// and a models.toml whose providers no task can use (every reply would fail at its first call).
import { FALLBACK_TASK } from '../llm/llm-service.js';
import type { ModelsConfig } from '../llm/models-config.js';
import type { ConfigFileReport } from './check-config-files.js';

/** `config/bot.toml: unknown key permisions (ignored; a typo?)`, one line per key, for the host's own files that are valid. */
export function unknownKeyWarnings(files: readonly ConfigFileReport[]): string[] {
  return files.flatMap((file) => (file.unknownKeys ?? []).map((key) => `${file.file}: unknown key ${key} (ignored: the host does not read it; a typo?)`));
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
