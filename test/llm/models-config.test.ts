import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { loadModelsConfig } from '../../src/llm/load-models-config.js';
import { MODELS_EXAMPLE_BEGIN, MODELS_EXAMPLE_END } from '../../src/llm/models-config-default-text.js';
import { ModelsConfigSchema, ProviderConfigSchema } from '../../src/llm/models-config.js';
import { secretFields } from '../../src/plugin-system/config/secret.js';
import { useTempDir } from '../support/temp-dir.js';

const API_KEY = 'sk-live-93bd0c7e11';

function loadError(configDir: string): ConfigFileError {
  try {
    loadModelsConfig(configDir, createMemoryLogger().logger);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return error as ConfigFileError;
  }
  throw new Error('expected loadModelsConfig to throw');
}

describe('loadModelsConfig', () => {
  const tempDir = useTempDir();

  it('writes a commented default models.toml with no providers (the offline demo model) and returns the defaults', () => {
    const configDir = join(tempDir(), 'config');
    const { logger, records } = createMemoryLogger();
    const config = loadModelsConfig(configDir, logger);
    expect(config).toEqual({ providers: {}, models: {}, tasks: {} });
    const text = readFileSync(join(configDir, 'models.toml'), 'utf8');
    expect(text).toContain('offline demo model');
    expect(text).toContain('# base_url = "http://localhost:11434/v1"');
    expect(text).toContain('# base_url = "https://api.openai.com/v1"');
    expect(text.split('\n').every((line) => line === '' || line.startsWith('#'))).toBe(true);
    expect(JSON.parse(JSON.stringify(parse(text)))).toEqual({});
    expect(text).not.toMatch(/api_key = "[^"]/);
    expect(records.some((record) => record.msg.startsWith('wrote the default model settings'))).toBe(true);
    // A second start reads the file it wrote.
    expect(loadModelsConfig(configDir, logger)).toEqual(config);
  });

  it('has an example that is valid once uncommented', () => {
    const configDir = tempDir();
    loadModelsConfig(configDir, createMemoryLogger().logger);
    const text = readFileSync(join(configDir, 'models.toml'), 'utf8');
    const example = text.slice(text.indexOf(MODELS_EXAMPLE_BEGIN) + MODELS_EXAMPLE_BEGIN.length, text.indexOf(MODELS_EXAMPLE_END));
    writeFileSync(join(configDir, 'models.toml'), example.replace(/^# ?/gm, ''));
    const config = loadModelsConfig(configDir, createMemoryLogger().logger);
    expect(config.providers['ollama']).toEqual({ base_url: 'http://localhost:11434/v1', api_key: '', timeout_s: 60, max_retries: 2 });
    expect(config.models['gpt-mini']).toEqual({ provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 });
    expect(config.tasks['actor']).toEqual({ models: ['gpt-mini', 'qwen-local'] });
  });

  it('fills defaults and never logs the api_key', () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'models.toml'),
      `[providers.openai]\nbase_url = "https://api.example.com/v1"\napi_key = "${API_KEY}"\nbase_uri = "typo"\n\n[models.m]\nprovider = "openai"\nmodel = "m-1"\n`,
    );
    const { logger, records } = createMemoryLogger();
    const config = loadModelsConfig(configDir, logger);
    expect(config.providers['openai']).toEqual({ base_url: 'https://api.example.com/v1', api_key: API_KEY, timeout_s: 60, max_retries: 2 });
    expect(config.tasks).toEqual({});
    expect(records.find((record) => record.level === 'warn')).toMatchObject({ keys: ['providers.openai.base_uri'] });
    expect(JSON.stringify(records)).not.toContain(API_KEY);
  });

  it('names the path of a model whose provider and of a task whose model do not exist', () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'models.toml'),
      [
        '[providers.local]',
        'base_url = "http://localhost:11434/v1"',
        `api_key = "${API_KEY}"`,
        '[models.good]',
        'provider = "local"',
        'model = "qwen"',
        '[models.orphan]',
        'provider = "nowhere"',
        'model = "x"',
        '[tasks.actor]',
        'models = ["good", "missing"]',
      ].join('\n'),
    );
    const error = loadError(configDir);
    expect(error.issues).toEqual([
      { path: 'models.orphan.provider', reason: 'provider "nowhere" is not defined under [providers] (defined: local)' },
      { path: 'tasks.actor.models.1', reason: 'model "missing" is not defined under [models] (defined: good, orphan)' },
    ]);
    expect(error.message).toContain('models.orphan.provider');
    expect(error.message).not.toContain(API_KEY);
  });

  it('names bad field values by dotted path without quoting the api_key', () => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'models.toml'),
      `[providers.p]\nbase_url = "localhost:11434"\napi_key = "${API_KEY}"\ntimeout_s = -1\n[providers.q]\nbase_url = "http://q/v1"\napi_key = 42\n`,
    );
    const error = loadError(configDir);
    expect(error.issues.map((issue) => issue.path)).toEqual(['providers.p.base_url', 'providers.p.timeout_s', 'providers.q.api_key']);
    expect(error.message).toMatch(/providers\.p\.base_url: must be an http:\/\/ or https:\/\/ URL/);
    expect(error.message).not.toContain(API_KEY);
  });

  it('does not quote the api_key of a line that is not valid TOML, not even in the cause', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'models.toml'), `[providers.p]\nbase_url = "http://p/v1"\napi_key = "${API_KEY}" trailing\n`);
    const error = loadError(configDir);
    expect(error.message).toMatch(/is not valid TOML at line 3/);
    expect(error.message).not.toContain(API_KEY);
    expect(error.cause).toBeUndefined();
  });
});

describe('ModelsConfigSchema', () => {
  it('marks api_key secret with the same marker as secret()', () => {
    expect(z.globalRegistry.get(ProviderConfigSchema.shape.api_key)?.['secret']).toBe(true);
    expect(secretFields(ProviderConfigSchema)).toEqual(new Set(['api_key']));
  });

  it('accepts an empty config (the offline demo model)', () => {
    expect(ModelsConfigSchema.parse({})).toEqual({ providers: {}, models: {}, tasks: {} });
  });
});
