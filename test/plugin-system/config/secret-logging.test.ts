import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MoonglassError } from '../../../src/kernel/errors/moonglass-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { savePluginConfig } from '../../../src/plugin-system/config/save-plugin-config.js';
import { secret } from '../../../src/plugin-system/config/secret.js';
import { useTempDir } from '../../support/temp-dir.js';

/** A check whose message quotes the value, as a plugin author might write it. */
const startsWithSk = z.string().refine((value) => value.startsWith('sk-'), { error: (issue) => `"${String(issue.input)}" must start with sk-` });

describe('reconcilePluginConfig and secrets (issue 13 item 8)', () => {
  const tempDir = useTempDir();

  function run(model: z.ZodObject, text: string) {
    const directory = tempDir();
    writeFileSync(join(directory, 'config.toml'), text);
    const { logger, records } = createMemoryLogger();
    const attempt = () => reconcilePluginConfig({ directory, model, pluginId: 'example.keys', logger });
    return { attempt, records, logged: () => JSON.stringify(records), read: () => readFileSync(join(directory, 'config.toml'), 'utf8') };
  }

  it('logs an invalid secret as (secret): a number where a string is wanted', () => {
    const Model = PluginConfig.extend({ api_key: secret(z.string().default('')).describe('API key') });
    const { attempt, records, logged } = run(Model, '[plugin]\napi_key = 98765432123\n');
    expect(attempt().config).toMatchObject({ api_key: '' });
    expect(records.filter((record) => record.level === 'warn')).toEqual([
      expect.objectContaining({ field: 'api_key', actual: '(secret)', expected: 'Invalid input: expected string, received number' }),
    ]);
    expect(logged()).not.toContain('98765432123');
  });

  it('does not log a custom message that quotes the secret, nor one on a nested secret or a secret table', () => {
    const Model = PluginConfig.extend({
      api_key: secret(startsWithSk.default('')),
      provider: z.object({ token: secret(z.string().min(40).default('')) }).prefault({}),
      login: secret(z.object({ user: z.string(), password: z.string() }).optional()),
    });
    const text = '[plugin]\napi_key = "pk-live-0badc0ffee"\nlogin = "hunter2-login-pass"\n\n[plugin.provider]\ntoken = "tok-0123456789"\n';
    const { attempt, records, logged } = run(Model, text);
    attempt();
    const warnings = records.filter((record) => record.level === 'warn');
    expect(warnings.map((record) => [record['field'], record['actual']])).toEqual([
      ['api_key', '(secret)'],
      ['provider.token', '(secret)'],
      ['login', '(secret)'],
    ]);
    expect(warnings[0]!['expected']).toMatch(/fails the config model's own check/);
    expect(warnings[1]!['expected']).toMatch(/>=40 characters/);
    for (const value of ['pk-live-0badc0ffee', 'tok-0123456789', 'hunter2-login-pass']) expect(logged()).not.toContain(value);
  });

  it('keeps the secret out of the PluginConfigError of a secret without default', () => {
    const Model = PluginConfig.extend({ api_key: secret(startsWithSk) });
    const { attempt } = run(Model, '[plugin]\napi_key = "pk-live-0badc0ffee"\n');
    let thrown: unknown;
    try {
      attempt();
    } catch (error) {
      thrown = error;
    }
    expect(MoonglassError.hasCode(thrown, 'MG_PLUGIN_CONFIG')).toBe(true);
    expect((thrown as Error).message).toContain('field "api_key" has an invalid value');
    expect((thrown as Error).message).not.toContain('pk-live-0badc0ffee');
  });

  it('replaces a secret that a whole-model refinement quotes with (secret)', () => {
    const Model = PluginConfig.extend({ api_key: secret(z.string().default('')), mode: z.enum(['test', 'live']).default('test') }).superRefine(
      (config, context) => {
        if (config.mode === 'live' && !config.api_key.startsWith('sk-live-')) {
          context.addIssue({ code: 'custom', path: ['mode'], message: `mode "live" needs a live key, not ${config.api_key}` });
        }
      },
    );
    const { attempt, records, logged } = run(Model as unknown as z.ZodObject, '[plugin]\napi_key = "sk-test-0badc0ffee"\nmode = "live"\n');
    expect(attempt().usedDefaults).toBe(true);
    const issues = records.find((record) => record.level === 'warn')!['issues'];
    expect(issues).toEqual([{ path: 'mode', reason: 'mode "live" needs a live key, not (secret)' }]);
    expect(logged()).not.toContain('sk-test-0badc0ffee');
  });

  it('names the line, never the secret, when the file is not valid TOML', () => {
    const Model = PluginConfig.extend({ api_key: secret(z.string().default('')) });
    const { attempt, logged } = run(Model, '[plugin]\napi_key = "sk-live-0badc0ffee\n');
    expect(attempt().usedDefaults).toBe(true);
    expect(logged()).toMatch(/line 2/);
    expect(logged()).not.toContain('sk-live-0badc0ffee');
  });
});

describe('savePluginConfig and secrets (issue 13 item 8)', () => {
  const tempDir = useTempDir();

  it('keeps an invalid secret on disk without blocking the save, and names it without its value', () => {
    const Model = PluginConfig.extend({ api_key: secret(z.string().default('')), daily_limit: z.number().default(10) });
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    writeFileSync(file, '[plugin]\nenabled = true\napi_key = 98765432123\n');
    const result = savePluginConfig(directory, Model, { enabled: false, api_key: '', daily_limit: 42 });
    expect(result).toEqual({
      ok: true,
      config: { enabled: false, api_key: '', daily_limit: 42 },
      warnings: [{ field: 'api_key', reason: expect.stringMatching(/does not validate \(Invalid input: expected string, received number\); it was kept there/) }],
    });
    expect(JSON.stringify(result)).not.toContain('98765432123');
    const disk = readFileSync(file, 'utf8');
    expect(disk).toContain('api_key = 98765432123');
    expect(disk).toContain('enabled = false');
    expect(disk).toContain('daily_limit = 42');
  });

  it('asks for a new value when an invalid secret on disk has no default, without quoting it', () => {
    const Model = PluginConfig.extend({ api_key: secret(startsWithSk) });
    const directory = tempDir();
    writeFileSync(join(directory, 'config.toml'), '[plugin]\napi_key = "pk-live-0badc0ffee"\n');
    const result = savePluginConfig(directory, Model, { api_key: '' });
    expect(result).toEqual({ ok: false, errors: [{ field: 'api_key', reason: expect.stringMatching(/has no default: enter a new value/) }] });
    expect(JSON.stringify(result)).not.toContain('pk-live-0badc0ffee');
  });

  it('does not hand back a secret kept from disk through a refinement message', () => {
    const Model = PluginConfig.extend({ api_key: secret(z.string().default('')), mode: z.string().default('test') }).superRefine((config, context) => {
      if (config.mode === 'test') context.addIssue({ code: 'custom', path: ['mode'], message: `"${config.api_key}" is not a test key` });
    });
    const directory = tempDir();
    writeFileSync(join(directory, 'config.toml'), '[plugin]\napi_key = "sk-live-0badc0ffee"\n');
    const result = savePluginConfig(directory, Model as unknown as z.ZodObject, { api_key: '', mode: 'test' });
    expect(result).toEqual({ ok: false, errors: [{ field: 'mode', reason: '"(secret)" is not a test key' }] });
  });

  it('does not echo a typed secret in a custom message of its field', () => {
    const Model = PluginConfig.extend({ api_key: secret(startsWithSk.default('')) });
    const result = savePluginConfig(tempDir(), Model, { api_key: 'pk-typed-0badc0ffee' });
    expect(result).toEqual({ ok: false, errors: [{ field: 'api_key', reason: expect.stringMatching(/fails the config model's own check/) }] });
    expect(JSON.stringify(result)).not.toContain('pk-typed-0badc0ffee');
  });
});
