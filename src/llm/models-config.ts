import * as z from 'zod';

/** The models file inside the config folder. */
export const MODELS_CONFIG_FILE_NAME = 'models.toml';

/** One OpenAI-compatible endpoint, `[providers.<name>]`. */
export const ProviderConfigSchema = z.object({
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://localhost:11434/v1' })
    .describe('The API root; /chat/completions is appended.'),
  // The same marker as plugin-system's `secret()`, written out because llm/ may import only kernel/.
  api_key: z
    .string()
    .default('')
    .meta({ secret: true })
    .describe('The API key, sent as a Bearer token. Empty: no Authorization header. Never logged.'),
  timeout_s: z.number().positive().default(60).describe('Seconds one attempt may take (for a stream: the longest silence).'),
  max_retries: z.number().int().min(0).default(2).describe('Retries on 429, 5xx, network errors and timeouts.'),
});

/** One model the bot can use, `[models.<name>]`. */
export const ModelConfigSchema = z.object({
  provider: z.string().min(1).describe('A provider name under [providers].'),
  model: z.string().min(1).describe("The provider's own model id, e.g. qwen2.5:7b or gpt-4o-mini."),
  temperature: z.number().min(0).max(2).optional().describe("Sampling temperature; omitted: the provider's default."),
});

/** Which models a task uses, `[tasks.<name>]`. */
export const TaskConfigSchema = z.object({
  models: z.array(z.string().min(1)).default([]).describe('Model names, tried in this order; the next is used when one fails.'),
  daily_token_budget: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "Most tokens (prompt + completion, as the providers report them) the task may use per day in bot.toml [bot] timezone; once spent, its requests fail until the next day. Omitted: no budget.",
    ),
});

/**
 * `config/models.toml`: providers, models and tasks (`actor`, `sub_actor`, `vlm`, `video`,
 * `utils` ...). No providers at all means the offline demo model. Every model's provider
 * and every task's model must exist; the issues name their dotted paths.
 */
export const ModelsConfigSchema = z
  .object({
    providers: z.record(z.string(), ProviderConfigSchema).default({}),
    models: z.record(z.string(), ModelConfigSchema).default({}),
    tasks: z.record(z.string(), TaskConfigSchema).default({}),
  })
  .superRefine((config, context) => {
    const providers = Object.keys(config.providers);
    for (const [name, model] of Object.entries(config.models)) {
      if (Object.hasOwn(config.providers, model.provider)) continue;
      context.addIssue({
        code: 'custom',
        path: ['models', name, 'provider'],
        message: `provider "${model.provider}" is not defined under [providers] (defined: ${providers.length === 0 ? 'none' : providers.join(', ')})`,
      });
    }
    const models = Object.keys(config.models);
    for (const [name, task] of Object.entries(config.tasks)) {
      task.models.forEach((model, index) => {
        if (Object.hasOwn(config.models, model)) return;
        context.addIssue({
          code: 'custom',
          path: ['tasks', name, 'models', index],
          message: `model "${model}" is not defined under [models] (defined: ${models.length === 0 ? 'none' : models.join(', ')})`,
        });
      });
    }
  });

/** `config/models.toml` after validation, defaults filled in. */
export type ModelsConfig = z.output<typeof ModelsConfigSchema>;
/** One validated `models.toml [providers.<name>]` table. */
export type ProviderConfig = z.output<typeof ProviderConfigSchema>;
/** One validated `models.toml [models.<name>]` table. */
export type ModelConfig = z.output<typeof ModelConfigSchema>;
/** One validated `models.toml [tasks.<name>]` table. */
export type TaskConfig = z.output<typeof TaskConfigSchema>;
