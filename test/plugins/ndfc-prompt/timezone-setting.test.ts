import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/app/create-host.js';
import { ConfigFileError } from '../../../src/kernel/errors/config-file-error.js';
import { createMemoryLogger } from '../../../src/kernel/logger/memory-logger.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('bot.toml [bot] timezone (issue 15, item 7)', () => {
  const tempDir = useTempDir();

  const hostOn = (configDir: string) =>
    createHost({ logger: createMemoryLogger().logger, configDir, dataDir: join(tempDir(), 'data'), database: 'memory', pluginRoots: [] });

  it('[issue 15] is written empty (the machine’s zone) with a comment saying what it takes, and read back', async () => {
    const configDir = tempDir();
    const host = hostOn(configDir);
    await host.start();
    try {
      const text = readFileSync(join(configDir, 'bot.toml'), 'utf8');
      expect(text).toMatch(/# The time zone of every time the bot reads in its prompts .*IANA name such as "Asia\/Shanghai"; empty: the machine’s time zone\.\ntimezone = ""\n/);
      expect(host.chat.runtime.bot.bot.timezone).toBe('');
    } finally {
      await host.stop();
    }
  });

  it('[issue 15] a name that is not a time zone stops the start, naming the file, the field and the value', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'bot.toml'), '[bot]\ntimezone = "Mars/Olympus"\n');
    const error = await hostOn(configDir)
      .start()
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(ConfigFileError);
    const { file, issues, message } = error as ConfigFileError;
    expect(file).toBe(join(configDir, 'bot.toml'));
    expect(issues).toEqual([{ path: 'bot.timezone', reason: expect.stringContaining('"Mars/Olympus" is not a time zone') }]);
    expect(message).toContain('bot.timezone: "Mars/Olympus" is not a time zone: use an IANA name such as "Asia/Shanghai" or "UTC"');
  });

  it('[issue 15] an IANA name is taken as written', async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, 'bot.toml'), '[bot]\ntimezone = "Asia/Shanghai"\n');
    const host = hostOn(configDir);
    await host.start();
    try {
      expect(host.chat.runtime.bot.bot.timezone).toBe('Asia/Shanghai');
    } finally {
      await host.stop();
    }
  });
});
