// Issue 16, item 2 ("its entry (plugin.js, or plugin.ts)"), in a bot project that runs the
// compiled, installed moonglass: a TypeScript plugin package (plugin.ts with legacy decorators,
// a second module, importing `moonglass`) packed and `npm install`ed into node_modules. The
// compiled host compiles the entry once into its data folder (data/cache/plugins/) and imports that
// (src/plugin-system/loader/compiled-entry.ts, issue 20), with moonglass's tsconfig
// (experimentalDecorators) for the plugin's decorators; tsx is not registered at all.
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { projectRoot } from '../support/temp-dir.js';
import { pluginManifest, writeFiles } from '../plugin-system/support/plugin-packages.js';
import { changedPaths, snapshotTree } from './support/file-tree.js';
import { installMoonglass, scaffoldProject, setAdminPort } from './support/installed-projects.js';
import { installPluginTarball, makeReadOnly, makeWritable } from './support/plugin-package-install.js';
import { runCommand } from './support/run-command.js';

const scratch = mkdtempSync(join(tmpdir(), 'moonglass-ts-plugin-package-'));
let project: string;
let folder: string;

/** A TypeScript plugin package: @tool, @service, a constructor @inject (legacy decorators only), types, a second module. */
const TALLY_PACKAGE = {
  'package.json': `${JSON.stringify({ name: 'moonglass-plugin-tally', version: '1.0.0', type: 'module', keywords: ['moonglass-plugin'], files: ['_manifest.json', 'plugin.ts', 'words.ts'], peerDependencies: { moonglass: '^0.1.0' } }, null, 2)}\n`,
  '_manifest.json': pluginManifest('demo.tally'),
  'plugin.ts': `import * as z from 'zod';
import { PluginConfig, ToolExecutionResult, ToolPlugin, getService, tool, type ToolInvocation } from 'moonglass';
import { Joiner, Words, type RepeatStyle } from './words.js';

export const TallyConfig = PluginConfig.extend({
  times: z.number().int().min(1).max(5).default(2).describe('How often the word is said'),
});
type TallyConfig = z.output<typeof TallyConfig>;

export class TallyPlugin extends ToolPlugin<TallyConfig> {
  static override configModel = TallyConfig;

  override components() {
    return [Joiner, Words];
  }

  @tool({
    name: 'repeat_word',
    description: 'Use when someone asks to hear a word several times.',
    parameters: z.object({ word: z.string().max(20).describe('the word') }),
  })
  async repeatWord(invocation: ToolInvocation): Promise<ToolExecutionResult> {
    const words = getService<Words>('demo.tally:service:words');
    if (words === undefined) return ToolExecutionResult.fail(invocation.toolName, 'demo.tally:service:words is not bound');
    const style: RepeatStyle = 'dashed';
    return ToolExecutionResult.ok(invocation.toolName, words.repeat(String(invocation.arguments['word']), this.config.times, style));
  }
}
`,
  'words.ts': `import { inject, service } from 'moonglass';

export type RepeatStyle = 'spaced' | 'dashed';

@service('joiner')
export class Joiner {
  join(parts: readonly string[], style: RepeatStyle): string {
    return parts.join(style === 'spaced' ? ' ' : '-');
  }
}

@service('words')
export class Words {
  constructor(@inject('demo.tally:service:joiner') private readonly joiner: Joiner) {}

  repeat(word: string, times: number, style: RepeatStyle): string {
    return \`\${this.joiner.join(Array.from({ length: times }, () => word), style)} (tally)\`;
  }
}
`,
};

const toolLine = (stdout: string, tool: string) => stdout.split('\n').find((line) => line.startsWith(`· ${tool} `));

