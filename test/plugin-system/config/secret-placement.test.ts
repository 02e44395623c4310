import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MoonglassError } from '../../../src/kernel/errors/moonglass-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import type { PluginConfigError } from '../../../src/plugin-system/config/plugin-config-error.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { savePluginConfig } from '../../../src/plugin-system/config/save-plugin-config.js';
import { misplacedSecrets, secret, secretFields } from '../../../src/plugin-system/config/secret.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('where secret() may go (issue 13 item 8)', () => {
  const tempDir = useTempDir();

  describe('when the mark covers a whole field', () => {
    it('recognises it inside or outside default, prefault, optional, nullable, readonly and catch', () => {
      const Model = PluginConfig.extend({
        inside_default: secret(z.string()).default(''),
        outside_default: secret(z.string().default('')),
        optional: secret(z.string()).optional(),
        nullable: secret(z.string()).nullable().default(null),
        read_only: secret(z.string()).readonly().default(''),
        caught: secret(z.string()).catch(''),
        table: secret(z.object({ user: z.string(), password: z.string() })).prefault({ user: '', password: '' }),
      });
      expect(secretFields(Model)).toEqual(new Set(['inside_default', 'outside_default', 'optional', 'nullable', 'read_only', 'caught', 'table']));
      expect(misplacedSecrets(Model)).toEqual([]);
    });

    it('recognises it on either side of .transform() and .pipe(), and under z.preprocess()', () => {
      const Model = PluginConfig.extend({
        trimmed: secret(z.string()).transform((value) => value.trim()).default(''),
        piped: z.string().pipe(secret(z.string().min(1))).optional(),
        preprocessed: z.preprocess((value) => (typeof value === 'number' ? String(value) : value), secret(z.string())).optional(),
        marked_pipe: secret(z.string().transform((value) => value.length)).optional(),
        plain: z.string().transform((value) => value.trim()).default(''),
      });
      expect(secretFields(Model)).toEqual(new Set(['trimmed', 'piped', 'preprocessed', 'marked_pipe']));
      expect(misplacedSecrets(Model)).toEqual([]);
    });

    it('recognises secret fields of nested objects under default, prefault and optional', () => {
      const Model = PluginConfig.extend({
        provider: z.object({ token: secret(z.string().default('')), deep: z.object({ pin: secret(z.number()).optional() }).optional() }).default({ token: '' }),
      });
      expect(secretFields(Model)).toEqual(new Set(['provider.token', 'provider.deep.pin']));
    });

    it('counts a marked array or record as one secret field', () => {
      const Model = PluginConfig.extend({
        keys: secret(z.array(z.string())).default([]),
        tokens: secret(z.record(z.string(), z.string())).default({}),
      });
      expect(secretFields(Model)).toEqual(new Set(['keys', 'tokens']));
      expect(misplacedSecrets(Model)).toEqual([]);
    });
  });

  describe('when the mark covers only a part of a field', () => {
    const cases: [string, z.ZodType, string][] = [
      ['an array element', z.array(secret(z.string())).default([]), 'keys[]'],
      ['a record value', z.record(z.string(), secret(z.string())).default({}), 'keys.*'],
      ['a field of an array of objects', z.array(z.object({ name: z.string(), token: secret(z.string()) })).default([]), 'keys[].token'],
      ['a union option', z.union([z.number(), secret(z.string())]).default(0), 'keys (union option 2)'],
      ['a field of an object under .transform()', z.object({ token: secret(z.string()) }).transform((value) => value.token).optional(), 'keys.token'],
    ];

    for (const [situation, field, at] of cases) {
      it(`refuses the model at load, naming plugin and field, for ${situation}`, () => {
        const Model = PluginConfig.extend({ keys: field });
        const directory = tempDir();
        const { logger } = createMemoryLogger();
        let thrown: unknown;
        try {
          reconcilePluginConfig({ directory, model: Model, pluginId: 'example.keys', logger });
        } catch (error) {
          thrown = error;
        }
        expect(MoonglassError.hasCode(thrown, 'MG_PLUGIN_CONFIG')).toBe(true);
        expect(thrown).toMatchObject({ pluginId: 'example.keys', field: 'keys' });
        const message = (thrown as PluginConfigError).message;
        expect(message).toContain('plugin "example.keys"');
        expect(message).toContain(`field "keys" puts secret() on a part of its value (at ${at})`);
        expect(message).toContain('Mark the whole field instead');
        expect(existsSync(join(directory, 'config.toml'))).toBe(false);
        // Refused for a save too; shown as one secret field meanwhile, so no part of it leaks.
        expect(savePluginConfig(directory, Model, {})).toMatchObject({ ok: false, errors: [{ field: 'keys' }] });
        expect(secretFields(Model)).toEqual(new Set(['keys']));
      });
    }
  });
});
