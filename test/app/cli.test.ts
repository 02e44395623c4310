import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/bot-process.js';
import { projectRoot, useProjectTempDir } from '../support/temp-dir.js';

const fixture = (name: string) => join(projectRoot, 'test/fixtures/plugin-roots/third-party', name);

describe('the moonglass CLI', () => {
  const run = useBotProcesses();
  const tempDir = useProjectTempDir();

  /**
   * A bot project folder whose plugins/ holds the given fixture plugins. It has no
   * tsconfig.json: moonglass compiles plugins with its own settings, from any folder.
   */
  function project(plugins: string[] = []): string {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'plugins'));
    for (const name of plugins) cpSync(fixture(name), join(cwd, 'plugins', name), { recursive: true });
    return cwd;
  }

  it('[cli] check on a fresh folder: every file absent (defaults), every plugin fine, exit 0, nothing written', async () => {
    const cwd = project(['good-echo']);
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/absent +.*config\/bot\.toml \(start writes the defaults\)/);
    expect(out).toMatch(/ok +adapter console/);
    expect(out).toMatch(/loaded +neo_default_chatter/);
    expect(out).toMatch(/loaded +.* \(plugins\/\)/);
    expect(out).toContain('no problems found');
    expect(existsSync(join(cwd, 'config'))).toBe(false);
  });

  it('[cli] check names every bad file and field and exits 1', async () => {
    const cwd = project();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[chat]\nmessage_buffer_seconds = -3\n');
    writeFileSync(join(cwd, 'config', 'models.toml'), '[models.main]\nprovider = "nowhere"\nmodel = "m"\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'console.toml'), 'user_id = 7\n');
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 1, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/PROBLEM .*config\/bot\.toml[\s\S]*chat\.message_buffer_seconds/);
    expect(out).toMatch(/PROBLEM .*config\/models\.toml[\s\S]*models\.main\.provider/);
    expect(out).toMatch(/PROBLEM .*config\/adapters\/console\.toml[\s\S]*user_id/);
    expect(out).toContain('3 problem(s)');
  });

  it('[cli] check reports a plugin that fails to load, with its reason, and exits 1', async () => {
    const cwd = project(['good-echo', 'import-throws']);
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 1, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/failed +\S+ .*\(plugins\/\) entry: /);
    expect(out).toContain('1 problem(s) found');
  });

  it('[cli] check refuses an unknown adapter, naming the known ones', async () => {
    const cwd = project();
    const check = run(['check', '--adapter', 'irc'], { cwd });
    expect(await check.exited).toEqual({ code: 1, signal: null });
    expect(check.stdout.join('\n')).toMatch(/PROBLEM .*adapter "irc": no such adapter.*known adapters: console/);
  });

  it('[cli] plugins lists each plugin with its state: loaded, switched off, failed', async () => {
    const cwd = project(['good-echo', 'disabled-false', 'import-throws']);
    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    const lines = plugins.stdout.filter((line) => line !== '');
    expect(lines.some((line) => /^loaded +neo_default_chatter \S+ \(built-in\) \d+ component\(s\)$/.test(line))).toBe(true);
    expect(lines.some((line) => /^disabled +example\.hello-yueli .*switch: /.test(line))).toBe(true);
    expect(lines.filter((line) => /\(plugins\/\)/.test(line)).map((line) => line.split(/ +/)[0]).sort()).toEqual(['disabled', 'failed', 'loaded']);
  });

  it('[cli] a bad option or command prints the usage and exits 2; --help exits 0', async () => {
    const bad = run(['serve']);
    expect(await bad.exited).toEqual({ code: 2, signal: null });
    expect(bad.stderr.join('\n')).toMatch(/unknown command: serve[\s\S]*Usage:/);
    const level = run(['start', '--log-level', 'loud']);
    expect(await level.exited).toEqual({ code: 2, signal: null });
    expect(level.stderr.join('\n')).toContain('--log-level must be one of');
    const help = run(['--help']);
    expect(await help.exited).toEqual({ code: 0, signal: null });
    expect(help.stdout.join('\n')).toMatch(/moonglass check \[options\]/);
  });
});
