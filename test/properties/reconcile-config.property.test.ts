import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../src/plugin-system/config/plugin-config.js';
import { reconcilePluginConfig } from '../../src/plugin-system/config/reconcile-plugin-config.js';

const folder = mkdtempSync(join(tmpdir(), 'moonglass-reconcile-fuzz-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const Model = PluginConfig.extend({
  greeting: z.string().max(10).default('你好').describe('问候'),
  limit: z.number().int().min(0).max(5).default(1).describe('次数'),
  tags: z.array(z.string()).default([]).describe('标签'),
  limits: z
    .object({ per_day: z.number().int().min(0).default(20).describe('每天最多几次') })
    .prefault({})
    .describe('频率限制'),
});

/** A TOML value of any type, in its source form (some of them not TOML at all). */
const tomlValue = fc.oneof(
  fc.boolean().map(String),
  fc.integer({ min: -9, max: 99 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Number.isInteger(value) ? `${value}.0` : String(value))),
  fc.string({ maxLength: 14 }).map((value) => JSON.stringify(value)),
  fc.array(fc.string({ maxLength: 4 }).map((value) => JSON.stringify(value)), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
  fc.constantFrom('"unterminated', '= =', '[1, "a"', '0x1F', '1979-05-27', "'literal'"),
);

const key = fc.constantFrom('enabled', 'greeting', 'limit', 'tags', 'retired', 'per_day', '"quoted key"');

/** A line of a config file: a key/value, a comment, a blank, or a table header. */
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, tomlValue).map(([name, value]) => `${name} = ${value}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((text) => `# ${text.replace(/[\r\n]/g, ' ')}`) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('[plugin]', '[plugin.limits]', '[other]', '[[plugin.list]]', '[plugin') },
);

const files = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.array(line, { maxLength: 10 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => ['[plugin]', ...lines].join(eol) + eol) },
  { weight: 1, arbitrary: fc.tuple(fc.array(line, { maxLength: 10 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => lines.join(eol)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** Every line of `before` appears in `after`, in the same order: the file was only added to. */
function keepsEveryLine(before: string, after: string): boolean {
  const kept = after.split(/\r?\n/);
  let at = 0;
  for (const wanted of before.split(/\r?\n/)) {
    while (at < kept.length && kept[at] !== wanted) at += 1;
    if (at === kept.length) return false;
    at += 1;
  }
  return true;
}

describe('properties of reconciling a plugin config file', () => {
  it('[fuzz] any config.toml gives a config the model accepts, keeps every byte the user wrote, and a second run changes nothing', () => {
    const file = join(folder, 'config.toml');
    const seen = { wrote: 0, keptAsIs: 0, usedDefaults: 0, usedFileValues: 0 };
    fc.assert(
      fc.property(files, (text) => {
        writeFileSync(file, text);
        const { logger } = createMemoryLogger('fatal');
        const first = reconcilePluginConfig({ directory: folder, model: Model, pluginId: 'fuzz.reconcile', logger });
        expect(Model.safeParse(first.config).success).toBe(true);
        seen[first.usedDefaults ? 'usedDefaults' : 'usedFileValues'] += 1;
        seen[first.wroteFile ? 'wrote' : 'keptAsIs'] += 1;
        const afterFirst = readFileSync(file, 'utf8');
        if (first.wroteFile) {
          expect(keepsEveryLine(text, afterFirst)).toBe(true);
          if (text.includes('\r\n')) expect(afterFirst.replace(/\r\n/g, '')).not.toContain('\n');
        } else {
          expect(afterFirst).toBe(text);
        }
        const second = reconcilePluginConfig({ directory: folder, model: Model, pluginId: 'fuzz.reconcile', logger });
        expect(second.wroteFile).toBe(false);
        expect(readFileSync(file, 'utf8')).toBe(afterFirst);
        expect(second.config).toEqual(first.config);
      }),
      { numRuns: 400 },
    );
    // The generator reaches every branch, or the property proves less than it says.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(10);
  });
});
