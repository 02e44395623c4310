import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configSchema as OneBotConfigSchema, configHeader as oneBotHeader } from '../../../src/adapters/onebot_v11/config.js';
import { loadCommentedConfigFile } from '../../../src/kernel/config/load-commented-config-file.js';
import { loadConfigFile } from '../../../src/kernel/config/load-config-file.js';
import { ConfigFileError } from '../../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { loadModelsConfig } from '../../../src/llm/load-models-config.js';
import { useTempDir } from '../../support/temp-dir.js';

const TOKEN = 'tok-live-0badc0ffee';

/** Everything an error holds, causes included, as a log line with `err` would show it. */
function everything(error: unknown): string {
  return inspect(error, { depth: 10 });
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('host config files and secrets (issue 13 item 8)', () => {
  const tempDir = useTempDir();

  it('keeps the TOML parser’s quote of a line out of the error for an adapter file with a secret (onebot access_token)', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'onebot_v11.toml'), `mode = "reverse"\naccess_token = "${TOKEN}\n`);
    const { logger } = createMemoryLogger();
    const error = caught(() => loadConfigFile({ configDir, fileName: 'onebot_v11.toml', schema: OneBotConfigSchema, header: oneBotHeader, logger }));
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message).toMatch(/not valid TOML at line 2/);
    expect(everything(error)).not.toContain(TOKEN);
  });

  it('names an invalid onebot access_token by its path, never its value', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'onebot_v11.toml'), 'access_token = 98765432123\n');
    const { logger } = createMemoryLogger();
    const error = caught(() => loadConfigFile({ configDir, fileName: 'onebot_v11.toml', schema: OneBotConfigSchema, header: oneBotHeader, logger }));
    expect((error as ConfigFileError).issues).toEqual([{ path: 'access_token', reason: 'Invalid input: expected string, received number' }]);
    expect(everything(error)).not.toContain('98765432123');
  });

  it('does not quote a secret inside a record of tables through a custom message, and scrubs one a refinement quotes', () => {
    const Schema = z
      .object({
        providers: z.record(
          z.string(),
          z.object({
            api_key: z
              .string()
              .meta({ secret: true })
              .refine((key) => key.startsWith('sk-'), { error: (issue) => `${String(issue.input)} is not an sk- key` }),
            note: z.string().default(''),
          }),
        ),
      })
      .superRefine((config, context) => {
        for (const [name, provider] of Object.entries(config.providers)) {
          if (provider.note !== '') context.addIssue({ code: 'custom', path: ['providers', name, 'note'], message: `note given for key ${provider.api_key}` });
        }
      });
    const configDir = tempDir();
    writeFileSync(join(configDir, 'keys.toml'), `[providers.main]\napi_key = "pk-${TOKEN}"\n`);
    const { logger } = createMemoryLogger();
    const load = () =>
      loadCommentedConfigFile({
        configDir,
        fileName: 'keys.toml',
        schema: Schema,
        defaultText: '',
        unknownKeys: () => [],
        logger,
        messages: { written: 'written', unwritable: 'unwritable', unknown: 'unknown' },
      });
    const error = caught(load) as ConfigFileError;
    expect(error.issues).toEqual([{ path: 'providers.main.api_key', reason: expect.stringMatching(/fails the config model's own check/) }]);
    expect(everything(error)).not.toContain(TOKEN);
    writeFileSync(join(configDir, 'keys.toml'), `[providers.second]\napi_key = "sk-${TOKEN}"\nnote = "x"\n`);
    const refined = caught(load) as ConfigFileError;
    expect(refined.issues).toEqual([{ path: 'providers.second.note', reason: 'note given for key (secret)' }]);
  });

  it('lists unknown keys of models.toml by name only, never with the value next to them', () => {
    const configDir = tempDir();
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'models.toml'), `[providers.main]\nbase_url = "http://127.0.0.1:11434/v1"\napi_kye = "${TOKEN}"\n`);
    const { logger, records } = createMemoryLogger();
    loadModelsConfig(configDir, logger);
    expect(records.find((record) => record.level === 'warn')).toMatchObject({ keys: ['providers.main.api_kye'] });
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});
