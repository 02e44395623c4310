import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../../support/bot-process.js';
import { useProjectTempDir } from '../../support/temp-dir.js';

describe('moonglass check with bot.toml [[rules]]', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  function project(botToml: string): string {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'plugins'));
    mkdirSync(join(cwd, 'config'));
    writeFileSync(join(cwd, 'config', 'bot.toml'), botToml);
    return cwd;
  }

  it('[issue 18.3] a bad rule: exit 1, naming rules.1.hours.0 and the reason, and an unknown key at its path', async () => {
    const cwd = project('[[rules]]\ngroups = ["1"]\n\n[[rules]]\nhours = ["23:00-23:00"]\nfrequncy = 2\n');
    const check = run(['check'], { cwd });
    expect((await check.exited).code).toBe(1);
    const out = check.stdout.join('\n');
    expect(out).toContain('bot.toml');
    expect(out).toMatch(/rules\.1\.hours\.0.*"23:00-23:00" is an empty range/);
    expect(out).toMatch(/rules\.1\.frequncy.*unknown setting/);
  });

  it('[issue 18.3] a rule switching off a plugin that is not loaded: a warning naming bot.toml rules.N.plugins_off, exit 0', async () => {
    const cwd = project('[[rules]]\ngroups = [123]\nplugins_off = ["neo_default_chatter", "no_such_plugin"]\n');
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toContain('warning  bot.toml rules.0.plugins_off.1: no plugin "no_such_plugin" is loaded');
    expect(out).not.toContain('plugins_off.0');
  });
});
