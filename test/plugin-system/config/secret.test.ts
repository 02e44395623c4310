import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { describeSchema } from '../../../src/kernel/config/zod-introspection.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { secret, secretFields } from '../../../src/plugin-system/config/secret.js';

describe('secretFields', () => {
  it('[T-37] lists the fields marked by secret(), nested ones as dotted paths', () => {
    const Model = PluginConfig.extend({
      token: secret(z.string()).default('').describe('访问令牌'),
      greeting: z.string().default('你好'),
      provider: z
        .object({
          api_key: secret(z.string().default('')),
          endpoint: z.string().default('https://example.invalid'),
          deep: z.object({ password: secret(z.string()).optional() }).prefault({}),
        })
        .prefault({}),
    });
    expect(secretFields(Model)).toEqual(new Set(['token', 'provider.api_key', 'provider.deep.password']));
  });

  it('[T-37] never guesses a secret from a field name', () => {
    const Model = PluginConfig.extend({
      api_key: z.string().default(''),
      password: z.string().default(''),
      secret_token: z.string().default(''),
    });
    expect(secretFields(Model)).toEqual(new Set());
  });

  it('keeps the description and the validation of the marked schema', () => {
    const field = secret(z.string().min(3).describe('服务商的 API key'));
    expect(describeSchema(field)).toBe('服务商的 API key');
    expect(field.safeParse('ab').success).toBe(false);
    expect(field.safeParse('abc').success).toBe(true);
  });

  it('has no secrets in the bare PluginConfig', () => {
    expect(secretFields(PluginConfig).size).toBe(0);
  });
});
