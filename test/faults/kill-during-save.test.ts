import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTomlFile } from '../../src/kernel/config/read-toml-file.js';
import { projectRoot, useTempDir } from '../support/temp-dir.js';

const SAVER = join(projectRoot, 'test/fixtures/faults/save-config-forever.ts');
const REGISTER = pathToFileURL(join(projectRoot, 'src/register-typescript.mjs')).href;

describe('savePluginConfig under SIGKILL', () => {
  const tempDir = useTempDir();

  it('[fault] a process killed in the middle of saving leaves the config wholly old or wholly new, every time', async () => {
    const seen = new Set<string>();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const folder = tempDir();
      const child = spawn(process.execPath, ['--conditions=source', '--import', REGISTER, SAVER, folder], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      // Kill at a different moment each time, while it writes as fast as it can.
      await new Promise((resolve) => setTimeout(resolve, 30 + attempt * 37));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const table = readTomlFile(join(folder, 'config.toml'))?.['plugin'] as { greeting: string; padding: string } | undefined;
      expect(table).toBeDefined();
      const whole = (table!.greeting === 'old' && table!.padding === 'a'.repeat(50_000)) || (table!.greeting === 'new' && table!.padding === 'b'.repeat(50_000));
      expect(whole).toBe(true);
      seen.add(table!.greeting);
      // No half-written temporary file is ever taken for the config.
      expect(readdirSync(folder).filter((name) => name === 'config.toml')).toEqual(['config.toml']);
    }
    expect(seen.size).toBeGreaterThan(0);
  }, 60_000);
});