beforeAll(async () => {
  const installed = await installMoonglass(projectRoot, scratch);
  project = await scaffoldProject(installed, 'bot');
  setAdminPort(project, await freePort());
  writeFiles(join(scratch, 'src', 'moonglass-plugin-tally'), TALLY_PACKAGE);
  await installPluginTarball(project, projectRoot, join(scratch, 'src', 'moonglass-plugin-tally'), join(scratch, 'tarballs'));
  folder = join(project, 'node_modules', 'moonglass-plugin-tally');
}, 240_000);

afterAll(() => {
  if (folder !== undefined) makeWritable(folder);
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('a TypeScript plugin package in node_modules of a bot project on the installed moonglass', () => {
  it('[issue 16] plugin.ts with decorators, importing moonglass, loads in the compiled host and its tool answers through its services; its settings go to config/plugins/<id>.toml', async () => {
    // A copy, as npm installs a tarball, beside a host that is JavaScript only.
    expect(lstatSync(folder).isDirectory()).toBe(true);
    expect(existsSync(join(folder, 'plugin.ts'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'moonglass', 'src'))).toBe(false);
    expect((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies).toHaveProperty('moonglass-plugin-tally');
    const before = snapshotTree(folder);

    const plugins = await runCommand('npx', ['--no-install', 'moonglass', 'plugins'], { cwd: project, timeoutMs: 60_000 });
    // Its tool and its two services.
    expect(plugins.stdout, plugins.stderr).toMatch(/^loaded\s+demo\.tally 1\.0\.0 \(node_modules\/moonglass-plugin-tally\) 3 component\(s\)$/m);

    const start = await runCommand('npm', ['start', '--', '--log-level', 'debug'], { cwd: project, input: '!repeat_word {"word":"moon"}\n', timeoutMs: 60_000 });
    expect(start.stderr).toMatch(/"id":"demo\.tally".*"msg":"工具插件已加载"/);
    // [issue 20] Compiled by esbuild into the project's data folder, and tsx never registered (about 0.2 s of a start).
    expect(start.stderr).toMatch(/"from":"esbuild".*"msg":"TypeScript plugin entry imported as compiled JavaScript"/);
    expect(start.stderr).not.toMatch(/runs through tsx/);
    // (The scaffolded plugins/dice has its own folder there too.)
    const tally = readdirSync(join(project, 'data', 'cache', 'plugins')).filter((name) => name.startsWith('moonglass-plugin-tally-'));
    expect(tally).toEqual([expect.stringMatching(/^moonglass-plugin-tally-[0-9a-f]{12}$/)]);
    expect(readdirSync(join(project, 'data', 'cache', 'plugins', tally[0]!))).toEqual(expect.arrayContaining([expect.stringMatching(/^plugin-[0-9a-f]{16}\.mjs$/), 'plugin.ts.json']));
    expect(toolLine(start.stdout, 'repeat_word'), start.stdout + start.stderr).toBe('· repeat_word {"word":"moon"} → moon-moon (tally)');
    expect(start.code).toBe(0);
    expect(readFileSync(join(project, 'config', 'plugins', 'demo.tally.toml'), 'utf8')).toMatch(/^times = 2$/m);
    expect(changedPaths(before, snapshotTree(folder))).toEqual([]);
  }, 120_000);

  it('[issue 16] made read-only (chmod -R a-w), the TypeScript package still compiles, loads and answers, and its folder is unchanged', async () => {
    makeReadOnly(folder);
    const before = snapshotTree(folder);
    const start = await runCommand('npm', ['start', '--', '--log-level', 'debug'], { cwd: project, input: '!repeat_word {"word":"ro"}\n', timeoutMs: 60_000 });
    expect(toolLine(start.stdout, 'repeat_word'), start.stdout + start.stderr).toBe('· repeat_word {"word":"ro"} → ro-ro (tally)');
    // [issue 20] The second start imports the compiled entry from the cache.
    expect(start.stderr).toMatch(/"from":"cache".*"msg":"TypeScript plugin entry imported as compiled JavaScript"/);
    expect(changedPaths(before, snapshotTree(folder))).toEqual([]);
  }, 120_000);
});
