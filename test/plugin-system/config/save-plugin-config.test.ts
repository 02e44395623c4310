import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { renderPluginConfig } from '../../../src/plugin-system/config/render-plugin-config.js';
import { savePluginConfig } from '../../../src/plugin-system/config/save-plugin-config.js';
import { secret } from '../../../src/plugin-system/config/secret.js';
import { useTempDir } from '../../support/temp-dir.js';

const Model = PluginConfig.extend({
  greeting: z.string().default('你好').describe('问候语，会出现在回复开头'),
  api_key: secret(z.string().default('')).describe('服务商的 API key'),
  plain_key: z.string().default('').describe('名字像密钥，但没有标注'),
  limits: z
    .object({
      per_day: z.number().int().min(0).default(20).describe('每天最多回复几次'),
      token: secret(z.string().default('')),
    })
    .prefault({}),
});

describe('savePluginConfig', () => {
  const tempDir = useTempDir();

  function setUp(text?: string) {
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    if (text !== undefined) writeFileSync(file, text);
    return { directory, file, read: () => readFileSync(file, 'utf8') };
  }

  it('[T-38] saves valid values with the generator\'s renderer, and they read back unchanged', () => {
    const { directory, read } = setUp('[plugin]\nenabled = true\n# 旧注释\n');
    const values = { enabled: false, greeting: '嗨', api_key: 'sk-new', plain_key: 'x', limits: { per_day: 3, token: 't' } };
    const result = savePluginConfig(directory, Model, values);
    expect(result).toEqual({ ok: true, config: values });
    expect(read()).toBe(renderPluginConfig(Model, values));
    expect(readdirSync(directory)).toEqual(['config.toml']);
    const { logger } = createMemoryLogger();
    expect(reconcilePluginConfig({ directory, model: Model, pluginId: 'example.greeter', logger })).toMatchObject({ config: values, wroteFile: false });
  });

  it('[T-38] fills fields that were not submitted with their defaults', () => {
    const { directory } = setUp();
    expect(savePluginConfig(directory, Model, { greeting: '嗨' })).toEqual({
      ok: true,
      config: { enabled: true, greeting: '嗨', api_key: '', plain_key: '', limits: { per_day: 20, token: '' } },
    });
  });

  it('[T-38] refuses the whole save when any field is bad, listing every bad field with its reason, and leaves the file', () => {
    const original = '[plugin]\nenabled = true\ngreeting = "原来的"\n';
    const { directory, read } = setUp(original);
    const result = savePluginConfig(directory, Model, { enabled: 'yes', greeting: '可以的', limits: { per_day: -1, extra: 1 }, mystery: 1 });
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors.map((error) => error.field).sort()).toEqual(['enabled', 'limits.extra', 'limits.per_day', 'mystery']);
    for (const error of errors) expect(error.reason).not.toBe('');
    expect(errors.find((error) => error.field === 'mystery')!.reason).toMatch(/unknown field/);
    expect(errors.find((error) => error.field === 'enabled')!.reason).toMatch(/expected boolean/);
    expect(read()).toBe(original);
    expect(readdirSync(directory)).toEqual(['config.toml']);
  });

  it('[T-38] applies the model\'s own refinements to the whole save', () => {
    const Refined = PluginConfig.extend({ min: z.number().default(1), max: z.number().default(5) }).refine((v) => v.min <= v.max, {
      message: 'min must not exceed max',
      path: ['max'],
    });
    const { directory, file } = setUp();
    expect(savePluginConfig(directory, Refined, { min: 9, max: 2 })).toEqual({ ok: false, errors: [{ field: 'max', reason: 'min must not exceed max' }] });
    expect(readdirSync(directory)).toEqual([]);
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('[T-37] keeps the value on disk for a secret submitted as an empty string', () => {
    const { directory, read } = setUp('[plugin]\napi_key = "sk-disk"\n\n[plugin.limits]\ntoken = "tok-disk"\n');
    const result = savePluginConfig(directory, Model, { greeting: '嗨', api_key: '', limits: { token: '' } });
    // Written back, but not handed back: a save never reveals a secret the caller did not give.
    expect(result).toMatchObject({ ok: true, config: { greeting: '嗨', api_key: '', limits: { token: '' } } });
    expect(read()).toContain('api_key = "sk-disk"');
    expect(read()).toContain('token = "tok-disk"');
  });

  it('[T-37] replaces a secret when a new value is submitted', () => {
    const { directory } = setUp('[plugin]\napi_key = "sk-disk"\n');
    expect(savePluginConfig(directory, Model, { api_key: 'sk-new' })).toMatchObject({ ok: true, config: { api_key: 'sk-new' } });
  });

  it('[T-37] does not treat a field as secret by its name: an empty plain_key overwrites the disk value', () => {
    const { directory } = setUp('[plugin]\nplain_key = "on-disk"\n');
    expect(savePluginConfig(directory, Model, { plain_key: '' })).toMatchObject({ ok: true, config: { plain_key: '' } });
  });

  it('[T-37] validates an empty secret as given when nothing is on disk', () => {
    const Required = PluginConfig.extend({ api_key: secret(z.string().min(1, 'API key is required')) });
    const { directory } = setUp('[plugin]\nenabled = true\n');
    expect(savePluginConfig(directory, Required, { api_key: '' })).toEqual({ ok: false, errors: [{ field: 'api_key', reason: 'API key is required' }] });
    const { directory: empty } = setUp();
    expect(savePluginConfig(empty, Model, { api_key: '' })).toMatchObject({ ok: true, config: { api_key: '' } });
  });

  it('[T-38] replaces the file atomically: no temporary file is left beside it', () => {
    const { directory, read } = setUp('[plugin]\nenabled = true\nold = 1\n');
    expect(savePluginConfig(directory, Model, { greeting: '嗨' }).ok).toBe(true);
    expect(readdirSync(directory)).toEqual(['config.toml']);
    expect(read()).not.toContain('old = 1');
  });
});
