import { readFileSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { loadAppConfig } from '../../../src/kernel/config/load-app-config.js';
import { ConfigFileError } from '../../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('loadAppConfig', () => {
  const tempDir = useTempDir();

  it('writes a commented default features.toml on first run and returns the defaults', () => {
    const configDir = join(tempDir(), 'config');
    const { logger, records } = createMemoryLogger();
    const config = loadAppConfig(configDir, logger);
    expect(config).toEqual({
      advanced: { event_handler_timeout: 30, force_compatibility: false },
      tools: { observation_max_chars: 4000, reversible_enabled: [] },
      media: {
        images_enabled: true,
        image_max_bytes: 5 * 1024 * 1024,
        image_download_timeout_s: 10,
        videos_enabled: true,
        video_max_seconds: 180,
        video_watch_scope: 'related',
        recognition_timeout_s: 30,
        allow_private_addresses: false,
      },
      plugins: { lifecycle_timeout_s: 30 },
      chat: { max_inbound_chars: 20_000, idle_evict_seconds: 1800 },
      admin: { enabled: true, port: 7999 },
    });
    const text = readFileSync(join(configDir, 'features.toml'), 'utf8');
    expect(text).toContain('[advanced]');
    expect(text).toMatch(/# Seconds an event handler may run.*\nevent_handler_timeout = 30\n/);
    expect(text).toMatch(/force_compatibility = false/);
    expect(JSON.parse(JSON.stringify(parse(text)))).toEqual(config);
    expect(records.some((record) => record.msg === 'wrote the default features.toml')).toBe(true);
  });

  it('reads the values a user wrote', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'features.toml'), '[advanced]\nevent_handler_timeout = 5\n');
    expect(loadAppConfig(configDir, createMemoryLogger().logger).advanced).toEqual({ event_handler_timeout: 5, force_compatibility: false });
  });

  it('names the file and the field of a value of the wrong type, and leaves the file alone', () => {
    const configDir = tempDir();
    const file = join(configDir, 'features.toml');
    const original = '[advanced]\nevent_handler_timeout = "thirty"\n';
    writeFileSync(file, original);
    let error: unknown;
    try {
      loadAppConfig(configDir, createMemoryLogger().logger);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ file, issues: [{ path: 'advanced.event_handler_timeout' }] });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/advanced\.event_handler_timeout: .*expected number/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('names the line of a TOML syntax error', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'features.toml'), '[advanced]\nevent_handler_timeout = = 3\n');
    expect(() => loadAppConfig(configDir, createMemoryLogger().logger)).toThrow(/features\.toml:\n.*is not valid TOML at line 2/);
  });

  it('warns about keys it does not know instead of silently dropping them', () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'features.toml'), 'mystery = 1\n[advanced]\nevent_handler_timout = 5\n');
    const { logger, records } = createMemoryLogger();
    const config = loadAppConfig(configDir, logger);
    expect(config.advanced.event_handler_timeout).toBe(30);
    expect(records.find((record) => record.level === 'warn')).toMatchObject({ keys: ['mystery', 'advanced.event_handler_timout'] });
  });

  it('runs on the defaults with a warning when the folder cannot be written', () => {
    if (process.getuid?.() === 0) {
      // root ignores permissions; make the config path a file instead so mkdir fails
      const parent = tempDir();
      writeFileSync(join(parent, 'config'), 'not a folder');
      const { logger, records } = createMemoryLogger();
      expect(loadAppConfig(join(parent, 'config', 'nested'), logger).advanced.event_handler_timeout).toBe(30);
      expect(records.find((record) => record.level === 'warn')?.msg).toMatch(/cannot write the default features.toml/);
      return;
    }
    const parent = tempDir();
    mkdirSync(join(parent, 'locked'));
    chmodSync(join(parent, 'locked'), 0o500);
    const { logger, records } = createMemoryLogger();
    expect(loadAppConfig(join(parent, 'locked', 'config'), logger).advanced.event_handler_timeout).toBe(30);
    expect(records.find((record) => record.level === 'warn')?.msg).toMatch(/cannot write the default features.toml/);
  });
});
