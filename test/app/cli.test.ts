import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('[cli] check on a fresh folder: every file absent (defaults), every plugin fine, exit 0, no host file written', async () => {
    const cwd = project(['good-echo']);
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/absent +.*config\/bot\.toml \(start writes the defaults\)/);
    expect(out).toMatch(/ok +adapter console/);
    expect(out).toMatch(/loaded +neo_default_chatter/);
    expect(out).toMatch(/loaded +fixture\.good-echo 1\.0\.0 \(plugins\/good-echo\) 3 component\(s\)/);
    expect(out).toContain('no problems found');
    expect(existsSync(join(cwd, 'config'))).toBe(false);
    // Plugins loaded on a scratch data folder: data/ is not created.
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });

  it('[issue 15] check names every plugin config.toml it wrote, and a second check, finding them, writes and names none', async () => {
    const cwd = project(['good-echo']);
    const first = run(['check'], { cwd });
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const wrote = first.stdout.filter((line) => line.startsWith('wrote '));
    expect(wrote).toContainEqual("wrote    plugins/good-echo/config.toml (the plugin's settings with their defaults, as start writes them)");
    // The built-ins (a scratch copy outside the working folder here) are named with their full path.
    expect(wrote).toContainEqual(expect.stringMatching(/^wrote +\/.*\/neo_default_chatter\/config\.toml /));
    expect(existsSync(join(cwd, 'plugins', 'good-echo', 'config.toml'))).toBe(true);
    // One line per plugin folder (this project's and the built-ins): nothing written goes unnamed.
    expect(wrote.map((line) => line.split(/ +/)[1]!.split('/').at(-2)).sort()).toEqual(['forward-message', 'good-echo', 'hello-yueli', 'neo_default_chatter', 'owner-commands', 'proactive_speech']);

    // Completed, not rewritten: a file missing one setting gets it and is named as updated.
    const file = join(cwd, 'plugins', 'good-echo', 'config.toml');
    writeFileSync(file, '[plugin]\nenabled = true\n');
    const second = run(['check'], { cwd });
    expect(await second.exited).toEqual({ code: 0, signal: null });
    const changed = second.stdout.filter((line) => /^(wrote|updated) /.test(line));
    expect(changed.filter((line) => line.includes('plugins/good-echo'))).toEqual(['updated  plugins/good-echo/config.toml (settings the file lacked were added, as start does)']);
    expect(readFileSync(file, 'utf8')).toContain('prefix = "echo: "');
  });

  it('[issue 19] check warns about keys the host does not read (a misspelt table or field) and about a real model no task can use, and still exits 0', async () => {
    const cwd = project();
    mkdirSync(join(cwd, 'config'));
    writeFileSync(join(cwd, 'config/bot.toml'), '[permisions]\nowners = { qq = ["1"] }\n[chat]\nmessage_bufer_seconds = 2\n');
    writeFileSync(join(cwd, 'config/models.toml'), '[providers.local]\nbase_url = "http://127.0.0.1:9/v1"\n[models.qwen]\nprovider = "local"\nmodel = "qwen2.5:7b"\n');
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 0, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/^warning +.*config\/bot\.toml: unknown key permisions \(ignored: the host does not read it; a typo\?\)$/m);
    expect(out).toMatch(/^warning +.*config\/bot\.toml: unknown key chat\.message_bufer_seconds /m);
    expect(out).toMatch(/^warning +.*config\/models\.toml: \[tasks\.actor\] lists no models, so every reply fails \(MG_LLM_TASK\) until it does: add \[tasks\.actor\] models = \["qwen"\]$/m);
    expect(out).toMatch(/^no problems found \(3 warnings above\)$/m);

    // The start-up report says it as a warning too, instead of naming the model as answering.
    const start = run(['start'], { cwd });
    start.child.stdin!.end();
    await start.exited;
    const report = await start.waitForLog(/^model for replies/);
    expect(report['level']).toBe(40);
    expect(report['msg']).toMatch(/^model for replies \(task actor\): none — .*models\.toml \[tasks\.actor\] lists no models, so every reply fails \(MG_LLM_TASK\) until it does$/);
  });

  it('[issue 19] with an invalid bot.toml, check still checks the adapter the file names, and that adapter’s config', async () => {
    const cwd = project();
    mkdirSync(join(cwd, 'config', 'adapters'), { recursive: true });
    writeFileSync(join(cwd, 'config', 'bot.toml'), '[platform]\nadapter = "onebot_v11"\n[chat]\nmessage_buffer_seconds = -1\n');
    writeFileSync(join(cwd, 'config', 'adapters', 'onebot_v11.toml'), 'mode = "sideways"\n');
    const check = run(['check'], { cwd });
    expect(await check.exited).toEqual({ code: 1, signal: null });
    const out = check.stdout.join('\n');
    expect(out).toMatch(/^PROBLEM .*config\/adapters\/onebot_v11\.toml/m);
    expect(out).toMatch(/^ +- mode: /m);
    expect(out).toMatch(/^ok +adapter onebot_v11$/m);
    expect(out).not.toMatch(/adapter console/);
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
    expect(out).toMatch(/failed +fixture\.import-throws 1\.0\.0 \(plugins\/import-throws\) entry: .*the entry blew up at import/);
    expect(out).toContain('1 problem(s) found');
  });

  it('[issue 15] a plugin that fails to import shows the file and line of the error: a throw, a syntax error, a missing module', async () => {
    const cwd = project(['import-throws']);
    const manifest = (id: string) =>
      JSON.stringify({ manifest_version: 1, id, plugin_type: 'tool', name: id, version: '1.0.0', description: id, host_application: { min_version: '0.1.0', max_version: '0.1.9' } });
    const write = (folder: string, files: Record<string, string>) => {
      mkdirSync(join(cwd, 'plugins', folder));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, 'plugins', folder, name), text);
    };
    write('syntax-error', { '_manifest.json': manifest('fixture.syntax-error'), 'plugin.ts': "import { ToolPlugin } from 'moonglass';\nexport class P extends ToolPlugin {\n  x = ;\n}\n" });
    write('missing-module', {
      '_manifest.json': manifest('fixture.missing-module'),
      'plugin.ts': "import { ToolPlugin } from 'moonglass';\n\nimport { helper } from './helpers.js';\nexport class P extends ToolPlugin { x = helper; }\n",
    });
    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    const lines = plugins.stdout;
    const locationAfter = (id: string) => lines[lines.findIndex((line) => line.includes(` ${id} `)) + 1];
    expect(locationAfter('fixture.import-throws')).toBe('         at plugins/import-throws/plugin.ts:3:7');
    expect(locationAfter('fixture.syntax-error')).toBe('         at plugins/syntax-error/plugin.ts:3:6');
    expect(locationAfter('fixture.missing-module')).toBe('         at plugins/missing-module/plugin.ts:3');
  });

  it('[issue 15] a plugin whose onLoad throws shows the file and line of the throw, in moonglass plugins and in npm start\'s report', async () => {
    const cwd = project(['onload-throws', 'good-echo']);
    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    const lines = plugins.stdout;
    expect(lines[lines.findIndex((line) => line.includes(' fixture.onload-throws ')) + 1]).toBe('         at plugins/onload-throws/plugin.ts:9:11');

    const start = run(['start'], { cwd });
    start.child.stdin!.end();
    await start.exited;
    const report = [...start.stdout, ...start.stderr].join('\n');
    expect(report).toMatch(/plugin fixture\.onload-throws .*failed \(load\): .*database unreachable.* \(at plugins\/onload-throws\/plugin\.ts:9:11\)/);
  });

  it('[issue 15] check reports a name in features.toml [tools] reversible_enabled that no plugin declares', async () => {
    const cwd = project(['reversible-tool']);
    mkdirSync(join(cwd, 'config'));
    writeFileSync(join(cwd, 'config', 'features.toml'), '[tools]\nreversible_enabled = ["set_remindr"]\n');
    const typo = run(['check'], { cwd });
    expect(await typo.exited).toEqual({ code: 1, signal: null });
    const out = typo.stdout.join('\n');
    expect(out).toMatch(/PROBLEM +.*config\/features\.toml \[tools\] reversible_enabled: "set_remindr" is not a tool any loaded plugin declares .*reversible tools declared: set_reminder/);
    // The tool it was meant for stays hidden, and check says so.
    expect(out).toContain('note     reversible, not enabled: set_reminder — enable in features.toml [tools] reversible_enabled');
    expect(out).toContain('1 problem(s) found');

    writeFileSync(join(cwd, 'config', 'features.toml'), '[tools]\nreversible_enabled = ["set_reminder"]\n');
    const fixed = run(['check'], { cwd });
    expect(await fixed.exited).toEqual({ code: 0, signal: null });
    expect(fixed.stdout.join('\n')).not.toMatch(/reversible_enabled|reversible, not enabled/);
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
    expect(lines.filter((line) => /\(plugins\/[\w-]+\)/.test(line)).map((line) => line.split(/ +/)[0]).sort()).toEqual(['disabled', 'failed', 'loaded']);
  });

  it('[issue 15] plugins names a plugin by the id of its manifest when the manifest is readable but refused, by its folder when it is not JSON', async () => {
    const cwd = project(['missing-field', 'bad-json']);
    const plugins = run(['plugins'], { cwd });
    expect(await plugins.exited).toEqual({ code: 1, signal: null });
    expect(plugins.stdout).toContainEqual(expect.stringMatching(/^skipped +fixture\.missing-field \(plugins\/missing-field\) manifest: .*description/));
    expect(plugins.stdout).toContainEqual(expect.stringMatching(/^skipped +bad-json \(plugins\/bad-json\) manifest: .*not valid JSON/));
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
