import { ModelConfigSchema, ProviderConfigSchema, TaskConfigSchema } from './models-config.js';

const TABLES = {
  providers: Object.keys(ProviderConfigSchema.shape),
  models: Object.keys(ModelConfigSchema.shape),
  tasks: Object.keys(TaskConfigSchema.shape),
} as const;

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dotted paths of keys in parsed `models.toml` data that the schema does not know, e.g. `providers.ollama.base_uri`. */
export function modelsConfigUnknownKeys(data: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (!Object.hasOwn(TABLES, key)) {
      found.push(key);
      continue;
    }
    const known: readonly string[] = TABLES[key as keyof typeof TABLES];
    if (!isTable(value)) continue;
    for (const [name, entry] of Object.entries(value)) {
      if (!isTable(entry)) continue;
      for (const field of Object.keys(entry)) if (!known.includes(field)) found.push(`${key}.${name}.${field}`);
    }
  }
  return found;
}
