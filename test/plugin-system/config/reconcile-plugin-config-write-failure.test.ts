import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { PluginConfig } from '../../../src/plugin-system/config/plugin-config.js';
import { reconcilePluginConfig } from '../../../src/plugin-system/config/reconcile-plugin-config.js';
import { savePluginConfig } from '../../../src/plugin-system/config/save-plugin-config.js';
import { useTempDir } from '../../support/temp-dir.js';

// Permissions cannot be tested for real when the suite runs as root, so the atomic writer
// is made to fail the way a read-only install makes it fail.
const failure = vi.hoisted(() => ({ code: undefined as string | undefined }));
vi.mock('../../../src/kernel/config/atomic-write-file.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/kernel/config/atomic-write-file.js')>();
  return {
    atomicWriteFile(file: string, text: string): void {
      if (failure.code !== undefined) {
        throw Object.assign(new Error(`${failure.code}: permission denied, open '${file}.tmp'`), { code: failure.code });
      }
      original.atomicWriteFile(file, text);
    },
  };
});

const Model = PluginConfig.extend({ greeting: z.string().default('你好').describe('问候语，会出现在回复开头') });

describe('reconcilePluginConfig when config.toml cannot be written', () => {
  const tempDir = useTempDir();
  afterEach(() => {
    failure.code = undefined;
  });

  it('[T-19] runs on the computed values with one warning when missing fields cannot be added (EACCES)', () => {
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    const text = '[plugin]\nenabled = false\n';
    writeFileSync(file, text);
    failure.code = 'EACCES';
    const { logger, records } = createMemoryLogger();
    const result = reconcilePluginConfig({ directory, model: Model, pluginId: 'example.greeter', logger });
    expect(result).toEqual({ config: { enabled: false, greeting: '你好' }, generated: false, wroteFile: false, usedDefaults: false });
    expect(readFileSync(file, 'utf8')).toBe(text);
    const warnings = records.filter((record) => record.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ msg: '插件配置无法写入，按内存中的结果运行', plugin: 'example.greeter', file });
    expect(String(warnings[0]!['error'])).toMatch(/EACCES/);
  });

  it('[T-19] runs on the defaults with one warning when the default file cannot be generated (EROFS)', () => {
    const directory = tempDir();
    failure.code = 'EROFS';
    const { logger, records } = createMemoryLogger();
    const result = reconcilePluginConfig({ directory, model: Model, pluginId: 'example.greeter', logger });
    expect(result).toEqual({ config: { enabled: true, greeting: '你好' }, generated: false, wroteFile: false, usedDefaults: true });
    expect(readdirSync(directory)).toEqual([]);
    expect(records.filter((record) => record.level === 'warn')).toHaveLength(1);
    expect(records.some((record) => record.msg === '已生成插件配置')).toBe(false);
  });

  it('savePluginConfig reports a file that cannot be written and leaves the old one', () => {
    const directory = tempDir();
    const file = join(directory, 'config.toml');
    writeFileSync(file, '[plugin]\nenabled = true\n');
    failure.code = 'EACCES';
    const result = savePluginConfig(directory, Model, { greeting: '嗨' });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.errors).toEqual([{ field: '', reason: expect.stringMatching(/cannot write .*config\.toml.*EACCES/) }]);
    expect(readFileSync(file, 'utf8')).toBe('[plugin]\nenabled = true\n');
  });
});
