import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { ManifestError } from '../../src/plugin-system/errors/manifest-error.js';
import { PluginConfig } from '../../src/plugin-system/config/plugin-config.js';
import { savePluginConfig } from '../../src/plugin-system/config/save-plugin-config.js';
import { readPluginManifest } from '../../src/plugin-system/manifest/read-plugin-manifest.js';
import { readTomlFile } from '../../src/kernel/config/read-toml-file.js';

const folder = mkdtempSync(join(tmpdir(), 'moonglass-fuzz-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('properties of manifests and plugin config saves', () => {
  it('[fuzz] any _manifest.json gives a manifest or a ManifestError naming the folder, nothing else', () => {
    const field = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.constantFrom('1.0.0', '0.1.0', '1.2', 'tool', 'adapter'));
    const manifests = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({
          manifest_version: fc.oneof(fc.constant(1), fc.integer()),
          id: field,
          name: field,
          version: field,
          description: field,
          plugin_type: field,
          host_application: fc.oneof(fc.constant(undefined), fc.record({ min_version: field, max_version: field }, { requiredKeys: [] })),
        }, { requiredKeys: [] })
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(manifests, (text) => {
        writeFileSync(join(folder, '_manifest.json'), text);
        try {
          const manifest = readPluginManifest(folder);
          expect(manifest.manifest_version).toBe(1);
          expect(['tool', 'adapter']).toContain(manifest.plugin_type);
        } catch (error) {
          expect(error).toBeInstanceOf(ManifestError);
          expect((error as Error).message).toContain(folder);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('[fuzz] a config save is all or nothing: valid values are written and read back, any bad one leaves the file as it was', () => {
    const model = PluginConfig.extend({
      greeting: z.string().max(10).default('你好').describe('问候'),
      limit: z.number().int().min(0).max(5).default(1).describe('次数'),
      tags: z.array(z.string()).default([]).describe('标签'),
    });
    const file = join(folder, 'config.toml');
    const values = fc.record(
      {
        enabled: fc.oneof(fc.boolean(), fc.string()),
        greeting: fc.oneof(fc.string({ maxLength: 14 }), fc.integer()),
        limit: fc.oneof(fc.integer({ min: -2, max: 7 }), fc.double(), fc.string()),
        tags: fc.oneof(fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.string()),
        unknown: fc.constant('x'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(values, (input) => {
        savePluginConfig(folder, model, { enabled: true });
        const before = readFileSync(file, 'utf8');
        const result = savePluginConfig(folder, model, input as Record<string, unknown>);
        if (result.ok) {
          const written = readTomlFile(file)?.['plugin'] as Record<string, unknown>;
          expect(model.parse(written)).toEqual(result.config);
        } else {
          expect(result.errors.length).toBeGreaterThan(0);
          for (const error of result.errors) expect(error.reason.length).toBeGreaterThan(0);
          expect(readFileSync(file, 'utf8')).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
  });
});
