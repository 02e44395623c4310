import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { readEnabledFlag } from '../../../src/plugin-system/config/read-enabled-flag.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('readEnabledFlag', () => {
  const tempDir = useTempDir();

  function check(text: string | undefined) {
    const directory = tempDir();
    if (text !== undefined) writeFileSync(join(directory, 'config.toml'), text);
    const { logger, records } = createMemoryLogger();
    const enabled = readEnabledFlag(directory, logger);
    return { enabled, directory, warnings: records.filter((record) => record.level === 'warn'), notes: records.filter((record) => record.level === 'debug') };
  }

  it('[T-17] treats a missing file as enabled, silently', () => {
    expect(check(undefined)).toMatchObject({ enabled: true, warnings: [] });
  });

  it('[T-17] skips the plugin only for a literal boolean false', () => {
    expect(check('[plugin]\nenabled = false\n')).toMatchObject({ enabled: false, warnings: [] });
    expect(check('[plugin]\nenabled = true\n')).toMatchObject({ enabled: true, warnings: [] });
  });

  it('[T-17] treats the string "false" as enabled: phase 1 knows no coercion (a debug note; phase 2 decides and warns)', () => {
    for (const value of ['"false"', '"no"', '0']) {
      const { enabled, warnings, notes } = check(`[plugin]\nenabled = ${value}\n`);
      expect(enabled).toBe(true);
      expect(warnings).toHaveLength(0);
      expect(notes[0]!.msg).toMatch(/按启用处理/);
    }
  });

  it('[T-18] treats a broken file as enabled, leaving the one warning to phase 2', () => {
    const { enabled, warnings, notes, directory } = check('[plugin\nenabled = false\n');
    expect(enabled).toBe(true);
    expect(warnings).toHaveLength(0);
    expect(notes[0]).toMatchObject({ file: join(directory, 'config.toml') });
  });

  it('[T-18] treats an unreadable config.toml (a folder in its place) as enabled', () => {
    const directory = tempDir();
    mkdirSync(join(directory, 'config.toml'));
    const { logger, records } = createMemoryLogger();
    expect(readEnabledFlag(directory, logger)).toBe(true);
    expect(records.filter((record) => record.level === 'warn')).toHaveLength(0);
  });

  it('treats a file without [plugin] or without enabled as enabled, silently (phase 2 reports the file)', () => {
    expect(check('title = "x"\n')).toMatchObject({ enabled: true, warnings: [] });
    expect(check('[plugin]\ngreeting = "嗨"\n')).toMatchObject({ enabled: true, warnings: [] });
  });

  it('[T-17] imports no config model or plugin code: it reads raw TOML only', () => {
    const source = readFileSync(new URL('../../../src/plugin-system/config/read-enabled-flag.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imports).toEqual([
      'node:path',
      '../../kernel/config/read-toml-file.js',
      '../../kernel/errors/describe-error.js',
      '../../kernel/logger/logger.js',
      './plugin-config.js',
    ]);
    expect(source).toMatch(/import \{ PLUGIN_CONFIG_FILE_NAME \} from '\.\/plugin-config\.js'/);
    const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/stringbool|"no"|'no'|"off"|'off'|toLowerCase/);
  });
});

describe('the two-phase switch', () => {
  const tempDir = useTempDir();

  it('[T-17] enabled = "no": phase 1 lets the plugin through, phase 2 (the model coercing with z.stringbool) switches it off', () => {
    const CoercingConfig = PluginConfig.extend({
      enabled: z.boolean().or(z.stringbool()).default(true).describe('是否启用本插件；false 时宿主不会加载它'),
    });
    const directory = tempDir();
    const text = '[plugin]\nenabled = "no"\n';
    writeFileSync(join(directory, 'config.toml'), text);
    const { logger, records } = createMemoryLogger();

    expect(readEnabledFlag(directory, logger)).toBe(true);
    const { config } = reconcilePluginConfig({ directory, model: CoercingConfig, pluginId: 'example.switch', logger });
    expect(config.enabled).toBe(false);
    expect(readFileSync(join(directory, 'config.toml'), 'utf8')).toBe(text);
    // Nobody warned: phase 1 only noted it, and the model accepted the string.
    expect(records.filter((record) => record.level === 'warn')).toHaveLength(0);
  });

  it('[T-17] [issue 15.1] with the plain PluginConfig model, "no" means off, as the seed\'s model reads it; the file keeps what the user wrote, and nobody warns', () => {
    const directory = tempDir();
    writeFileSync(join(directory, 'config.toml'), '[plugin]\nenabled = "no"\n');
    const { logger, records } = createMemoryLogger();
    expect(reconcilePluginConfig({ directory, model: PluginConfig, pluginId: 'example.switch', logger }).config.enabled).toBe(false);
    expect(readFileSync(join(directory, 'config.toml'), 'utf8')).toBe('[plugin]\nenabled = "no"\n');
    expect(records.filter((record) => record.level === 'warn')).toHaveLength(0);
  });
});
